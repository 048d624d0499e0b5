"""R8 who buys a passed discard, under the rules' buying settings (R11): whether there is
buying, the limits a deal and a game, and the penalty cards a buy costs; and, where a player who
has gone down draws from the stock only (`discard_draw_after_opening`, R12.3), nor buys."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from .ruleset import RuleSet
from .seating import check_seat, turn_order_after
from .verdict import Verdict, house_citation
from .words import Code, Join, Message, Said, joined, message, render, words


class Buy(Code):
    """What a ruling on buying a passed discard says (R8, R11), and the seats it names."""

    SEAT = "buy.seat"
    ACTIVE = "buy.active"
    BUYER = "buy.buyer"
    LAST_BUYER = "buy.last_buyer"
    DOWN = "buy.down"
    GONE_DOWN = "buy.gone_down"
    NO_BUYING = "buy.no_buying"
    NO_BUYING_TOP_ONLY = "buy.no_buying_top_only"
    TWICE_IN_A_ROW = "buy.twice_in_a_row"
    LIMIT_DEAL = "buy.limit_deal"
    LIMIT_GAME = "buy.limit_game"
    TWICE = "buy.twice"
    TIMES = "buy.times"
    NOBODY_ASKED = "buy.nobody_asked"
    SKIPPED_THIS = "buy.skipped_this"
    SKIPPED_ALL = "buy.skipped_all"
    PASSED = "buy.passed"
    NO_PENALTY = "buy.no_penalty"
    PENALTY = "buy.penalty"
    GETS = "buy.gets"
    GETS_HOUSE = "buy.gets_house"
    AFTER_SKIPPED = "buy.after_skipped"
    PLAYS_BEFORE = "buy.plays_before"


def seat_labels(players: int, names: Sequence[str] | None = None) -> list[str]:
    """How a reason names each seat: the players' names, else `Seat 1` … clockwise (1-based)."""
    names = list(names or [])
    return [
        names[seat] if seat < len(names) else Said(message(Buy.SEAT, number=seat + 1))
        for seat in range(players)
    ]


def _ruling(legal: bool, said: Message, rule: str, details) -> Verdict:
    """A ruling on a buy, its reason the message as a sentence."""
    return Verdict(legal, render(said), rule, details, message=said)


def check_buy(
    players: int,
    active: int,
    requests: Iterable[int],
    rules: RuleSet,
    last_buyer: int | None = None,
    names: Sequence[str] | None = None,
    bought_in_deal: Mapping[int, int] | None = None,
    bought_in_game: Mapping[int, int] | None = None,
    down: Iterable[int] = (),
) -> Verdict:
    """Who buys a passed discard: the requester who plays soonest after the active player (R8),
    passing over one who bought the previous discard or is at the rules' limit (R11), or who
    has gone down where the rules draw such a player from the stock only (R12.3).

    Seats are 0-based indices here; the reason names them by `names`, or as `Seat 1` … `Seat n`.
    `bought_in_deal` / `bought_in_game` count each seat's buys so far, for the rules' limits;
    `down` lists the seats that have gone down this deal.
    """
    players = rules.check_players(players)
    active = check_seat(active, players, message(Buy.ACTIVE))
    asked = [check_seat(seat, players, message(Buy.BUYER)) for seat in requests]
    if last_buyer is not None:
        last_buyer = check_seat(last_buyer, players, message(Buy.LAST_BUYER))
    gone_down = {check_seat(seat, players, message(Buy.DOWN)) for seat in down}
    buying = rules.buying
    details: dict[str, object] = {"buyer": None, "penalty_cards": None}
    if not buying.allowed:
        none = Buy.NO_BUYING if buying.take_several else Buy.NO_BUYING_TOP_ONLY
        return _ruling(False, message(none, rules=rules.rules_name), "R11", details)
    label = seat_labels(players, names)
    limits = _Limits(rules, label, bought_in_deal or {}, bought_in_game or {}, gone_down)
    order = [seat for seat in turn_order_after(active, players, rules) if seat in asked]
    skipped = {seat: why for seat in order if (why := limits.why_not(seat, last_buyer))}
    eligible = [seat for seat in order if seat not in skipped]
    # With two askers or more, who plays sooner decides: R12.3's direction, where it is changed.
    by_direction = len(order) > 1 and rules.house("direction")
    rule = _citation(skipped, last_buyer, by_direction, limits)
    if not eligible:
        said = _nobody_reason(asked, active, last_buyer, label, skipped)
        return _ruling(False, said, rule, details)
    buyer = eligible[0]
    details.update(buyer=buyer, penalty_cards=buying.penalty_cards)
    said = _buyer_reason(buyer, eligible, order, label, skipped, rules, active, by_direction)
    if buying.penalty_cards != 1 and rule == "R8":
        rule = "R11"
    return _ruling(True, said, rule, details)


def _citation(skipped, last_buyer: int | None, by_direction: bool, limits: _Limits) -> str:
    """R8; R11 where an asker passed over for a limit, or the direction, decides; R11 with its
    setting where an asker who has gone down is passed over (R12.3)."""
    if any(seat in limits.stock_only for seat in skipped):
        return house_citation(["discard_draw_after_opening"])
    return "R11" if any(seat != last_buyer for seat in skipped) or by_direction else "R8"


class _Limits:
    """The rules' buy limits (R11) against each seat's buys so far."""

    def __init__(
        self,
        rules: RuleSet,
        label,
        in_deal: Mapping[int, int],
        in_game: Mapping[int, int],
        gone_down: set[int],
    ):
        self.rules = rules
        self.label = label
        # Who may not take a discard at all: those down, where the rules say so (R12.3).
        self.stock_only = set() if rules.discard_draw_after_opening else gone_down
        self.counts = (
            (Buy.LIMIT_DEAL, rules.buying.per_deal, in_deal),
            (Buy.LIMIT_GAME, rules.buying.per_game, in_game),
        )

    def why_not(self, seat: int, last_buyer: int | None) -> Message | None:
        """Why a seat that asked may not buy this discard, or None."""
        if seat == last_buyer:
            return message(Buy.TWICE_IN_A_ROW, seat=self.label[seat])
        if seat in self.stock_only:
            return message(Buy.GONE_DOWN, seat=self.label[seat], rules=self.rules.rules_name)
        for code, limit, bought in self.counts:
            if limit is not None and bought.get(seat, 0) >= limit:
                times = _times(bought.get(seat, 0))
                rules = self.rules.rules_name
                return message(code, seat=self.label[seat], times=times, rules=rules, limit=limit)
        return None


def _times(count: int) -> Message:
    """`once`, `twice`, `3 times`."""
    return message(Buy.TWICE) if count == 2 else message(Buy.TIMES, count=count)


def _nobody_reason(
    asked: list[int], active: int, last_buyer: int | None, label, skipped: dict[int, Message]
) -> Message:
    """Why nobody buys: no request, only the player whose turn it is asked (the form asks
    "Whose turn is it?", so the reason says it the same way), or every asker passed over."""
    if not asked:
        return message(Buy.NOBODY_ASKED)
    if skipped:
        if list(skipped) == [last_buyer]:
            return message(Buy.SKIPPED_THIS, why=skipped[last_buyer])
        return message(Buy.SKIPPED_ALL, whys=joined(Join.SEMICOLON, skipped.values()))
    return message(Buy.PASSED, seat=label[active])


def penalty(penalty_cards: int) -> Message:
    """What a buyer takes besides the discard (R8, R11)."""
    if penalty_cards == 0:
        return message(Buy.NO_PENALTY)
    return message(Buy.PENALTY, cards=penalty_cards)


def penalty_text(penalty_cards: int) -> str:
    """`penalty` in words: `takes the top stock card as a penalty`."""
    return words(penalty(penalty_cards))


def _buyer_reason(
    buyer: int,
    eligible: list[int],
    order: list[int],
    label,
    skipped: dict[int, Message],
    rules: RuleSet,
    active: int,
    by_direction: bool,
) -> Message:
    """Why this seat gets the discard: first after the player whose turn it is, the others
    passed over; the rules named where their penalty or their direction decides."""
    gets = message(Buy.GETS, seat=label[buyer], penalty=penalty(rules.buying.penalty_cards))
    if rules.buying.penalty_cards != 1 or by_direction:
        gets = message(Buy.GETS_HOUSE, gets=gets, rules=rules.rules_name)
    before = [why for seat, why in skipped.items() if order.index(seat) < order.index(buyer)]
    if before:
        return message(Buy.AFTER_SKIPPED, whys=joined(Join.SEMICOLON, before), gets=gets)
    if len(eligible) > 1:
        others = joined(Join.EACH_AND, [label[seat] for seat in eligible[1:]])
        return message(
            Buy.PLAYS_BEFORE, buyer=label[buyer], others=others, active=label[active], gets=gets
        )
    return gets
