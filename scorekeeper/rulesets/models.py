"""The saved rule sets: a table's own rules kept under a name (R11)."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from ..games.models import KEY_MAX, _parsed, utcnow
from ..platform.database import db
from ..rules.ruleset import NAME_MAX as RULES_NAME_MAX
from ..rules.ruleset import RuleSet


class SavedRuleSet(db.Model):
    """A table's own rule set, kept under its name to start games with, change and share (R11).

    A game started from it copies its document: changing or deleting the saved rule set never
    changes a game already played.
    """

    __tablename__ = "saved_rule_sets"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(RULES_NAME_MAX))
    # The name reduced to how it looks (`names.name_key`): "Smith family" and "smith Family"
    # are one saved rule set, so a table never has to tell two of them apart by case.
    name_key: Mapped[str] = mapped_column(String(KEY_MAX))
    # The whole document (`RuleSet.to_json`); its "name" is always the row's `name`.
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    # The last time a game started from it: the most used rule sets come first in the lists.
    used_at: Mapped[datetime | None]

    __table_args__ = (UniqueConstraint("name_key", name="saved_rule_sets_name_key"),)

    @property
    def rule_set(self) -> RuleSet:
        """The saved rules, read from the document once per distinct document (see `Game`)."""
        return _parsed(json.dumps(self.rules, sort_keys=True, separators=(",", ":")))

    @rule_set.setter
    def rule_set(self, rules: RuleSet) -> None:
        self.rules = rules.to_json()

    @property
    def last_used(self) -> datetime:
        """When the table last started a game from it, or changed it: what the lists sort by."""
        return max(self.updated_at, self.used_at) if self.used_at else self.updated_at

    def __repr__(self) -> str:
        return f"<SavedRuleSet {self.id} {self.name!r}>"
