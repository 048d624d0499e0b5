"""R10 Scoring: penalties for the cards left in hand, round scores, totals and the winners."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from .cards import Card, copy_kind, over_copies, parse_cards
from .errors import RulesError, SeatError
from .ruleset import VALUE_KEYS, RuleSet, TieBreak
from .words import Code, Join, Message, Said, joined, message, words


class Score(Code):
    """What scoring says (R10): the rules' own card values, and why leftover hands or points
    cannot be."""

    AN_ACE = "score.an_ace"
    AN_EIGHT = "score.an_eight"
    A_JACK = "score.a_jack"
    A_QUEEN = "score.a_queen"
    A_KING = "score.a_king"
    A_JOKER = "score.a_joker"
    A_CARD = "score.a_card"
    LEFT_IN_HAND = "score.left_in_hand"
    VALUES = "score.values"
    NO_POINTS = "score.no_points"
    NOT_WHOLE = "score.not_whole"
    OUT_OF_RANGE = "score.out_of_range"
    OUT_SCORES_ZERO = "score.out_scores_zero"
    BELOW_LEAST = "score.below_least"
    OUT_SEAT = "score.out_seat"
    NO_SEAT = "score.no_seat"
    BOTH_GIVEN = "score.both_given"
    OUT_HOLDS = "score.out_holds"
    HOLDS_ONE = "score.holds_one"
    NOBODY_OUT = "score.nobody_out"
    ONE_TURN_NOBODY_OUT = "score.one_turn_nobody_out"
    ONE_TURN_NO_BONUS = "score.one_turn_no_bonus"


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
    said = [
        message(
            Score.LEFT_IN_HAND,
            card=message(_CARD_WORDS.get(key, Score.A_CARD), key=key),
            value=rules.values[key],
        )
        for key in changed
    ]
    return "R11", Said(
        message(Score.VALUES, rules=rules.rules_name, said=joined(Join.EACH_AND, said))
    )


# How a citation names a card by its key in `values` (`a 5` for the rest).
_CARD_WORDS = {
    "A": Score.AN_ACE,
    "8": Score.AN_EIGHT,
    "J": Score.A_JACK,
    "Q": Score.A_QUEEN,
    "K": Score.A_KING,
    "JK": Score.A_JOKER,
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

    def __init__(
        self, message: Message | str, seat: int | None = None, problems: dict | None = None
    ):
        super().__init__(message)
        self.seat = seat
        self.problems: dict[Where, str] = problems or {seat: str(self)}


def copy_messages(
    hands: Mapping[int, Sequence[Card]],
    rules: RuleSet,
    players: int | None = None,
) -> list[tuple[Where, Message]]:
    """Every card held more often than the game's packs hold it (R1), by the hand that holds
    too many of it, or by the seats whose hands hold it when only together they hold too many."""
    everyone = [card for cards in hands.values() for card in cards]
    found = []
    for kind, said in over_copies(everyone, rules.pack_count(players), rules.joker_count(players)):
        seats = tuple(
            seat for seat, cards in sorted(hands.items()) if any(copy_kind(kind, c) for c in cards)
        )
        found.append((seats[0] if len(seats) == 1 else seats, said))
    return found


def copy_problems(
    hands: Mapping[int, Sequence[Card]],
    rules: RuleSet,
    players: int | None = None,
) -> dict[Where, str]:
    """`copy_messages` in words, those of one place joined by `; `."""
    return _in_words(_gathered(copy_messages(hands, rules, players)))


def _gathered(found: Iterable[tuple[Where, Message]]) -> dict[Where, Message]:
    """The problems of each place as one message, several joined by `; ` in the order found."""
    by_place: dict[Where, list[Message]] = {}
    for where, said in found:
        by_place.setdefault(where, []).append(said)
    return {where: joined(Join.SEMICOLON, said) for where, said in by_place.items()}


def _in_words(problems: Mapping[Where, Message]) -> dict[Where, str]:
    return {where: words(said) for where, said in problems.items()}


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
    said = points_message(points, went_out, limit, rules)
    return words(said) if said else None


def points_message(points: object, went_out: bool, limit: int, rules: RuleSet) -> Message | None:
    """`points_problem` as a coded message."""
    lowest = least_points(rules)
    if points is None:
        return message(Score.NO_POINTS)
    if isinstance(points, bool) or not isinstance(points, int):
        return message(Score.NOT_WHOLE, points=repr(points))
    if not 0 <= points <= limit:
        return message(Score.OUT_OF_RANGE, points=points, limit=limit)
    if went_out and points:
        return message(Score.OUT_SCORES_ZERO, points=points)
    if not went_out and points < lowest:
        rule = rules.cite("values", "R10")
        return message(Score.BELOW_LEAST, points=points, lowest=lowest, rule=rule)
    return None


@dataclass(frozen=True)
class RoundResult:
    """A scored round: the penalty of each seat, the cut bonus, the bonus for going down and
    out in one turn (R12.3 `out_in_one_turn_bonus`) and the resulting round scores."""

    penalties: tuple[int, ...]
    bonus: tuple[int, ...]
    scores: tuple[int, ...]
    # One per seat: the player out's bonus for going down and out in one turn, else 0.
    out_bonus: tuple[int, ...] = ()


def score_round(
    players: int,
    out: int | None,
    leftovers: Mapping[int, Sequence[Card]],
    cutter: int,
    cut_exact: bool,
    rules: RuleSet,
    counted: Mapping[int, int] | None = None,
    out_in_one_turn: bool = False,
) -> RoundResult:
    """Score a round (R10): the player out scores 0, every other player their leftover cards, the
    cutter gets the rules' exact-cut bonus; refuse leftovers that cannot be (R10, R1 copy limits).

    `out_in_one_turn`: the player out went down and out in the same turn, and scores the rules'
    `out_in_one_turn_bonus` instead of 0 (R12.3); refused when nobody went out or the rules
    have no such bonus (`one_turn_problem`), as a problem of the round as a whole.

    `out` is None when the stock ran out and nobody went out (R9): then everybody scores their hand.
    `counted` holds the hands a table counted itself, in points: their cards are unknown, so no
    copy limit applies to them. A `LeftoverError` names every problem at once: each by the seat
    whose hand is wrong, or by the seats whose hands hold too many copies of a card together.
    """
    players = rules.check_players(players)
    counted = counted or {}
    _check_seats(players, out, (*leftovers, *counted))
    limit = most_points(rules, players)
    found = [
        (seat, problem)
        for seat in range(players)
        if (problem := _hand_problem(seat, leftovers, out, counted, limit, rules)) is not None
    ]
    if out_in_one_turn and (problem := one_turn_problem(out, rules)) is not None:
        found.append((None, problem))
    held = {seat: tuple(cards) for seat, cards in leftovers.items() if seat not in counted}
    problems = _gathered(found + copy_messages(held, rules, players))
    if problems:
        where, said = next(iter(problems.items()))
        seat = where[0] if isinstance(where, tuple) else where
        raise LeftoverError(said, seat, _in_words(problems))
    penalties = tuple(
        counted[seat] if seat in counted else hand_penalty(leftovers.get(seat, ()), rules)
        for seat in range(players)
    )
    bonus = [0] * players
    if cut_exact:
        bonus[cutter] = rules.cut_bonus
    out_bonus = [0] * players
    if out_in_one_turn and out is not None:
        out_bonus[out] = rules.out_in_one_turn_bonus
    scores = tuple(sum(parts) for parts in zip(penalties, bonus, out_bonus, strict=True))
    return RoundResult(penalties, tuple(bonus), scores, tuple(out_bonus))


def one_turn_problem(out: int | None, rules: RuleSet) -> Message | None:
    """Why a round cannot say its player out went down and out in one turn, or None (R12.3):
    nobody went out, or the rules give no bonus for it."""
    if out is None:
        return message(Score.ONE_TURN_NOBODY_OUT)
    if not rules.out_in_one_turn_bonus:
        return message(Score.ONE_TURN_NO_BONUS, rules=rules.rules_name)
    return None


def _is_seat(seat: object, players: int) -> bool:
    return isinstance(seat, int) and 0 <= seat < players


def _check_seats(players: int, out: object, given: Iterable[object]) -> None:
    """`SeatError` for a player out, or a seat given leftovers or points, not at the table."""
    if out is not None and not _is_seat(out, players):
        raise SeatError(message(Score.OUT_SEAT, last=players - 1, out=repr(out)))
    for seat in given:
        if not _is_seat(seat, players):
            raise SeatError(message(Score.NO_SEAT, seat=repr(seat)))


def _hand_problem(
    seat: int,
    leftovers: Mapping[int, Sequence[Card]],
    out: int | None,
    counted: Mapping[int, int],
    limit: int,
    rules: RuleSet,
) -> Message | None:
    """What cannot be of one seat's hand (R9, R10): cards and points both given, points that
    cannot be, cards held by the player out, or none by a player who did not go out."""
    cards = tuple(leftovers.get(seat, ()))
    if seat in counted:
        if cards:
            return message(Score.BOTH_GIVEN)
        return points_message(counted[seat], seat == out, limit, rules)
    if seat == out and cards:
        return message(Score.OUT_HOLDS)
    if seat != out and not cards:
        return message(Score.HOLDS_ONE if out is not None else Score.NOBODY_OUT)
    return None


def totals(round_scores: Iterable[Sequence[int]], players: int) -> list[int]:
    """Round scores add up without reset (R10)."""
    result = [0] * players
    for scores in round_scores:
        for seat, score in enumerate(scores):
            result[seat] += score
    return result


def leaders(total_scores: Sequence[int]) -> list[int]:
    """The seats with the lowest total; after the last deal they are the winners, sharing a tie
    (R10), unless the rules break it (`winners`)."""
    if not total_scores:
        return []
    best = min(total_scores)
    return [seat for seat, total in enumerate(total_scores) if total == best]


@dataclass(frozen=True)
class Winners:
    """Who wins a finished game: `seats`; `deals_won` each tied leader's deals gone out in,
    when the rules' tie-break decided between them (R12.3 `tie_break: deals_won`), else empty."""

    seats: tuple[int, ...]
    deals_won: Mapping[int, int] = field(default_factory=dict)

    @property
    def by_deals_won(self) -> bool:
        """Whether the deals won decided (some tied leader had fewer)."""
        return bool(self.passed_over)

    @property
    def passed_over(self) -> tuple[int, ...]:
        """The tied leaders with fewer deals won: they finish behind the winners."""
        return tuple(seat for seat in self.deals_won if seat not in self.seats)


def winners(total_scores: Sequence[int], deals_won: Sequence[int], tie_break: TieBreak) -> Winners:
    """The winners after the last deal: the lowest total (R10); tied, the most deals gone out
    in (`deals_won`, each seat's count) under `tie_break: deals_won`, and still tied they share
    (R12.3)."""
    ahead = leaders(total_scores)
    if len(ahead) < 2 or tie_break is not TieBreak.DEALS_WON:
        return Winners(tuple(ahead))
    counts = {seat: deals_won[seat] for seat in ahead}
    most = max(counts.values())
    return Winners(tuple(seat for seat in ahead if counts[seat] == most), counts)


def places(total_scores: Sequence[int], passed_over: Collection[int] = ()) -> list[int]:
    """Each seat's place: 1 + how many seats finished ahead, by total and then the tie-break
    (`passed_over`, `Winners.passed_over`); level otherwise, seats share a place (R10)."""
    keys = [(total, seat in passed_over) for seat, total in enumerate(total_scores)]
    return [1 + sum(other < key for other in keys) for key in keys]


def deals_won(outs: Iterable[int | None], players: int) -> list[int]:
    """Each seat's deals gone out in, from each deal's player out (None: nobody went out)."""
    won = Counter(seat for seat in outs if seat is not None)
    return [won[seat] for seat in range(players)]
