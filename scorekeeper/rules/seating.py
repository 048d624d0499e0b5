"""R2 Seats, dealer, cut and deal: who deals, who cuts and who plays first in each round, and
every deal of a rule set as the pages list it (R3).

Seats are 0-based indices in clockwise order; play passes clockwise, to the left, so the left
neighbour of seat s is s + 1 and the right neighbour is s - 1 (modulo the number of players).
"""

from __future__ import annotations

from dataclasses import dataclass

from .contracts import Contract, contract
from .errors import SeatError
from .ruleset import RuleSet
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


def left_of(seat: int, players: int) -> int:
    """The next player clockwise."""
    return (seat + 1) % players


def right_of(seat: int, players: int) -> int:
    """The previous player clockwise."""
    return (seat - 1) % players


def dealer_seat(first_dealer: int, round_number: int, players: int, rules: RuleSet) -> int:
    """The deal passes to the left each round: round n is dealt by first dealer + n - 1."""
    check_seat(first_dealer, players, message(Seat.FIRST_DEALER))
    return (first_dealer + rules.check_deal(round_number) - 1) % players


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
    """Dealer, cutter (dealer's right), first player (dealer's left), and from the rules the
    deal's contract, cards, exact-cut packet and its bonus (R2, R3, R11)."""
    players = rules.check_players(players)
    dealer = dealer_seat(first_dealer, round_number, players, rules)
    return RoundSetup(
        round=round_number,
        contract=contract_of(round_number, rules),
        dealer=dealer,
        cutter=right_of(dealer, players),
        first_player=left_of(dealer, players),
        cards_dealt=rules.cards_dealt(round_number),
        exact_cut=rules.exact_cut(round_number, players),
        cut_bonus=rules.cut_bonus,
        stock_after_deal=rules.stock_after_deal(round_number, players),
    )


def turn_order_after(active: int, players: int) -> list[int]:
    """The other seats in the order they play after `active`, clockwise."""
    return [(active + step) % players for step in range(1, players)]
