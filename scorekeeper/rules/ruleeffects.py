"""What a rule set's settings do at the table, said beside the setting as it is changed.

The editor shows these notes at once beside a control ("Deal 8 needs 13 cards: 11 dealt + the
draw is 12, so it needs a buy"), so that a family sees what a change does before it plays it.
Each note is keyed by the place in the document its control edits (`deals[7].cards`, `packs`,
`cut_bonus`), like the reader's problems; a rule set that is not playable has problems instead,
so notes are only made for a playable one (a `RuleSet`).
"""

from __future__ import annotations

from collections.abc import Iterator

from .ruleset import Deal, RuleSet
from .ruleset.words import pack_steps
from .words import Code, Join, Message, joined, message, render


class Note(Code):
    """Each note a setting may call for, and the parts of those notes."""

    PLAYERS = "note.players"
    DEAL_CARDS = "note.deal_cards"
    DEAL_WHOLE_HAND = "note.deal_whole_hand"
    CONTRACT = "note.contract"
    CONTRACT_WHOLE_HAND = "note.contract_whole_hand"
    PACKS = "note.packs"
    PLAYERS_ONE = "note.players_one"
    PLAYERS_RANGE = "note.players_range"
    CUT = "note.cut"
    CUT_DEAL = "note.cut_deal"
    CUT_DEALS = "note.cut_deals"
    CUT_TWO_DEALS = "note.cut_two_deals"
    CUT_BONUS = "note.cut_bonus"
    CUT_NO_BONUS = "note.cut_no_bonus"
    STOCK = "note.stock"
    NO_BUYING = "note.no_buying"
    BUYS_A_GAME = "note.buys_a_game"
    WILD = "note.wild"


# The cards one buy brings into the hand, as R11's "every contract fits the hand" counts it:
# the discard bought and its penalty card.
BUY_CARDS = 2


def _sizes(first: int, last: int) -> Message:
    if first == last:
        return message(Note.PLAYERS_ONE, first=first)
    return message(Note.PLAYERS_RANGE, first=first, last=last)


def buys_needed(deal: Deal) -> int:
    """The buys a player needs before this deal's contract fits the hand: 0 when the cards dealt
    and the draw hold it (with a discard kept, except in a whole-hand deal)."""
    short = deal.contract_cards + (0 if deal.whole_hand else 1) - (deal.cards + 1)
    return max(0, -(-short // BUY_CARDS))


def _deal_note(number: int, deal: Deal) -> Message | None:
    buys = buys_needed(deal)
    if not buys:
        return None
    needed = deal.contract_cards + (0 if deal.whole_hand else 1)
    whole = message(Note.DEAL_WHOLE_HAND) if deal.whole_hand else ""
    drawn = deal.cards + 1
    return message(
        Note.DEAL_CARDS,
        number=number,
        needed=needed,
        whole=whole,
        cards=deal.cards,
        drawn=drawn,
        buys=buys,
    )


def _contract_note(deal: Deal) -> Message:
    code = Note.CONTRACT_WHOLE_HAND if deal.whole_hand else Note.CONTRACT
    return message(code, contract=deal.contract_text(), cards=deal.contract_cards)


def _packs_note(rules: RuleSet) -> Message:
    """`3–4 players: 2 packs + 2 jokers = 106 cards; 5–8 players: 3 packs + …`."""
    parts = []
    for first, last, packs in pack_steps(rules):
        jokers = rules.joker_count(first)
        cards = rules.pack_size(first)
        players = _sizes(first, last)
        parts.append(message(Note.PACKS, players=players, packs=packs, jokers=jokers, cards=cards))
    return joined(Join.SEMICOLON, parts)


def _runs_of(numbers: list[tuple[int, int]]) -> Iterator[tuple[int, int, int]]:
    """(first deal, last deal, value) for each stretch of deals with the same value."""
    start = 0
    for index in range(1, len(numbers) + 1):
        if index == len(numbers) or numbers[index][1] != numbers[start][1]:
            yield numbers[start][0], numbers[index - 1][0], numbers[start][1]
            start = index


def _cut_deals(first: int, last: int) -> Note:
    """The words for a stretch of deals with one exact cut: one deal, two, or more."""
    if first == last:
        return Note.CUT_DEAL
    return Note.CUT_DEALS if last > first + 1 else Note.CUT_TWO_DEALS


def _cut_note(rules: RuleSet) -> Message:
    """The exact cut of each deal for the usual table: `With 4 players the exact cut is 41 in
    deals 1–3, 49 in deals 4–7`."""
    players = rules.default_players
    cuts = [(number, rules.exact_cut(number, players)) for number in rules.deal_numbers]
    said = [
        message(_cut_deals(first, last), packet=packet, first=first, last=last)
        for first, last, packet in _runs_of(cuts)
    ]
    if rules.cut_bonus:
        bonus = message(Note.CUT_BONUS, bonus=-rules.cut_bonus)
    else:
        bonus = message(Note.CUT_NO_BONUS)
    return message(Note.CUT, players=players, cuts=joined(Join.COMMA, said), bonus=bonus)


def _stock_note(rules: RuleSet) -> Message:
    """The smallest stock left after a deal, at the table size where it is smallest."""
    players, number = min(
        ((players, number) for players in rules.table_sizes for number in rules.deal_numbers),
        key=lambda where: rules.stock_after_deal(where[1], where[0]),
    )
    return message(
        Note.STOCK,
        left=rules.stock_after_deal(number, players),
        players=players,
        number=number,
        dealt=rules.cards_dealt(number),
        pack=rules.pack_size(players),
    )


def _buying_note(rules: RuleSet) -> Message | None:
    buying = rules.buying
    if not buying.allowed:
        return message(Note.NO_BUYING)
    if buying.per_deal and buying.per_game and buying.per_deal > buying.per_game:
        return message(Note.BUYS_A_GAME, per_game=buying.per_game)
    return None


def _wild_note(rules: RuleSet) -> Message | None:
    if not rules.wild_deuces:
        return None
    players = rules.default_players
    deuces = 4 * rules.pack_count(players)
    jokers = rules.joker_count(players)
    return message(Note.WILD, players=players, deuces=deuces, jokers=jokers, wild=deuces + jokers)


def notes(rules: RuleSet) -> dict[str, str]:
    """Every note the rule set's settings call for, keyed by the place of the setting, in
    English."""
    return {place: render(said) for place, said in coded_notes(rules).items()}


def coded_notes(rules: RuleSet) -> dict[str, Message]:
    """Every note the rule set's settings call for, keyed by the place of the setting, as coded
    messages."""
    found: dict[str, Message] = {
        "players": message(Note.PLAYERS, players=rules.players_text(), usual=rules.default_players),
        "packs": _packs_note(rules),
    }
    for index, deal in enumerate(rules.deals):
        found[f"deals[{index}].contract"] = _contract_note(deal)
        if (note := _deal_note(index + 1, deal)) is not None:
            found[f"deals[{index}].cards"] = note
    found["deals"] = _stock_note(rules)
    found["cut_bonus"] = _cut_note(rules)
    if (note := _buying_note(rules)) is not None:
        found["buying"] = note
    if (note := _wild_note(rules)) is not None:
        found["wild_deuces"] = note
    return found
