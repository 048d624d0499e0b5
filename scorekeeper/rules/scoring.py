"""R10 Scoring: penalties for the cards left in hand, round scores, totals and the winners."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .cards import Card, parse_cards
from .errors import RulesError, SeatError
from .profiles import Profile, get_profile

FACE_CARD_PENALTY = 10
ACE_PENALTY = 15
LOWEST_PENALTY = 2


def card_penalty(card: Card, profile: Profile | str | None = None) -> int:
    """2-10 face value, J Q K 10, A 15, joker 15 (25 in the online profile)."""
    if card.joker:
        return get_profile(profile).joker_penalty
    if card.rank == 1:
        return ACE_PENALTY
    return FACE_CARD_PENALTY if card.rank >= 11 else card.rank


def hand_penalty(cards: Iterable[Card], profile: Profile | str | None = None) -> int:
    """The penalty for a hand left at the end of a round."""
    profile = get_profile(profile)
    return sum(card_penalty(card, profile) for card in cards)


def parse_leftovers(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Leftover cards: full cards, or ranks alone (`7`, `K`, `JK`), since the penalty needs no suit."""
    return parse_cards(text, rank_only=True)


class LeftoverError(RulesError):
    """Leftover cards that cannot be: the player out holding cards, another holding none.

    `problems` names every seat whose hand is wrong; `seat` is the first of them.
    """

    def __init__(self, message: str, seat: int | None = None, problems: dict | None = None):
        super().__init__(message)
        self.seat = seat
        self.problems: dict[int | None, str] = problems or {seat: message}


def most_points(profile: Profile | str | None = None, players: int | None = None) -> int:
    """The largest penalty a hand counted in points can have: buying (R8) lets a hand grow until
    the stock is gone, so at most every card of the game, each worth the highest penalty (R10)."""
    profile = get_profile(profile)
    highest = max(ACE_PENALTY, FACE_CARD_PENALTY, profile.joker_penalty)
    return profile.pack_size(players) * highest


def points_problem(points: object, went_out: bool, limit: int) -> str | None:
    """What is wrong with a hand counted in points rather than by its cards, or None (R10)."""
    if points is None:
        return "no points given: enter what the hand counts"
    if isinstance(points, bool) or not isinstance(points, int):
        return f"the points must be a whole number, not {points!r}"
    if not 0 <= points <= limit:
        return f"{points} points cannot be: a hand counts 0 to {limit} with these rules"
    if went_out and points:
        return f"the player who went out scores 0, not {points} (R10)"
    if not went_out and points < LOWEST_PENALTY:
        return (
            f"{points} points cannot be: a player who did not go out holds at least one card, "
            f"worth at least {LOWEST_PENALTY} (R10)"
        )
    return None


@dataclass(frozen=True)
class RoundResult:
    """A scored round: the penalty of each seat, the cut bonus and the resulting round scores."""

    penalties: tuple[int, ...]
    bonus: tuple[int, ...]
    scores: tuple[int, ...]


def score_round(
    players: int,
    out: int | None,
    leftovers: Mapping[int, Sequence[Card]],
    cutter: int,
    cut_exact: bool,
    profile: Profile | str | None = None,
    counted: Mapping[int, int] | None = None,
) -> RoundResult:
    """Score a round (R10): the player out scores 0, every other player their leftover cards, the
    cutter gets the exact-cut bonus; refuse leftovers that cannot be (R10, R1 copy limits).

    `out` is None when the stock ran out and nobody went out (R9): then everybody scores their hand.
    `counted` holds the hands a table counted itself, in points: their cards are unknown, so no
    copy limit applies to them. A `LeftoverError` names every seat whose hand is wrong at once.
    """
    profile = get_profile(profile)
    players = profile.check_players(players)
    counted = counted or {}
    if out is not None and not (isinstance(out, int) and 0 <= out < players):
        raise SeatError(f"the player out must be one of seats 0 to {players - 1}, not {out!r}")
    for seat in (*leftovers, *counted):
        if not (isinstance(seat, int) and 0 <= seat < players):
            raise SeatError(f"leftover cards for seat {seat!r}, which does not exist")
    limit = most_points(profile, players)
    penalties = []
    everyone: list[Card] = []
    problems: dict[int | None, str] = {}
    for seat in range(players):
        cards = tuple(leftovers.get(seat, ()))
        if seat in counted:
            if cards:
                problems[seat] = "give the cards left or their points, not both"
            elif (problem := points_problem(counted[seat], seat == out, limit)) is not None:
                problems[seat] = problem
            penalties.append(counted[seat] if seat not in problems else 0)
            continue
        if seat == out and cards:
            problems[seat] = "the player who went out holds no cards (R10)"
        elif seat != out and not cards:
            problems[seat] = (
                "every player who did not go out still holds at least one card (R10)"
                if out is not None
                else "nobody went out, so every player still holds cards (R9)"
            )
        everyone.extend(cards)
        penalties.append(hand_penalty(cards, profile))
    if problems:
        seat, message = next(iter(problems.items()))
        raise LeftoverError(message, seat, problems)
    profile.check_copies(everyone, players)
    bonus = [0] * players
    if cut_exact:
        bonus[cutter] = profile.cut_bonus
    scores = tuple(p + b for p, b in zip(penalties, bonus, strict=True))
    return RoundResult(tuple(penalties), tuple(bonus), scores)


def totals(round_scores: Iterable[Sequence[int]], players: int) -> list[int]:
    """Round scores add up without reset (R10)."""
    result = [0] * players
    for scores in round_scores:
        for seat, score in enumerate(scores):
            result[seat] += score
    return result


def leaders(total_scores: Sequence[int]) -> list[int]:
    """The seats with the lowest total; after round 7 they are the winners, sharing a tie (R10)."""
    if not total_scores:
        return []
    best = min(total_scores)
    return [seat for seat, total in enumerate(total_scores) if total == best]
