"""R8's turn at the discard pile under R12.3's settings: whether a player may take the top
discard (`discard_draw_after_opening`: not once they have gone down) and whether a card may be
discarded (`discard_wild`: never a wild card)."""

from __future__ import annotations

from .cards import Card
from .ruleset import RuleSet
from .verdict import Verdict
from .words import Code, Message, message, words


class Pile(Code):
    """What a ruling on the discard pile says (R8, R11, R12.3)."""

    TAKE = "discard.take"
    TAKE_DOWN = "discard.take_down"
    NO_TAKE_DOWN = "discard.no_take_down"
    THROW = "discard.throw"
    THROW_WILD = "discard.throw_wild"
    NO_THROW_WILD = "discard.no_throw_wild"


def _ruling(legal: bool, said: Message, rule: str) -> Verdict:
    return Verdict(legal, words(said), rule, {}, message=said)


def check_take(gone_down: bool, rules: RuleSet) -> Verdict:
    """May the player whose turn it is take the top discard? Yes (R8), unless they have gone
    down and the rules draw them from the stock only (`discard_draw_after_opening`, R12.3)."""
    if not gone_down:
        return _ruling(True, message(Pile.TAKE), "R8")
    if rules.discard_draw_after_opening:
        return _ruling(True, message(Pile.TAKE_DOWN), "R8")
    refused = message(Pile.NO_TAKE_DOWN, rules=rules.rules_name)
    return _ruling(False, refused, "R11:discard_draw_after_opening")


def check_throw(card: Card, rules: RuleSet, players: int | None = None) -> Verdict:
    """May this card end a turn as its discard? Any card may (R8), but not a wild card where the
    rules keep wild cards out of the discard pile (`discard_wild`, R12.3)."""
    rules.check_copies((card,), rules.check_players(players))
    shown = str(card)
    if not rules.is_wild(card):
        return _ruling(True, message(Pile.THROW, card=shown), "R8")
    if rules.discard_wild:
        return _ruling(True, message(Pile.THROW_WILD, card=shown), "R8")
    refused = message(Pile.NO_THROW_WILD, rules=rules.rules_name, card=shown)
    return _ruling(False, refused, "R11:discard_wild")
