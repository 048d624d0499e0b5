"""Each player's buys, counted per deal with the round (R8, R11): for rules that limit buying
("three buys a game"), the score book remembers them so the table does not have to.

A round stored before buys were counted holds none (`RoundScore.buys` null): the limits read it
as no buys, and the game's JSON says which rounds are unknown.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext

from ..rules.ruleset import RuleSet
from ..rules.verdict import sentence
from .errors import ScorebookError
from .models import Game

# The most buys one seat's count may say in one deal: beyond any limit a rule set may set.
MOST_BUYS = 99


class BuysRefused(ScorebookError):
    """A round refused, its problems by seat as ever, and each seat's wrong buys (`buys`)."""

    def __init__(
        self, message: str, *, problems: Mapping[int | None, str], buys: Mapping[int, str]
    ):
        super().__init__(message, problems=problems)
        if not problems:
            self.problems = {}  # only the buys are wrong: nothing else to place
        self.buys = dict(buys)


def limits(rules: RuleSet) -> dict[str, int]:
    """The rules' buy limits by what they count, `{"deal": 2, "game": 3}`: none without buying."""
    buying = rules.buying
    each = {"deal": buying.per_deal, "game": buying.per_game}
    return {what: limit for what, limit in each.items() if buying.allowed and limit is not None}


def counted(game: Game) -> bool:
    """Whether the round form and the game page count buys: the game's rules limit them."""
    return bool(limits(game.rule_set))


def used(game: Game, leaving_out: int | None = None) -> list[int]:
    """Each seat's buys in the game's recorded rounds (round `leaving_out` aside)."""
    totals = [0] * len(game.players)
    for played in game.rounds:
        if played.number != leaving_out:
            for line in played.scores:
                totals[line.seat] += line.buys or 0
    return totals


def left(game: Game) -> list[int] | None:
    """Each seat's buys left in the game under its per-game limit; None when there is none."""
    limit = limits(game.rule_set).get("game")
    return None if limit is None else [max(limit - count, 0) for count in used(game)]


def problems(game: Game, number: int, buys: Mapping[int, Any]) -> dict[int, str]:
    """What is wrong with the buys given for round `number`, by seat: not a whole number, fewer
    than none, or beyond the rules' limit for a deal or (with the other rounds) for the game."""
    rules = game.rule_set
    each = limits(rules)
    before = used(game, leaving_out=number)
    found: dict[int, str] = {}
    for seat, count in buys.items():
        if isinstance(count, bool) or not isinstance(count, int):
            found[seat] = _(
                "the buys must be a whole number, not %(count)s", count=repr(str(count)[:20])
            )
        elif not 0 <= count <= MOST_BUYS:
            found[seat] = _(
                "the buys must be 0 to %(most)s, not %(count)s", most=MOST_BUYS, count=count
            )
        elif count and not rules.buying.allowed:
            found[seat] = _("%(rules)s have no buying, so no buys", rules=rules.rules_name)
        elif count > each.get("deal", count):
            found[seat] = _(
                "%(count)s buys this deal: %(rules)s allow %(limit)s a deal",
                count=count,
                rules=rules.rules_name,
                limit=each["deal"],
            )
        elif before[seat] + count > each.get("game", before[seat] + count):
            found[seat] = _(
                "%(total)s buys this game with this deal's %(count)s: %(rules)s allow %(limit)s a "
                "game",
                total=before[seat] + count,
                count=count,
                rules=rules.rules_name,
                limit=each["game"],
            )
    return found


def allowed(rules: RuleSet) -> str:
    """`Smith family rules allow 3 buys a game`: the limits the counts are for."""
    each = limits(rules)
    allowances = _(" and ").join(
        ngettext("%(num)s buy a deal", "%(num)s buys a deal", limit)
        if what == "deal"
        else ngettext("%(num)s buy a game", "%(num)s buys a game", limit)
        for what, limit in each.items()
    )
    return _("%(rules)s allow %(allowances)s", rules=rules.rules_name, allowances=allowances)


def hint(game: Game, number: int) -> str:
    """The round form's note: the limits, and each player's buys left before deal `number`."""
    rules = game.rule_set
    text = sentence(allowed(rules))
    limit = limits(rules).get("game")
    if limit is None:
        return text + "."
    before = used(game, leaving_out=number)
    left_now = " · ".join(
        f"{name} {max(limit - count, 0)}" for name, count in zip(game.names, before, strict=True)
    )
    return _("%(allowed)s; left before this deal: %(left)s.", allowed=text, left=left_now)


def line(game: Game) -> str | None:
    """`Buys left: Ann 2 · Bob 3 · …` for the game page; None without a per-game limit."""
    remaining = left(game)
    if remaining is None:
        return None
    return _(
        "Buys left: %(left)s",
        left=" · ".join(
            f"{name} {count}" for name, count in zip(game.names, remaining, strict=True)
        ),
    )


def game_json(game: Game) -> dict[str, Any] | None:
    """The game's buys for the API: the limits, each player's buys used, and left where the
    rules limit a game; rounds stored before buys were counted are listed as `unknown_rounds`.
    None when the rules limit no buying."""
    each = limits(game.rule_set)
    if not each:
        return None
    names = game.names
    remaining = left(game)
    return {
        "per_deal": each.get("deal"),
        "per_game": each.get("game"),
        "used": dict(zip(names, used(game), strict=True)),
        "left": None if remaining is None else dict(zip(names, remaining, strict=True)),
        "unknown_rounds": [
            played.number
            for played in game.rounds
            if any(line.buys is None for line in played.scores)
        ],
    }
