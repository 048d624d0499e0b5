"""R8 who buys a passed discard, under the rules' buying settings (R11): whether there is
buying, the limits a deal and a game, and the penalty cards a buy costs."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from .ruleset import RuleSet
from .seating import check_seat, turn_order_after
from .verdict import Verdict, sentence


def seat_labels(players: int, names: Sequence[str] | None = None) -> list[str]:
    """How a reason names each seat: the players' names, else `Seat 1` … clockwise (1-based)."""
    names = list(names or [])
    return [names[seat] if seat < len(names) else f"Seat {seat + 1}" for seat in range(players)]


def check_buy(
    players: int,
    active: int,
    requests: Iterable[int],
    rules: RuleSet,
    last_buyer: int | None = None,
    names: Sequence[str] | None = None,
    bought_in_deal: Mapping[int, int] | None = None,
    bought_in_game: Mapping[int, int] | None = None,
) -> Verdict:
    """Who buys a passed discard: the requester who plays soonest after the active player (R8),
    passing over one who bought the previous discard or is at the rules' limit (R11).

    Seats are 0-based indices here; the reason names them by `names`, or as `Seat 1` … `Seat n`.
    `bought_in_deal` / `bought_in_game` count each seat's buys so far, for the rules' limits.
    """
    players = rules.check_players(players)
    active = check_seat(active, players, "the active player")
    asked = [check_seat(seat, players, "a buyer") for seat in requests]
    if last_buyer is not None:
        last_buyer = check_seat(last_buyer, players, "the last buyer")
    buying = rules.buying
    details: dict[str, object] = {"buyer": None, "penalty_cards": None}
    if not buying.allowed:
        return Verdict(
            False,
            f"{sentence(rules.rules_name)} have no buying: a player may instead take several "
            "discards from the top, plus one stock card for each extra",
            "R11",
            details,
        )
    label = seat_labels(players, names)
    limits = _Limits(rules, label, bought_in_deal or {}, bought_in_game or {})
    order = [seat for seat in turn_order_after(active, players) if seat in asked]
    skipped = {seat: why for seat in order if (why := limits.why_not(seat, last_buyer))}
    eligible = [seat for seat in order if seat not in skipped]
    rule = "R11" if any(seat != last_buyer for seat in skipped) else "R8"
    if not eligible:
        reason = _nobody_reason(asked, active, last_buyer, label, skipped)
        return Verdict(False, sentence(reason), rule, details)
    buyer = eligible[0]
    details.update(buyer=buyer, penalty_cards=buying.penalty_cards)
    reason = _buyer_reason(buyer, eligible, order, label, skipped, rules, active)
    if buying.penalty_cards != 1:
        rule = "R11"
    return Verdict(True, sentence(reason), rule, details)


class _Limits:
    """The rules' buy limits (R11) against each seat's buys so far."""

    def __init__(
        self, rules: RuleSet, label, in_deal: Mapping[int, int], in_game: Mapping[int, int]
    ):
        self.rules = rules
        self.label = label
        self.counts = (
            ("deal", rules.buying.per_deal, in_deal),
            ("game", rules.buying.per_game, in_game),
        )

    def why_not(self, seat: int, last_buyer: int | None) -> str | None:
        """Why a seat that asked may not buy this discard, or None."""
        if seat == last_buyer:
            return f"{self.label[seat]} took the previous discard and may not take two in a row"
        for what, limit, bought in self.counts:
            if limit is not None and bought.get(seat, 0) >= limit:
                return (
                    f"{self.label[seat]} has bought {_times(bought.get(seat, 0))} this {what}: "
                    f"{self.rules.rules_name} allow {limit} a {what}"
                )
        return None


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def _nobody_reason(
    asked: list[int], active: int, last_buyer: int | None, label, skipped: dict[int, str]
) -> str:
    """Why nobody buys: no request, only the player whose turn it is asked (the form asks
    "Whose turn is it?", so the reason says it the same way), or every asker passed over."""
    if not asked:
        return "Nobody asked to buy the discard"
    if skipped:
        if list(skipped) == [last_buyer]:
            return f"{skipped[last_buyer]}, so nobody buys this one"
        return f"{'; '.join(skipped.values())}, so nobody buys it"
    return f"It is {label[active]}'s turn and {label[active]} passed the discard, so nobody buys it"


def penalty_text(penalty_cards: int) -> str:
    """What a buyer takes besides the discard (R8, R11)."""
    if penalty_cards == 0:
        return "takes no penalty card"
    if penalty_cards == 1:
        return "takes the top stock card as a penalty"
    return f"takes the top {penalty_cards} stock cards as a penalty"


def _buyer_reason(
    buyer: int,
    eligible: list[int],
    order: list[int],
    label,
    skipped: dict[int, str],
    rules: RuleSet,
    active: int,
) -> str:
    """Why this seat gets the discard: first after the player whose turn it is, the others
    passed over."""
    penalty = f"{label[buyer]} gets the discard and {penalty_text(rules.buying.penalty_cards)}"
    if rules.buying.penalty_cards != 1:
        penalty = f"{penalty} ({rules.rules_name})"
    before = [why for seat, why in skipped.items() if order.index(seat) < order.index(buyer)]
    if before:
        return f"{'; '.join(before)}, so {penalty}"
    if len(eligible) > 1:
        others = " and ".join(label[seat] for seat in eligible[1:])
        turn = f"{label[active]}, whose turn it is"
        return f"{label[buyer]} plays before {others} after {turn}, so {penalty}"
    return penalty
