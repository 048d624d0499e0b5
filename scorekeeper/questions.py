"""The referee's questions, asked the same way by the JSON API and the rules-check page.

Each question takes the request's fields (JSON values, or a form's values turned into them),
checks their types, calls the engine and returns a JSON-ready answer. Bad input raises a
`RulesError` whose message names the problem.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .inputs import field
from .rules import PROFILES, Card, get_profile, parse_cards
from .rules.errors import InputError
from .rules.melds import check_meld
from .rules.opening import check_opening
from .rules.profiles import Profile, check_round
from .rules.scoring import hand_penalty, parse_leftovers
from .rules.solver import solve_opening
from .rules.table import check_buy, check_layoff, check_swap, seat_labels

MAX_MELDS = 6
MAX_REQUESTS = 16

Data = dict[str, Any]


def _cards(data: Data, name: str, *, rank_only: bool = False) -> tuple[Card, ...]:
    """A cards field: one string in R1 notation, or a list of such strings."""
    value = field(data, name, (str, list))
    cards = parse_cards(value, rank_only=rank_only)
    if not cards:
        raise InputError(f"'{name}' holds no cards")
    return cards


def _profile(data: Data) -> tuple[Profile, int]:
    """The profile (default liverpool) and the number of players (default: the usual four)."""
    profile = get_profile(field(data, "profile", str, required=False))
    players = profile.check_players(field(data, "players", int, required=False))
    return profile, players


def _round(data: Data) -> int:
    return check_round(field(data, "round", int))


def _opened_this_turn(data: Data) -> bool:
    return field(data, "opened_this_turn", bool, required=False, default=False)


def _left(data: Data) -> int | None:
    left = field(data, "left", int, required=False)
    if left is not None and left < 0:
        raise InputError(f"'left' counts the cards still in hand, so it cannot be {left}")
    return left


def meld(data: Data) -> Data:
    """Is this a meld? (R4)"""
    profile, players = _profile(data)
    return check_meld(_cards(data, "cards"), profile, players).to_dict()


def opening(data: Data) -> Data:
    """Is this opening legal? (R5)"""
    profile, players = _profile(data)
    round_number = _round(data)
    melds = field(data, "melds", list)
    if not melds:
        raise InputError("'melds' is empty: list the melds laid down, e.g. [\"7♣ 7♦ 7♥\"]")
    if len(melds) > MAX_MELDS:
        raise InputError(f"{len(melds)} melds is more than an opening can hold")
    parsed = [_cards({"meld": item}, "meld") for item in melds]
    return check_opening(round_number, parsed, profile, players, left=_left(data)).to_dict()


def layoff(data: Data) -> Data:
    """Can I lay this off? (R6)"""
    profile, players = _profile(data)
    verdict = check_layoff(
        _round(data),
        _cards(data, "meld"),
        _cards(data, "cards"),
        _opened_this_turn(data),
        profile,
        players,
        left=_left(data),
    )
    return verdict.to_dict()


def swap(data: Data) -> Data:
    """Can I swap this joker? (R7)"""
    profile, players = _profile(data)
    card = _cards(data, "card")
    if len(card) != 1:
        raise InputError(f"'card' is the one natural card that replaces the joker, not {len(card)}")
    verdict = check_swap(
        _round(data), _cards(data, "meld"), card[0], _opened_this_turn(data), profile, players
    )
    return verdict.to_dict()


def solve(data: Data) -> Data:
    """Can this hand go down? (R5)"""
    profile, players = _profile(data)
    return solve_opening(_cards(data, "hand"), _round(data), profile, players).to_dict()


def score(data: Data) -> Data:
    """What do these leftover cards cost? (R10)"""
    profile, players = _profile(data)
    cards = parse_leftovers(field(data, "cards", (str, list)))
    profile.check_copies(cards, players)
    # A joker's penalty differs by profile: where one is in the hand, that setting decides.
    jokers = any(card.joker for card in cards)
    return {
        "penalty": hand_penalty(cards, profile),
        "cards": [str(card) for card in cards],
        "rule": profile.cite("joker_penalty", "R10") if jokers else "R10",
    }


def _seat(value: object, players: int, what: str) -> int:
    """A 1-based seat number, as players count round the table, turned into the engine's index."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{what} must be a seat number from 1 to {players}, not {value!r}")
    if not 1 <= value <= players:
        raise InputError(
            f"{what} is seat {value}, but a {players}-player table has seats 1 to {players}"
        )
    return value - 1


def _names(data: Data) -> list[str] | None:
    """The optional seat names, clockwise from seat 1, that the reason uses instead of numbers."""
    names = field(data, "names", list, required=False)
    if names is None:
        return None
    if len(names) > MAX_REQUESTS:
        raise InputError(f"{len(names)} names is more than a table has players")
    for index, name in enumerate(names, start=1):
        if not isinstance(name, str) or not name.strip():
            raise InputError(f"name {index} must be a player's name, not {name!r}")
    return [name.strip() for name in names]


def buy(data: Data) -> Data:
    """Who gets the discard? (R8) Seats are numbered 1, 2, … clockwise; names are optional."""
    names = _names(data)
    profile = get_profile(field(data, "profile", str, required=False))
    given = field(data, "players", int, required=False)
    players = profile.check_players(given if given is not None or not names else len(names))
    if names is not None and len(names) != players:
        raise InputError(f"{len(names)} names for {players} players: give one name a seat")
    requests = field(data, "requests", list)
    if len(requests) > MAX_REQUESTS:
        raise InputError(f"{len(requests)} requests is more than a table has players")
    asked = [_seat(seat, players, f"request {n}") for n, seat in enumerate(requests, start=1)]
    active = _seat(field(data, "active", int), players, "'active'")
    last_buyer = field(data, "last_buyer", int, required=False)
    if last_buyer is not None:
        last_buyer = _seat(last_buyer, players, "'last_buyer'")
    verdict = check_buy(players, active, asked, last_buyer, profile, names)
    answer = verdict.to_dict()
    buyer = answer["buyer"]
    answer["buyer"] = None if buyer is None else buyer + 1
    answer["buyer_name"] = seat_labels(players, names)[buyer] if buyer is not None else None
    return answer


QUESTIONS: dict[str, Callable[[Data], Data]] = {
    "meld": meld,
    "opening": opening,
    "layoff": layoff,
    "swap": swap,
    "solve": solve,
    "score": score,
    "buy": buy,
}


def profiles_summary() -> list[Data]:
    """Every profile with the settings R11 gives it."""
    return [
        {
            "name": p.name,
            "title": p.title,
            "players": [p.min_players, p.max_players],
            "packs": p.packs(),
            "jokers": p.jokers(),
            "cards_dealt": list(p.deal),
            "cut_bonus": p.cut_bonus,
            "joker_penalty": p.joker_penalty,
            "exact_opening": p.exact_opening,
            "naturals": {"set": p.set_naturals, "run": p.run_naturals},
            "layoff_on_opening_turn": p.layoff_on_opening_turn,
            "go_out_by_layoff": p.go_out_by_layoff,
            "buying": p.buying,
            "freed_joker_to_hand": p.freed_joker_to_hand,
            "swap_on_opening_turn": p.swap_on_opening_turn,
            "packs_by_players": {
                str(n): p.packs(n) for n in range(p.min_players, p.max_players + 1)
            },
        }
        for p in PROFILES.values()
    ]
