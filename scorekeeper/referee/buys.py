"""What a buy question says about each asker's buys so far, for the rules' limits (R8, R11)."""

from __future__ import annotations

from typing import Any

from ..games.names import name_key
from ..platform.http import field
from ..rules.errors import InputError
from ..rules.ruleset import MOST_PLAYERS, RuleSet

Data = dict[str, Any]
# The longest value a message quotes whole.
SHOWN = 40


class ProblemsError(InputError):
    """A field with several problems, each named: answered as `{"error", "problems"}`."""

    def __init__(self, message: str, problems: dict[str, str]):
        super().__init__(message)
        self.problems = problems


def bought(
    data: Data, rules: RuleSet, players: int, names: list[str] | None
) -> tuple[dict[int, int], dict[int, int]]:
    """Each asker's buys so far, by seat index, in the deal and in the game (R11's limits).

    `"bought"` maps a player's name, or a seat number from 1 when no names are given, to a
    count as the rules' limit counts it: this deal's buys where the limit is a deal's, this
    game's where it is a game's; `{"deal": n, "game": m}` where the rules limit both. Every
    problem is named at once.
    """
    given = field(data, "bought", dict, required=False) or {}
    if len(given) > MOST_PLAYERS:
        raise InputError(f"'bought' names {len(given)} players: a table has at most {MOST_PLAYERS}")
    limits = [what for what, limit in _limits(rules) if limit is not None]
    seats = {name_key(name): seat for seat, name in enumerate(names or [])}
    problems: dict[str, str] = {}
    in_deal: dict[int, int] = {}
    in_game: dict[int, int] = {}
    for key, count in given.items():
        where = f"bought.{key}"
        seat = _bought_seat(key, seats, names, players)
        if isinstance(seat, str):
            problems[where] = seat
            continue
        counts = _bought_counts(count, limits)
        if isinstance(counts, str):
            problems[where] = counts
            continue
        for what, number in counts.items():
            (in_deal if what == "deal" else in_game)[seat] = number
    if problems:
        raise ProblemsError(
            f"'bought' has {_count(len(problems))}: "
            + "; ".join(f"{where}: {why}" for where, why in problems.items()),
            problems,
        )
    return in_deal, in_game


def _limits(rules: RuleSet) -> tuple[tuple[str, int | None], ...]:
    return (("deal", rules.buying.per_deal), ("game", rules.buying.per_game))


def _shown(value: object) -> str:
    """A value as a message quotes it, cut short: a key may be as long as the body."""
    text = repr(value)
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"


def _count(problems: int) -> str:
    return "a problem" if problems == 1 else f"{problems} problems"


def _bought_seat(key: str, seats: dict[str, int], names: list[str] | None, players: int):
    """The seat index a `bought` key names, or what is wrong with it."""
    if names:
        seat = seats.get(name_key(key.strip()))
        return seat if seat is not None else f"{_shown(key)} is not a player: {', '.join(names)}"
    if not key.strip().isdigit() or not 1 <= int(key) <= players:
        return f"{_shown(key)} is no seat: without names, seats are numbered 1 to {players}"
    return int(key) - 1


def _bought_counts(count: object, limits: list[str]) -> dict[str, int] | str:
    """A `bought` value as counts by what each limit counts, or what is wrong with it."""
    if isinstance(count, dict):
        unknown = [key for key in count if key not in ("deal", "game")]
        if unknown:
            return f"counts buys in a 'deal' or a 'game', not {', '.join(map(_shown, unknown))}"
        counts = count
    elif len(limits) == 2:
        return (
            'these rules limit buys both a deal and a game: give {"deal": n, "game": m}, '
            f"not {_shown(count)}"
        )
    else:
        counts = {limits[0] if limits else "deal": count}
    for what, number in counts.items():
        if isinstance(number, bool) or not isinstance(number, int):
            return f"the buys this {what} must be a whole number, not {_shown(number)}"
        if number < 0:
            return f"the buys this {what} cannot be {number}"
    return dict(counts)
