"""R10 Scoring: penalties for the cards left in hand, round scores, totals and the winners."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .cards import Card, copy_kind, over_copies, parse_cards
from .errors import RulesError, SeatError
from .ruleset import VALUE_KEYS, RuleSet
from .words import words


def card_penalty(card: Card, rules: RuleSet) -> int:
    """A card's penalty left in hand, from the rules' `values`: liverpool's 2-10 face value,
    J Q K 10, A 15, joker 15; a 2 scores the 2's value, wild or not (R10, R11)."""
    return rules.card_value(card)


def hand_penalty(cards: Iterable[Card], rules: RuleSet) -> int:
    """The penalty for a hand left at the end of a round."""
    return sum(rules.card_value(card) for card in cards)


def value_key(card: Card) -> str:
    """The card's key in the rules' `values`: `A`, `2` … `K`, `JK`."""
    return "JK" if card.joker else VALUE_KEYS[card.rank - 1]


def value_citation(cards: Iterable[Card], rules: RuleSet) -> tuple[str, str]:
    """The rule a hand's penalty rests on, and what the rules' own values say (R10, R11):
    `("R11", "Smith family rules: a joker left in hand is 50")` when a card in the hand scores
    other than under liverpool, else `("R10", "")`."""
    keys = dict.fromkeys(value_key(card) for card in cards)
    changed = [key for key in keys if rules.house(f"values.{key}")]
    if not changed:
        return "R10", ""
    said = " and ".join(
        f"{_CARD_WORDS.get(key, f'a {key}')} left in hand is {rules.values[key]}" for key in changed
    )
    return "R11", f"{rules.rules_name}: {said}"


# How a citation names a card by its key in `values` (`a 5` for the rest).
_CARD_WORDS = {
    "A": "an ace",
    "8": "an 8",
    "J": "a jack",
    "Q": "a queen",
    "K": "a king",
    "JK": "a joker",
}


def parse_leftovers(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Leftover cards: full cards, or ranks alone (`7`, `K`, `JK`), since the penalty needs no suit."""
    return parse_cards(text, rank_only=True)


# Where a problem of a round's hands lies: a seat, the seats whose hands hold together more
# copies of a card than the packs do, or None for the round as a whole.
Where = int | tuple[int, ...] | None


class LeftoverError(RulesError):
    """Leftover cards that cannot be: the player out holding cards, another holding none, more
    copies of a card than the packs hold (R1) in one hand or in several together.

    `problems` names every problem at once by where it lies (`Where`; several of one seat are
    joined by `; `); `seat` is the first seat concerned.
    """

    def __init__(self, message: str, seat: int | None = None, problems: dict | None = None):
        super().__init__(message)
        self.seat = seat
        self.problems: dict[Where, str] = problems or {seat: message}


def add_problem(problems: dict, where: Where, text: str) -> None:
    """Add a problem at `where`, after any already there."""
    problems[where] = f"{problems[where]}; {text}" if where in problems else text


def copy_problems(
    hands: Mapping[int, Sequence[Card]],
    rules: RuleSet,
    players: int | None = None,
) -> dict[Where, str]:
    """Every card held more often than the game's packs hold it (R1), by the hand that holds
    too many of it, or by the seats whose hands hold it when only together they hold too many."""
    everyone = [card for cards in hands.values() for card in cards]
    problems: dict[Where, str] = {}
    for kind, text in over_copies(everyone, rules.pack_count(players), rules.joker_count(players)):
        seats = tuple(
            seat for seat, cards in sorted(hands.items()) if any(copy_kind(kind, c) for c in cards)
        )
        add_problem(problems, seats[0] if len(seats) == 1 else seats, words(text))
    return problems


def most_points(rules: RuleSet, players: int | None = None) -> int:
    """The largest penalty a hand counted in points can have: buying (R8) lets a hand grow until
    the stock is gone, so at most every card of the game, each worth the rules' highest value."""
    return rules.pack_size(players) * rules.values.highest


def least_points(rules: RuleSet) -> int:
    """The smallest penalty a hand of at least one card can have: the rules' lowest value, which
    may be 0 (R10, R11)."""
    return min(rules.values.points)


def points_problem(points: object, went_out: bool, limit: int, rules: RuleSet) -> str | None:
    """What is wrong with a hand counted in points rather than by its cards, or None (R10)."""
    lowest = least_points(rules)
    if points is None:
        return "no points given: enter what the hand counts"
    if isinstance(points, bool) or not isinstance(points, int):
        return f"the points must be a whole number, not {points!r}"
    if not 0 <= points <= limit:
        return f"{points} points cannot be: a hand counts 0 to {limit} with these rules"
    if went_out and points:
        return f"the player who went out scores 0, not {points} (R10)"
    if not went_out and points < lowest:
        rule = rules.cite("values", "R10")
        return (
            f"{points} points cannot be: a player who did not go out holds at least one card, "
            f"worth at least {lowest} ({rule})"
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
    rules: RuleSet,
    counted: Mapping[int, int] | None = None,
) -> RoundResult:
    """Score a round (R10): the player out scores 0, every other player their leftover cards, the
    cutter gets the rules' exact-cut bonus; refuse leftovers that cannot be (R10, R1 copy limits).

    `out` is None when the stock ran out and nobody went out (R9): then everybody scores their hand.
    `counted` holds the hands a table counted itself, in points: their cards are unknown, so no
    copy limit applies to them. A `LeftoverError` names every problem at once: each by the seat
    whose hand is wrong, or by the seats whose hands hold too many copies of a card together.
    """
    players = rules.check_players(players)
    counted = counted or {}
    if out is not None and not (isinstance(out, int) and 0 <= out < players):
        raise SeatError(f"the player out must be one of seats 0 to {players - 1}, not {out!r}")
    for seat in (*leftovers, *counted):
        if not (isinstance(seat, int) and 0 <= seat < players):
            raise SeatError(f"leftover cards for seat {seat!r}, which does not exist")
    limit = most_points(rules, players)
    penalties = []
    problems: dict[Where, str] = {}
    for seat in range(players):
        cards = tuple(leftovers.get(seat, ()))
        if seat in counted:
            if cards:
                problems[seat] = "give the cards left or their points, not both"
            elif (problem := points_problem(counted[seat], seat == out, limit, rules)) is not None:
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
        penalties.append(hand_penalty(cards, rules))
    held = {seat: tuple(cards) for seat, cards in leftovers.items() if seat not in counted}
    for where, text in copy_problems(held, rules, players).items():
        add_problem(problems, where, text)
    if problems:
        where, message = next(iter(problems.items()))
        seat = where[0] if isinstance(where, tuple) else where
        raise LeftoverError(message, seat, problems)
    bonus = [0] * players
    if cut_exact:
        bonus[cutter] = rules.cut_bonus
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
    """The seats with the lowest total; after the last deal they are the winners, sharing a tie
    (R10)."""
    if not total_scores:
        return []
    best = min(total_scores)
    return [seat for seat, total in enumerate(total_scores) if total == best]
