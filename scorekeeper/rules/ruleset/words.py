"""R11 in words: a rule set's one-line summary, and each of its changes from `liverpool` as a
plain sentence, for the pages that show a game's rules and the verdicts that cite them.

A sentence says the setting's value in this rule set, never the default it replaces: "a joker
left in hand is 50", so a citation reads "Smith family rules: a joker left in hand is 50".
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .values import VALUE_KEYS, FreedJoker, JokerSwap, Settings

# A card left in hand, as a sentence names it.
_CARD_NAMES = {"A": "an ace", "8": "an 8", "J": "a jack", "Q": "a queen", "K": "a king"}
_CARD_NAMES["JK"] = "a joker"

_SWAPS = {
    JokerSwap.NEVER: "a wild card on the table is never swapped for the card it stands for",
    JokerSwap.RUNS: "a run's wild card may be swapped for the card it stands for",
    JokerSwap.ANY: "a wild card in a set or a run may be swapped for the card it stands for",
}
_FREED = {
    FreedJoker.LAY_OFF: "a swapped-out wild card must be laid off the same turn",
    FreedJoker.HAND: "a swapped-out wild card goes into the hand",
}


def plural(count: int, noun: str) -> str:
    """`1 deal`, `10 deals`."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def players_range(rules: Settings) -> str:
    """A rule set's table sizes as a list or a picker names them: the one size (`4 players`),
    or the fewest and the most joined by an en dash."""
    if rules.min_players == rules.max_players:
        return plural(rules.min_players, "player")
    return f"{rules.min_players}–{rules.max_players} players"


def _buying(rules: Settings) -> str:
    buying = rules.buying
    if not buying.allowed:
        return "no buying"
    limits = [
        f"{limit} a {where}"
        for limit, where in ((buying.per_deal, "deal"), (buying.per_game, "game"))
        if limit is not None
    ]
    return "buying: " + (", ".join(limits) if limits else "no limit")


def summary(rules: Settings) -> str:
    """`Shanghai · 10 deals · 3–8 players · deuces wild · buying: no limit`."""
    parts = [rules.name, plural(rules.last_deal, "deal"), players_range(rules)]
    if rules.wild_deuces:
        parts.append("deuces wild")
    parts.append(_buying(rules))
    return " · ".join(parts)


def pack_steps(rules: Settings) -> list[tuple[int, int, int]]:
    """(fewest, most players, packs) for each table size the rule set seats."""
    steps, low = [], rules.min_players
    for step in rules.packs:
        if step.up_to >= low:
            steps.append((low, min(step.up_to, rules.max_players), step.packs))
            low = step.up_to + 1
        if low > rules.max_players:
            break
    return steps


def packs_sentence(rules: Settings) -> str:
    """`2 packs`, or by table size: `2 packs for 3–4 players, 3 for 5–6, 4 for 7–8`."""
    steps = pack_steps(rules)
    if len(steps) == 1:
        return plural(steps[0][2], "pack")
    return ", ".join(
        (f"{packs} packs for " if not index else f"{packs} for ")
        + (f"{first}" if first == last else f"{first}–{last}")
        + (" players" if not index else "")
        for index, (first, last, packs) in enumerate(steps)
    )


def _jokers(rules: Settings) -> str:
    fixed, per_pack = rules.jokers.fixed, rules.jokers.per_pack
    if not per_pack:
        return plural(fixed, "joker") if fixed else "no jokers"
    each = f"{plural(per_pack, 'joker')} a pack"
    return f"{plural(fixed, 'joker')} + {each}" if fixed else each


def _deals(rules: Settings) -> str:
    cards = [deal.cards for deal in rules.deals]
    dealt = (
        f"of {cards[0]} cards each"
        if len(set(cards)) == 1
        else "of " + ", ".join(map(str, cards)) + " cards"
    )
    return f"{plural(len(cards), 'deal')} {dealt}"


def _contracts(rules: Settings) -> str:
    return "contracts: " + " · ".join(
        deal.contract_text() + (" using the whole hand" if deal.whole_hand else "")
        for deal in rules.deals
    )


def _value(key: str) -> Callable[[Settings], str]:
    name = _CARD_NAMES.get(key, f"a {key}")
    return lambda rules: f"{name} left in hand is {rules.values[key]}"


def _either(yes: str, no: str, test: Callable[[Settings], bool]) -> Callable[[Settings], str]:
    return lambda rules: yes if test(rules) else no


def _limit(where: str, read: Callable[[Settings], int | None]) -> Callable[[Settings], str]:
    def say(rules: Settings) -> str:
        limit = read(rules)
        if limit is None:
            return f"no limit on buys in a {where}"
        return f"a player buys at most {plural(limit, 'time')} a {where}"

    return say


def _cut(rules: Settings) -> str:
    if not rules.cut_bonus:
        return "an exact cut earns no bonus"
    return f"an exact cut takes {-rules.cut_bonus} off the cutter's round"


def _penalty(rules: Settings) -> str:
    count = rules.buying.penalty_cards
    if not count:
        return "a buy takes no penalty card"
    return f"a buy takes {plural(count, 'penalty card')} from the stock"


# Each setting's place in the document and its sentence, in the document's order. A place is
# compared with `liverpool`'s; "deals.contracts" (not a document place) stands for every deal's
# contract and whole-hand flag, compared as a whole.
_SENTENCES: tuple[tuple[str, Callable[[Settings], str]], ...] = (
    ("players", lambda rules: f"for {rules.players_text()}"),
    ("packs", packs_sentence),
    ("jokers", _jokers),
    ("deals", _deals),
    ("deals.contracts", _contracts),
    (
        "exact_sizes",
        _either(
            "an opening lays each meld at exactly its size",
            "an opening may lay melds longer than the contract's sizes",
            lambda rules: rules.exact_sizes,
        ),
    ),
    *((f"values.{key}", _value(key)) for key in VALUE_KEYS),
    (
        "wild_deuces",
        _either("every 2 is wild as well as the jokers", "2s are natural", lambda r: r.wild_deuces),
    ),
    (
        "naturals.set",
        lambda rules: f"a set needs {plural(rules.naturals.set, 'natural card')}",
    ),
    (
        "naturals.run",
        lambda rules: f"a run needs {plural(rules.naturals.run, 'natural card')}",
    ),
    (
        "naturals.wild_at_most_natural",
        _either(
            "a meld may not hold more wild cards than natural cards",
            "wild cards may outnumber natural cards in a meld",
            lambda rules: rules.naturals.wild_at_most_natural,
        ),
    ),
    ("cut_bonus", _cut),
    (
        "layoff_on_opening_turn",
        _either(
            "a player may lay off on the turn they open",
            "no laying off on the turn of opening",
            lambda rules: rules.layoff_on_opening_turn,
        ),
    ),
    (
        "go_out_by_layoff",
        _either(
            "a player may go out by laying off the last card",
            "a player may not go out by laying off the last card",
            lambda rules: rules.go_out_by_layoff,
        ),
    ),
    ("joker_swap", lambda rules: _SWAPS[rules.joker_swap]),
    (
        "swap_on_opening_turn",
        _either(
            "a player may swap a wild card on the turn they open",
            "no swapping a wild card on the turn of opening",
            lambda rules: rules.swap_on_opening_turn,
        ),
    ),
    ("freed_joker", lambda rules: _FREED[rules.freed_joker]),
    (
        "buying.allowed",
        _either("a passed discard may be bought", "no buying", lambda r: r.buying.allowed),
    ),
    ("buying.per_deal", _limit("deal", lambda rules: rules.buying.per_deal)),
    ("buying.per_game", _limit("game", lambda rules: rules.buying.per_game)),
    ("buying.penalty_cards", _penalty),
)


def _changed(rules: Settings, default: Settings, place: str) -> bool:
    if place == "deals.contracts":
        return [(d.contract, d.whole_hand) for d in rules.deals] != [
            (d.contract, d.whole_hand) for d in default.deals
        ]
    if place == "deals":
        return [d.cards for d in rules.deals] != [d.cards for d in default.deals]
    return rules.setting(place) != default.setting(place)


def _changes(rules: Settings, default: Settings) -> Iterator[tuple[str, str]]:
    for place, sentence in _SENTENCES:
        if place.startswith("buying.") and place != "buying.allowed" and not rules.buying.allowed:
            continue  # without buying, its limits and penalty say nothing
        if _changed(rules, default, place):
            yield place, sentence(rules)


def differences(rules: Settings, default: Settings) -> tuple[tuple[str, str], ...]:
    """Each change from `default` (`liverpool`): (its place, a plain sentence), in the
    document's order."""
    return tuple(_changes(rules, default))


def sentence(rules: Settings, place: str) -> str:
    """The sentence for one setting's value in this rule set, changed or not."""
    return dict(_SENTENCES)[place](rules)


# R11's settings as the editor and the reading pages group them, each group with the top-level
# places of the document it holds, in the order a table talks them through.
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Players and packs", ("players", "packs", "jokers")),
    ("Deals and contracts", ("deals", "exact_sizes")),
    ("Card values", ("values",)),
    ("Melds and jokers", ("wild_deuces", "naturals", "joker_swap", "freed_joker")),
    (
        "Turns and buying",
        ("layoff_on_opening_turn", "go_out_by_layoff", "swap_on_opening_turn", "buying"),
    ),
    ("The cut", ("cut_bonus",)),
)


def group_of(place: str) -> str:
    """The title of the group a place in the document belongs to (`deals[3].cards`: Deals and
    contracts); `KeyError` for a place no group holds."""
    top = place.split(".")[0].split("[")[0]
    for title, tops in GROUPS:
        if top in tops:
            return title
    raise KeyError(place)


@dataclass(frozen=True, slots=True)
class Line:
    """One setting read out: its place, the sentence, and whether it differs from `liverpool`."""

    place: str
    sentence: str
    changed: bool


def read_out(rules: Settings, default: Settings) -> tuple[tuple[str, tuple[Line, ...]], ...]:
    """The whole rule set as sentences, grouped as R11 groups them (`GROUPS`), each marked when
    it differs from `default` (`liverpool`). Without buying, its limits and penalty are not read
    out."""
    lines: dict[str, list[Line]] = {title: [] for title, _ in GROUPS}
    for place, say in _SENTENCES:
        if place.startswith("buying.") and place != "buying.allowed" and not rules.buying.allowed:
            continue
        lines[group_of(place)].append(Line(place, say(rules), _changed(rules, default, place)))
    return tuple((title, tuple(lines[title])) for title, _ in GROUPS)


def packs_text(rules: Settings) -> str:
    """`2 + 3`, or by table size: `2 packs for 3–5 players, 3 for 6–8; jokers: 2`."""
    steps = pack_steps(rules)
    if len(steps) == 1:
        return f"{steps[0][2]} + {rules.joker_count()}"
    sizes = ", ".join(
        f"{packs} for {first}–{last}" if index else f"{packs} packs for {first}–{last} players"
        for index, (first, last, packs) in enumerate(steps)
    )
    each = f"{rules.jokers.per_pack} a pack" if rules.jokers.per_pack else str(rules.jokers.fixed)
    return f"{sizes}; jokers: {each}"
