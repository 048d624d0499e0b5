"""Which rule set a referee page reads: a preset, a saved rule set, a shared one, or a game's.

The reference and the rules-check page both take it from the address (`?rules=<preset key>`,
`?ruleset=<saved id>`, `?code=<share code>`, `?game=<id>`) and both offer the same choices: the
presets, then the table's saved rule sets, most recent first. A saved rule set's choice in a
picker is `ruleset:<id>`, so one select can hold presets and saved rule sets alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import abort

from ..games import ledger
from ..games.errors import NoSuchGame, NoSuchRuleSet
from ..games.models import Game
from ..rules import RuleSetError, sharing
from ..rules.ruleset import DEFAULT_RULES, PRESETS, RuleSet
from ..rules.verdict import sentence
from ..rulesets import choice as rulechoice
from ..rulesets import service as rulesets

SAVED = rulechoice.SAVED
GAME = "game:"
CODE = "code:"


@dataclass(frozen=True)
class Chosen:
    """The rules a page reads, and where they came from (at most one of game, saved id, code)."""

    rules: RuleSet
    game: Game | None = None
    saved: int | None = None
    code: str | None = None

    @property
    def choice(self) -> str:
        """The picker's value for these rules: a preset's key, `ruleset:<id>`, `game:<id>` or
        `code:<share code>`."""
        if self.game is not None:
            return f"{GAME}{self.game.id}"
        if self.saved is not None:
            return f"{SAVED}{self.saved}"
        if self.code is not None:
            return f"{CODE}{self.code}"
        return self.rules.preset or ""

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
        return {"rules": self.choice or DEFAULT_RULES.preset}


def saved_choices() -> list[tuple[str, RuleSet]]:
    """The table's saved rule sets as a picker's choices, most recent first."""
    return [(f"{SAVED}{row.id}", row.rule_set) for row in rulesets.saved()]


def choices() -> list[tuple[str, str, RuleSet]]:
    """Every choice a picker offers: (group, value, rules), the presets, then the saved ones."""
    presets = [("Presets", key, rules) for key, rules in PRESETS.items()]
    return [*presets, *(("Our table's rules", key, rules) for key, rules in saved_choices())]


def pick(value: str | None) -> Chosen | None:
    """A picker's value as rules (a preset's key, `ruleset:<id>`, `game:<id>`, `code:<code>`);
    None for anything else (an unknown key, a saved rule set since deleted), which a page
    treats as no choice. A damaged share code is a 400 page naming the problem."""
    if not value:
        return None
    if value in PRESETS:
        return Chosen(PRESETS[value])
    kind, _, rest = value.partition(":")
    try:
        if kind == "ruleset" and rest.isdigit():
            return Chosen(rulesets.get(int(rest)).rule_set, saved=int(rest))
        if kind == "game" and rest.isdigit():
            game = ledger.get_game(int(rest))
            return Chosen(ledger.rules_of(game), game=game)
    except (NoSuchRuleSet, NoSuchGame):
        return None
    if kind == "code":
        return _shared(rest)
    return None


def _shared(code: str) -> Chosen:
    try:
        return Chosen(sharing.from_code(code), code=code)
    except RuleSetError as error:
        abort(400, description=str(error))


def from_args(args) -> Chosen:
    """The rules the address names; liverpool when it names none. A game or saved rule set that
    does not exist is a 404 page; an unknown preset or a damaged share code a 400 page naming
    the problem."""
    given = [name for name in ("game", "ruleset", "code", "rules") if args.get(name)]
    if len(given) > 1:
        abort(400, description=f"give the rules once: {' and '.join(given)} both name them")
    if "game" in given:
        game = ledger.get_game(_number(args, "game"))
        return Chosen(ledger.rules_of(game), game=game)
    if "ruleset" in given:
        number = _number(args, "ruleset")
        return Chosen(rulesets.get(number).rule_set, saved=number)
    if "code" in given:
        return _shared(args["code"])
    if "rules" in given:
        chosen = pick(args["rules"])
        kind, _, number = args["rules"].partition(":")
        if chosen is None and kind in ("ruleset", "game") and number.isdigit():
            gone = "saved rule set" if kind == "ruleset" else "game"
            abort(404, description=f"{gone} {number} does not exist")
        if chosen is None:
            names = ", ".join(PRESETS)
            abort(400, description=f"there are no rules called {args['rules']!r}: pick {names}")
        return chosen
    return Chosen(DEFAULT_RULES)


def _number(args, name: str) -> int:
    value = args.get(name, type=int)
    if value is None:
        abort(400, description=f"{name} must be a whole number, not {args.get(name)!r}")
    return value
