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
from .ruleset.words import pack_steps, plural

# The cards one buy brings into the hand, as R11's "every contract fits the hand" counts it:
# the discard bought and its penalty card.
BUY_CARDS = 2


def _sizes(first: int, last: int) -> str:
    return f"{first} players" if first == last else f"{first}–{last} players"


def buys_needed(deal: Deal) -> int:
    """The buys a player needs before this deal's contract fits the hand: 0 when the cards dealt
    and the draw hold it (with a discard kept, except in a whole-hand deal)."""
    short = deal.contract_cards + (0 if deal.whole_hand else 1) - (deal.cards + 1)
    return max(0, -(-short // BUY_CARDS))


def _deal_note(number: int, deal: Deal) -> str | None:
    buys = buys_needed(deal)
    if not buys:
        return None
    needed = deal.contract_cards + (0 if deal.whole_hand else 1)
    whole = ", the whole hand laid with no discard" if deal.whole_hand else ""
    need = "a buy" if buys == 1 else f"{buys} buys"
    return (
        f"Deal {number} needs {needed} cards{whole}: {deal.cards} dealt + the draw is "
        f"{deal.cards + 1}, so it needs {need}"
    )


def _contract_note(deal: Deal) -> str:
    laid = f"{deal.contract_text()}: {plural(deal.contract_cards, 'card')} laid"
    if deal.whole_hand:
        return f"{laid}, the whole hand at once and no discard"
    return f"{laid}, and a card kept to discard"


def _packs_note(rules: RuleSet) -> str:
    """`3–4 players: 2 packs + 2 jokers = 106 cards; 5–8 players: 3 packs + …`."""
    parts = []
    for first, last, packs in pack_steps(rules):
        jokers = rules.joker_count(first)
        cards = rules.pack_size(first)
        parts.append(
            f"{_sizes(first, last)}: {plural(packs, 'pack')} + {plural(jokers, 'joker')}"
            f" = {cards} cards"
        )
    return "; ".join(parts)


def _runs_of(numbers: list[tuple[int, int]]) -> Iterator[tuple[int, int, int]]:
    """(first deal, last deal, value) for each stretch of deals with the same value."""
    start = 0
    for index in range(1, len(numbers) + 1):
        if index == len(numbers) or numbers[index][1] != numbers[start][1]:
            yield numbers[start][0], numbers[index - 1][0], numbers[start][1]
            start = index


def _cut_note(rules: RuleSet) -> str:
    """The exact cut of each deal for the usual table: `With 4 players the exact cut is 41 in
    deals 1–3, 49 in deals 4–7`."""
    players = rules.default_players
    cuts = [(number, rules.exact_cut(number, players)) for number in rules.deal_numbers]
    said = ", ".join(
        f"{packet} in deal {first}"
        if first == last
        else f"{packet} in deals {first}–{last}"
        if last > first + 1
        else f"{packet} in deals {first} and {last}"
        for first, last, packet in _runs_of(cuts)
    )
    bonus = (
        f"it takes {-rules.cut_bonus} off the cutter's round"
        if rules.cut_bonus
        else "it earns no bonus"
    )
    return f"With {players} players the exact cut is {said}: {bonus}"


def _stock_note(rules: RuleSet) -> str:
    """The smallest stock left after a deal, at the table size where it is smallest."""
    players, number = min(
        ((players, number) for players in rules.table_sizes for number in rules.deal_numbers),
        key=lambda where: rules.stock_after_deal(where[1], where[0]),
    )
    left = rules.stock_after_deal(number, players)
    return (
        f"The smallest stock: {left} cards, with {players} players in deal {number} "
        f"({players} × {rules.cards_dealt(number)} dealt + the upcard "
        f"from {rules.pack_size(players)})"
    )


def _buying_note(rules: RuleSet) -> str | None:
    buying = rules.buying
    if not buying.allowed:
        return "Nobody buys a passed discard"
    if buying.per_deal and buying.per_game and buying.per_deal > buying.per_game:
        return (
            f"A player buys at most {buying.per_game} a game, so never more than "
            f"{buying.per_game} in one deal either"
        )
    return None


def _wild_note(rules: RuleSet) -> str | None:
    if not rules.wild_deuces:
        return None
    players = rules.default_players
    deuces = 4 * rules.pack_count(players)
    jokers = rules.joker_count(players)
    return (
        f"With {players} players: {deuces} twos + {plural(jokers, 'joker')} = "
        f"{deuces + jokers} wild cards"
    )


def notes(rules: RuleSet) -> dict[str, str]:
    """Every note the rule set's settings call for, keyed by the place of the setting."""
    found: dict[str, str] = {
        "players": f"Seats {rules.players_text()}; a table of {rules.default_players} is usual",
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
