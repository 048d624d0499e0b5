"""The table's saved rule sets: keep its own rules under a name, change, rename, delete (R11).

The pages, the JSON API and the command line all call these functions. A saved rule set is a
document like a game's; a game started from it copies that document, so nothing done here ever
changes a game already played. Writes are flushed, never committed: the route's
`writeonce.write_once` commits them with its answer (the command line commits itself).

Names are cleaned and compared like players' names (`names`): "Smith family", "smith  Family"
and look-alikes in other scripts are one name, so two saved rule sets are never told apart by
case. A preset's name is refused: a table's rules named "Shanghai" would read as the preset.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from sqlalchemy import case
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from ..games.errors import Conflict, NameRefused, NoSuchRuleSet
from ..games.ledger import _when
from ..games.models import utcnow
from ..games.names import clean_name, name_key, written_problem
from ..platform import database
from ..platform.database import db
from ..platform.writeonce import Scope
from ..rules.ruleset import NAME_MAX, PRESETS, RuleSet
from .models import SavedRuleSet

# A write to a saved rule set, on the pages and the API: "rule set 3", or "new rule set".
WRITES = Scope("rule set", "ruleset_id")


def saved() -> list[SavedRuleSet]:
    """Every saved rule set, the one a game last started from (or last changed) first."""
    last = case(
        (SavedRuleSet.used_at > SavedRuleSet.updated_at, SavedRuleSet.used_at),
        else_=SavedRuleSet.updated_at,
    )
    return list(
        db.session.scalars(db.select(SavedRuleSet).order_by(last.desc(), SavedRuleSet.id.desc()))
    )


def get(ruleset_id: int) -> SavedRuleSet:
    """The saved rule set with this id, or `NoSuchRuleSet` (404): an id past what the database
    holds (PostgreSQL's 32 bits, from an address) is one that does not exist, not an error."""
    if ruleset_id not in database.id_range():
        raise NoSuchRuleSet(ruleset_id)
    row = db.session.get(SavedRuleSet, ruleset_id)
    if row is None:
        raise NoSuchRuleSet(ruleset_id)
    return row


def named(name: str) -> SavedRuleSet:
    """The saved rule set of this name: as written, else any that looks like it (any case,
    accents, look-alike letters); `NoSuchRuleSet` when none does."""
    written = clean_name(name)
    row = db.session.scalar(db.select(SavedRuleSet).where(SavedRuleSet.name == written))
    if row is None:
        key = name_key(written)
        row = db.session.scalar(db.select(SavedRuleSet).where(SavedRuleSet.name_key == key))
    if row is None:
        raise NoSuchRuleSet(written)
    return row


def save(rules: RuleSet, name: str | None = None) -> SavedRuleSet:
    """Keep `rules` under `name` (the rules' own name when none is given); `NameRefused` (400)
    for a name that cannot be used, `Conflict` (409) when a saved rule set already has it."""
    name = check_name(rules.name if name is None else name)
    now = utcnow()
    row = SavedRuleSet(name=name, name_key=name_key(name), created_at=now, updated_at=now)
    row.rule_set = rules.renamed(name)
    db.session.add(row)
    _flush(name)
    return row


def change(
    ruleset_id: int, *, rules: RuleSet | None = None, name: str | None = None
) -> SavedRuleSet:
    """Rename a saved rule set and/or change its rules. Games already played from it keep the
    copy they took; only games started from now on play the change."""
    row = get(ruleset_id)
    if name is not None:
        row.name = check_name(name, keep=row)
        row.name_key = name_key(row.name)
    row.rule_set = (row.rule_set if rules is None else rules).renamed(row.name)
    row.updated_at = utcnow()
    _flush(row.name, ruleset_id)
    return row


def delete(ruleset_id: int) -> None:
    """Forget a saved rule set; the games started from it keep their own copies. `NoSuchRuleSet`
    when it is gone, deleted meanwhile by another tablet too."""
    statement = db.delete(SavedRuleSet).where(SavedRuleSet.id == ruleset_id)
    if not db.session.execute(statement).rowcount:
        raise NoSuchRuleSet(ruleset_id)


def mark_used(ruleset_id: int) -> None:
    """Note that a game starts from this saved rule set now: it comes first in the lists. One
    deleted meanwhile stays deleted (the game has its copy already): nothing to note."""
    db.session.execute(
        db.update(SavedRuleSet).where(SavedRuleSet.id == ruleset_id).values(used_at=utcnow())
    )


def as_json(row: SavedRuleSet) -> dict[str, Any]:
    """A saved rule set as the API answers it: its whole document under `rules`."""
    rules = row.rule_set
    return {
        "id": row.id,
        "name": row.name,
        "summary": rules.summary(),
        "rules": rules.to_json(),
        "created_at": _when(row.created_at),
        "updated_at": _when(row.updated_at),
        "used_at": _when(row.used_at),
    }


def check_name(name: str, *, keep: SavedRuleSet | None = None) -> str:
    """The name as it will be saved, or `NameRefused` / `Conflict` saying why it cannot be
    (`keep`: the saved rule set being renamed, which may keep its own name in another case)."""
    cleaned = written_name(name)
    key = name_key(cleaned)
    taken = db.session.scalar(db.select(SavedRuleSet).where(SavedRuleSet.name_key == key))
    if taken is not None and taken is not keep:
        raise _taken(cleaned, taken.name)
    return cleaned


def written_name(name: str) -> str:
    """The name as it will be saved, or `NameRefused` saying why no saved rule set may have it
    (empty, not shown as written, a preset's), whatever the table has saved already."""
    cleaned = kept_name(name)
    key = name_key(cleaned)
    preset = next((rules for rules in PRESETS.values() if name_key(rules.name) == key), None)
    if preset is not None:
        raise NameRefused(
            _(
                "%(preset)s is a preset: give your table's rules a name of their own, like "
                '"Smith family"',
                preset=preset.name,
            )
        )
    return cleaned


def kept_name(name: str) -> str:
    """The name as the app writes it, or `NameRefused` (empty, not shown as written): what a
    saved rule set of any release may be called. A preset's name is refused only to a name given
    now (`written_name`): a table may hold rules saved under a name a later release gave a preset
    (R12's carioca and continental), and keeps them under it."""
    cleaned = clean_name(name) if isinstance(name, str) else ""
    if not cleaned:
        raise NameRefused(_('give your table\'s rules a name, like "Smith family"'))
    if (problem := written_problem(cleaned, NAME_MAX)) is not None:
        raise NameRefused(problem)
    return cleaned


def _taken(name: str, saved_name: str) -> Conflict:
    if name == saved_name:
        return Conflict(
            _(
                '"%(name)s" is already saved: choose another name, or change that rule set instead',
                name=name,
            )
        )
    return Conflict(
        _(
            '"%(name)s" looks like "%(saved)s", which is already saved: choose another name, or '
            "change that rule set instead",
            name=name,
            saved=saved_name,
        )
    )


def _flush(name: str, ruleset_id: int | None = None) -> None:
    """Write it, or `Conflict` when another tablet saved the same name meanwhile (the unique
    name key decides between two racing saves), or `NoSuchRuleSet` when the one changed was
    deleted meanwhile; nothing of this write is stored then."""
    try:
        db.session.flush()
    except IntegrityError:
        db.session.rollback()
        raise _taken(name, name) from None
    except StaleDataError:
        db.session.rollback()
        raise NoSuchRuleSet(ruleset_id or 0) from None
