"""R2 Seats, dealer, cut and deal: who deals, who cuts and who plays first in each round, and
every deal of a rule set as the pages list it (R3).

Seats are 0-based indices in clockwise order, the way the players sit, so the left neighbour of
seat s is s + 1 and the right neighbour is s - 1 (modulo the number of players). Play, the deal
and the dealer's rotation pass to the left, clockwise (R2), unless the rule set's `direction` is
`right` (R12.3): then they pass to the right, the cutter sits on the dealer's left and buying
priority follows play. Every seat a round names is worked out here, from the rule set.
"""

from __future__ import annotations

from dataclasses import dataclass

from .contracts import Contract, contract
from .errors import SeatError
from .ruleset import Direction, RuleSet
from .words import Code, Message, message


class Seat(Code):
    """A seat that does not fit the table, and the seats a question names (R2)."""

    SEAT = "seat.seat"
    FIRST_DEALER = "seat.first_dealer"
    NOT_A_NUMBER = "seat.not_a_number"
    MISSING = "seat.missing"


def check_seat(seat: object, players: int, what: Message | None = None) -> int:
    """A seat index 0 … players-1, or `SeatError` naming the bad value and `what` it is (a
    coded message: `the active player`; `seat` when not given)."""
    what = what or message(Seat.SEAT)
    if isinstance(seat, bool) or not isinstance(seat, int):
        said = message(Seat.NOT_A_NUMBER, what=what, last=players - 1, seat=repr(seat))
        raise SeatError(said)
    if not 0 <= seat < players:
        raise SeatError(message(Seat.MISSING, what=what, seat=seat, last=players - 1))
    return seat


def step(rules: RuleSet) -> int:
    """Where play passes, in seats: +1 to the left (R2), -1 to the right (R12.3)."""
    return -1 if rules.direction is Direction.RIGHT else 1


def seat_on(seat: int, turns: int, players: int, rules: RuleSet) -> int:
    """The seat `turns` turns of play after `seat` (before it, for a negative number)."""
    return (seat + step(rules) * turns) % players


def next_in_play(seat: int, players: int, rules: RuleSet) -> int:
    """The seat that plays after `seat`, and deals after it: its left, or its right (R12.3)."""
    return seat_on(seat, 1, players, rules)


def dealer_seat(first_dealer: int, round_number: int, players: int, rules: RuleSet) -> int:
    """The deal passes on each round, the way play goes (R2, R12.3): round n is dealt n - 1
    turns on from the first dealer."""
    check_seat(first_dealer, players, message(Seat.FIRST_DEALER))
    return seat_on(first_dealer, rules.check_deal(round_number) - 1, players, rules)


def first_dealer_of(dealer: int, round_number: int, players: int, rules: RuleSet) -> int:
    """Who dealt round 1, when `dealer` dealt round `round_number` (a paper sheet's dealer)."""
    return seat_on(dealer, 1 - round_number, players, rules)


def dealer_cut_by(cutter: int, players: int, rules: RuleSet) -> int:
    """The dealer whose pack `cutter` cut: the cutter sits before the dealer in play, on the
    dealer's right (R2), or on the dealer's left (R12.3)."""
    return next_in_play(cutter, players, rules)


def contract_of(round_number: int, rules: RuleSet) -> Contract:
    """The deal's contract under the rules (R3, R11)."""
    return contract(round_number, rules)


@dataclass(frozen=True)
class DealRow:
    """One deal of a rule set as a page lists it: its number, contract and cards dealt."""

    number: int
    contract: str
    cards: int
    whole_hand: bool


def deals_table(rules: RuleSet) -> tuple[DealRow, ...]:
    """Every deal of the rules, in order (R3 for liverpool; R11 for a table's own rules)."""
    return tuple(
        DealRow(n, str(contract_of(n, rules)), rules.cards_dealt(n), rules.deal(n).whole_hand)
        for n in rules.deal_numbers
    )


@dataclass(frozen=True)
class RoundSetup:
    """Everything the table needs before a round starts (R2, R3)."""

    round: int
    contract: Contract
    dealer: int
    cutter: int
    first_player: int
    cards_dealt: int
    exact_cut: int
    cut_bonus: int
    stock_after_deal: int


def round_setup(first_dealer: int, round_number: int, players: int, rules: RuleSet) -> RoundSetup:
    """Dealer, cutter (the seat before the dealer in play: the dealer's right, or left under
    `direction: right`), first player (the seat after the dealer), and from the rules the
    deal's contract, cards, exact-cut packet and its bonus (R2, R3, R11, R12.3)."""
    players = rules.check_players(players)
    dealer = dealer_seat(first_dealer, round_number, players, rules)
    return RoundSetup(
        round=round_number,
        contract=contract_of(round_number, rules),
        dealer=dealer,
        cutter=seat_on(dealer, -1, players, rules),
        first_player=next_in_play(dealer, players, rules),
        cards_dealt=rules.cards_dealt(round_number),
        exact_cut=rules.exact_cut(round_number, players),
        cut_bonus=rules.cut_bonus,
        stock_after_deal=rules.stock_after_deal(round_number, players),
    )


def turn_order_after(active: int, players: int, rules: RuleSet) -> list[int]:
    """The other seats in the order they play after `active`: clockwise, or counterclockwise
    under `direction: right` (R12.3)."""
    return [seat_on(active, turns, players, rules) for turns in range(1, players)]
