"""Which rule set a request means: a preset, a saved rule set, a shared one or a game's, read
the same way by every page and API that takes rules, and the pickers that offer them.

A request names its rules by one value (`named`): a preset's key (`shanghai`), a saved rule set
(`ruleset:<id>`), a share code (`code:<code>`) or a game's rules (`game:<id>`); an address may
also say `?ruleset=<id>`, `?code=<code>` or `?game=<id>` (`from_args`). What it names is a
`Chosen`: the rules, where they came from, the picker's value, label and the query that names
them again. Each page and API answers what cannot be read its own way, but alike where it
matters: a damaged `code:` is a 400 naming the problem on every page and API; an unknown value
a page's picker sends is ignored there, and refused by the APIs.

The pickers (`choices`) offer the presets, a shared rule set opened by its code, then the table's
saved rule sets, most recent first, so one select holds them all. On the new game page, without
its script the editor is not refilled when the picker changes, so the form carries the choice
the editor was filled from (`filled_from`): a picker changed since then is honoured, and an
editor changed since then (the picker left alone) is kept.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from flask import abort
from flask_babel import gettext as _

from ..games import ledger
from ..games.errors import NoSuchGame, NoSuchRuleSet
from ..games.models import Game
from ..platform import language
from ..rules import PRESETS, RuleSet, RuleSetError, sharing
from ..rules.ruleset import DEFAULT_RULES
from ..rules.ruleset.schema import UNNAMED
from ..rules.ruleset.words import players_range
from ..rules.verdict import sentence
from . import service as rulesets

# The values that name rules beside a preset's key: a saved rule set (`ruleset:<id>`), a game's
# rules (`game:<id>`), a share code (`code:<code>`); on the new game page, the shared rule set
# its address opened (its code then travels in a field of its own).
SAVED = "ruleset:"
GAME = "game:"
CODE = "code:"
SHARED = "shared"


@dataclass(frozen=True)
class Chosen:
    """The rules a request means, and where they came from (at most one of game, saved id,
    code; none for a preset). `value` is the picker's value that names them."""

    rules: RuleSet
    value: str
    game: Game | None = None
    saved: int | None = None
    code: str | None = None

    @property
    def label(self) -> str:
        """How a picker lists them: `Shanghai: …`, `Ours (ours): …`, `Shared: Theirs: …`."""
        name, span = self.rules.label, players_range(self.rules, language.speech())
        if self.saved is not None:
            return _("%(name)s (ours): %(players)s", name=name, players=span)
        if self.code is not None:
            return _("Shared: %(name)s: %(players)s", name=name, players=span)
        return _("%(name)s: %(players)s", name=name, players=span)

    @property
    def group(self) -> str:
        """The picker's group: `Presets`, `Our table's rules`, `Shared` or `This game`."""
        if self.game is not None:
            return _("This game")
        if self.saved is not None:
            return _("Our table's rules")
        return _("Shared") if self.code is not None else _("Presets")

    @property
    def whose(self) -> str:
        """`Smith family rules`, `Shanghai rules`: how a page says whose rules it applies."""
        return sentence(self.rules.rules_name)

    def query(self) -> dict[str, Any]:
        """The choice as a link's query, so that another page reads the same rules."""
        if self.game is not None:
            return {"game": self.game.id}
        if self.saved is not None:
            return {"ruleset": self.saved}
        if self.code is not None:
            return {"code": self.code}
        return {"rules": self.value}


def preset(key: str) -> Chosen:
    """A preset, by its key (`KeyError` for none)."""
    return Chosen(PRESETS[key], key)


DEFAULT = Chosen(DEFAULT_RULES, DEFAULT_RULES.preset or "liverpool")


def saved(ruleset_id: int) -> Chosen:
    """The table's saved rule set with this id; `NoSuchRuleSet` for none."""
    return Chosen(rulesets.get(ruleset_id).rule_set, f"{SAVED}{ruleset_id}", saved=ruleset_id)


def of_game(game: Game) -> Chosen:
    """The rules a game is played by."""
    return Chosen(ledger.rules_of(game), f"{GAME}{game.id}", game=game)


def shared(code: str) -> Chosen:
    """The rule set a share code holds; `RuleSetError` naming what is wrong with a damaged code
    (or every problem of the rules it holds)."""
    return Chosen(sharing.from_code(code), f"{CODE}{code}", code=code)


def named(value: str) -> Chosen | None:
    """The rules a value names: a preset's key, `ruleset:<id>`, `game:<id>` or `code:<code>`;
    None for a value of none of these forms. `NoSuchRuleSet` or `NoSuchGame` for one that is not
    there, `RuleSetError` naming the problem of a damaged code."""
    if value in PRESETS:
        return preset(value)
    kind, _, rest = value.partition(":")
    if kind == "ruleset" and rest.isdigit():
        return saved(int(rest))
    if kind == "game" and rest.isdigit():
        return of_game(ledger.get_game(int(rest)))
    if kind == "code":
        return shared(rest)
    return None


def opened(code: str) -> Chosen:
    """The rule set a share code holds, or a 400 page naming what is wrong with the code (or
    every problem of the rules it holds)."""
    try:
        return shared(code)
    except RuleSetError as damaged:
        abort(400, description=str(damaged))


def pick(value: str | None) -> Chosen | None:
    """A page's value as rules (see `named`); None for anything else (an unknown key, a saved
    rule set since deleted, a game gone), which a page treats as no choice. A damaged share code
    is a 400 page naming the problem."""
    if not value:
        return None
    try:
        return named(value)
    except (NoSuchRuleSet, NoSuchGame):
        return None
    except RuleSetError as damaged:
        abort(400, description=str(damaged))


def shared_or_none(code: str) -> Chosen | None:
    """The rule set a shared code carries; None for none or a damaged one (the new game page and
    the editor open a share link's `?rules=<code>` so, and ignore one that is not a code)."""
    if not code:
        return None
    try:
        return shared(code)
    except RuleSetError:
        return None


def link_code(value: str) -> Chosen | None:
    """The shared rule set a share link's `?rules=` opens on the new game page and the editor:
    `code:<code>` (a damaged one is a 400 page naming the problem) or the bare code a share link
    carries (a damaged one is ignored); None for a value naming other rules (a preset's key,
    `ruleset:<id>`, `game:<id>`) or none."""
    kind, _, rest = value.partition(":")
    if kind == "code":
        return opened(rest)
    if value in PRESETS or (kind in ("ruleset", "game") and rest.isdigit()):
        return None
    return shared_or_none(value)


def from_args(args) -> Chosen:
    """The rules an address names (`?rules=` a value `named` reads, `?ruleset=`, `?code=`,
    `?game=`); liverpool when it names none. A game or saved rule set that does not exist is a
    404 page; an unknown preset or a damaged share code a 400 page naming the problem."""
    given = [name for name in ("game", "ruleset", "code", "rules") if args.get(name)]
    if len(given) > 1:
        abort(
            400,
            description=_(
                "give the rules once: %(names)s both name them", names=_(" and ").join(given)
            ),
        )
    if "game" in given:
        return of_game(ledger.get_game(_number(args, "game")))
    if "ruleset" in given:
        return saved(_number(args, "ruleset"))
    if "code" in given:
        return opened(args["code"])
    if "rules" in given:
        value = args["rules"]
        chosen = pick(value)
        kind, _colon, number = value.partition(":")
        if chosen is None and kind in ("ruleset", "game") and number.isdigit():
            gone = (
                _("saved rule set %(number)s does not exist", number=number)
                if kind == "ruleset"
                else _("game %(game)s does not exist", game=number)
            )
            abort(404, description=gone)
        if chosen is None:
            names = ", ".join(PRESETS)
            abort(
                400,
                description=_(
                    "there are no rules called %(given)s: pick %(names)s",
                    given=repr(value),
                    names=names,
                ),
            )
        return chosen
    return DEFAULT


def _number(args, name: str) -> int:
    value = args.get(name, type=int)
    if value is None:
        abort(
            400,
            description=_(
                "%(name)s must be a whole number, not %(given)s",
                name=name,
                given=repr(args.get(name)),
            ),
        )
    return value


def saved_rule_sets() -> list[Any]:
    """The table's saved rule sets, most recent first (the `rulesets` service)."""
    return rulesets.saved()


def choices(opened_code: Chosen | None = None) -> list[Chosen]:
    """The presets, a shared rule set opened by its code (as `SHARED`), then the saved ones,
    newest first."""
    found = [preset(key) for key in PRESETS]
    if opened_code is not None:
        found.append(replace(opened_code, value=SHARED))
    return [*found, *saved_choices()]


def saved_choices() -> list[Chosen]:
    """The table's saved rule sets as a picker's choices, most recent first."""
    return [Chosen(row.rule_set, f"{SAVED}{row.id}", saved=row.id) for row in saved_rule_sets()]


def offered(value: str | None, opened_code: Chosen | None = None) -> Chosen | None:
    """The picker's choice with this value (`liverpool`, `ruleset:3`, `shared`), or None."""
    return next((c for c in choices(opened_code) if c.value == value), None)


def default_choice() -> str:
    return DEFAULT.value


def game_rules(edited: RuleSet, chosen: Chosen) -> RuleSet:
    """The rules a game starts with: the choice itself when the editor left it as it was; a
    changed set under the editor's name, except a preset's name, which is not a changed set's:
    it is then called `House`, as the engine calls a changed rule set sent without a name."""
    if edited.plays_like(chosen.rules):
        return chosen.rules if edited.name == chosen.rules.name else edited
    if is_preset_name(edited.name):
        return edited.renamed(UNNAMED)
    return edited


def saved_as(rules: RuleSet | None, chosen: Chosen) -> str | None:
    """The name of the table's saved rule set a game would play exactly as saved (so there is
    nothing to save again); None for a preset, a shared set or changed rules."""
    if chosen.saved is None or rules is None or rules is not chosen.rules:
        return None
    return chosen.rules.name


def is_preset_name(name: str) -> bool:
    """Whether a name is a preset's (any case): a changed rule set is never called so."""
    return name.strip().lower() in {rules.name.lower() for rules in PRESETS.values()}


def parse_or_none(document: object) -> RuleSet | None:
    try:
        return RuleSet.parse(document)
    except RuleSetError:
        return None
