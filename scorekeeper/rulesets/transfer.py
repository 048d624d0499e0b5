"""The table's saved rule sets in the score book's export (`rule_sets`, from format version 4):
each with its name, its whole document and when it was saved, last changed and last used.

The rule sets register this section with the score book's export at app start (`register`): the
score book writes and reads its document without knowing them. An import keeps each saved rule
set's id: a night names the rules it was set up with by it (`ruleset:3`), and the saved rule
set's pages by their addresses. It refuses a rule set the app would not keep (a name not as the
app writes it; a document that cannot be used, every problem named, or named otherwise than the
row), two of one name (as it looks, `name_key`), and the whole document when
this database holds a saved rule set of the same id or name (`clashes`), writing nothing.
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask_babel import gettext as _
from flask_babel import ngettext

from ..games.errors import NameRefused
from ..games.importer import Checker, distinct_rows, read_part
from ..games.names import clean_name, name_key
from ..games.transfer import Field, Imported, Kind, Part, Section, held, register_section
from ..platform.database import db
from ..rules.ruleset import NAME_MAX as RULES_NAME_MAX
from .models import SavedRuleSet
from .service import kept_name

NAME = "rule_sets"

RULE_SET = Part(
    "saved rule set",
    SavedRuleSet,
    (
        Field("id", Kind.ID),
        Field("name", Kind.TEXT, high=RULES_NAME_MAX),
        # The whole document; its "name" is the row's `name`.
        Field("rules", Kind.RULES),
        Field("created_at", Kind.TIME),
        Field("updated_at", Kind.TIME),
        Field("used_at", Kind.TIME, empty=True),
    ),
)


def export() -> list[dict[str, Any]]:
    """Every saved rule set, oldest id first."""
    statement = db.select(SavedRuleSet).order_by(SavedRuleSet.id)
    return [RULE_SET.write(row) for row in db.session.scalars(statement)]


def check(check: Checker, items: Any, imported: Imported) -> list[SavedRuleSet]:
    """The document's saved rule sets built, not stored, or `ImportRefused` naming the first
    problem."""
    return distinct_rows(
        check,
        items,
        _rule_set,
        lambda row_id: _("repeats saved rule set %(id)s", id=row_id),
        lambda name: _("repeats the saved rule set called %(name)s", name=name),
    )


def _rule_set(check: Checker, item: Any, index: int) -> SavedRuleSet:
    values = read_part(check, RULE_SET, item, index)
    name = values["name"]
    if clean_name(name) != name:
        said = _("must be written %(name)s, as the app keeps it", name=repr(clean_name(name)))
        raise check.at("name").fail(said)
    try:
        kept_name(name)  # a preset's too: saved before a release made it one, it is kept
    except NameRefused as error:
        raise check.at("name").fail(error.message) from None
    if values["rules"]["name"] != name:
        raise (
            check.at("rules")
            .at("name")
            .fail(_("must be %(name)s, the saved rule set's name", name=repr(name)))
        )
    return SavedRuleSet(**values, name_key=name_key(name))


def clashes(rows: list[SavedRuleSet]) -> list[str]:
    """The saved rule sets whose ids or names this database holds already, in words."""
    found = []
    taken = held(SavedRuleSet.id, [row.id for row in rows])
    if taken:
        found.append(
            ngettext(
                "saved rule set %(ids)s already exists in this database",
                "saved rule sets %(ids)s already exist in this database",
                len(taken),
                ids=", ".join(map(str, taken)),
            )
        )
    named = held(SavedRuleSet.name_key, [row.name_key for row in rows], shown=SavedRuleSet.name)
    if named:
        found.append(
            ngettext(
                "a saved rule set called %(names)s is already in this database",
                "saved rule sets called %(names)s are already in this database",
                len(named),
                names=", ".join(named),
            )
        )
    return found


SECTION = Section(NAME, export, check, clashes, since=4)


def register(app: Flask) -> None:
    """Carry the saved rule sets in the app's export and import."""
    register_section(app, SECTION)
