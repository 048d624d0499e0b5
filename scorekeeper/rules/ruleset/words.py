"""The rulebook in words: what each R-number says, a rule set's one-line summary, and each of
its changes from `liverpool` as a plain sentence under the rules it replaces, for the verdicts
that cite them, the pages that show a game's rules and the reference page.

This is the engine's words place for the rules themselves (rules/words.py holds its coded
messages): the rulebook's `Rule`s (R1-R11: each one's title and points) and common questions,
every setting's sentence, summary and group title (R11), and the rules each setting changes.

A sentence says the setting's value in this rule set, never the default it replaces: "a joker
left in hand is 50", so a citation reads "Smith family rules: a joker left in hand is 50".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from .values import VALUE_KEYS, FreedJoker, JokerSwap, Settings

# Where a preset's rules come from, by its key, where a source is named.
SOURCES = {"shanghai": "the common ten-deal descriptions of Shanghai rum"}

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


# The rulebook (R1-R11): each rule's number, title and points in plain words, as liverpool plays
# them; a rule set's changes (the sentences above) read beside the rules they replace.
RULEBOOK: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (
        "R1",
        "Cards and notation",
        (
            "Two 52-card packs and 3 jokers: 107 cards. Only jokers are wild; deuces are ordinary cards.",
            "A game holds at most 2 of each card (one from each pack) and 3 jokers. "
            "Anything that needs more copies than that is impossible.",
            "Write a card as rank then suit: 10♠, 10s or Ts, Q♥ or qh, A♦. The suits are "
            "♠ ♥ ♦ ♣, the white ♤ ♡ ♢ ♧, or S H D C. A joker is JK (also JKR, JOKER, * or 🃏). "
            "Separate cards with spaces, commas or semicolons.",
            "A joker may say what it stands for: JK=7♠ in a run, JK=7 in a set. A declaration "
            "that names no card or rank (JK=, JK=JK, JK=7♠=8♠) is an error: it is never "
            "dropped or guessed.",
            "Anything else, brackets included, is an error that names the card and its place.",
        ),
    ),
    (
        "R2",
        "Seats, dealer, cut and deal",
        (
            "Four players, seated clockwise. Play and the deal pass to the left.",
            "The first dealer is drawn at random; each round the deal passes one seat to the left.",
            "The dealer's right-hand neighbour cuts; the dealer's left-hand neighbour plays first.",
            "Deal 10 cards each in rounds 1-3 and 12 in rounds 4-7, one at a time; turn the next "
            "card up to start the discard pile; the rest is the stock.",
            "Exact cut: if the cut packet is exactly the cards needed to deal every hand and turn "
            "the upcard (41 in rounds 1-3, 49 in rounds 4-7 with four players), the cutter scores "
            "50 less that round. Scores may go below zero.",
        ),
    ),
    (
        "R3",
        "Contracts",
        (
            "Round 1: 2 sets. Round 2: 1 set + 1 run. Round 3: 2 runs. Round 4: 3 sets. "
            "Round 5: 2 sets + 1 run. Round 6: 1 set + 2 runs. Round 7: 3 runs using the whole "
            "hand, with no discard.",
            "Everyone plays the same contract; a contract not made does not carry over.",
        ),
    ),
    (
        "R4",
        "Melds",
        (
            "A set is cards of one rank; suits are free and duplicates are fine (7♠ 7♠ 7♥).",
            "A run is consecutive cards of one suit. The ace is low (A 2 3 4) or high (J Q K A) "
            "but never both ways round the corner (K A 2 3 is not a run). The longest run is "
            "A 2 … K A, 14 cards.",
            "A joker stands for one missing card. Every meld needs at least one real card.",
            "The order cards are listed in does not matter. If a joker could go in more than one "
            "place, the meld is legal and every reading counts unless the joker was declared.",
        ),
    ),
    (
        "R5",
        "Opening (going down)",
        (
            "You open once a round, laying the whole contract at once: exactly the sets and runs "
            "asked for, each at its minimum size (3 cards a set, 4 a run), nothing extra.",
            "Two runs of the same suit may not touch: 3♠-6♠ with 7♠-10♠ is one long run, not "
            "two. A gap or an overlap with the other pack's cards is fine.",
            "Rounds 1-6: keep at least one card to discard after opening.",
            "Round 7: lay the whole hand at once as exactly 3 runs of at least 4 cards, with no "
            "card left and no discard.",
            "After opening you make no new melds that round.",
        ),
    ),
    (
        "R6",
        "Laying off",
        (
            "From your next turn after opening (never on the turn you open), add any cards to any "
            "meld on the table, yours or anyone's.",
            "A set takes more of its rank or jokers; a run takes the next card at either end or a "
            "joker, up to 14 cards, never past an ace.",
            "Round 7 has no laying off. In rounds 1-6 you go out by discarding your last card, "
            "not by laying it off.",
            "Only melds of the round's contract can be on the table: no run in rounds 1 and 4, "
            "no set in round 3. Laying off on any other meld is not legal.",
        ),
    ),
    (
        "R7",
        "Jokers after the opening",
        (
            "A joker in a set stays there for the rest of the round.",
            "If you opened on an earlier turn, on your turn you may swap a run's joker for the "
            "exact card it stands for (rank and suit). You must lay the freed joker off on a meld "
            "in the same turn: you never keep it.",
        ),
    ),
    (
        "R8",
        "Turns and buying",
        (
            "A turn: draw the top stock card or the top discard; open or lay off if allowed; "
            "discard one card (except when going out in round 7).",
            "If the player whose turn it is takes the discard, nobody may buy it.",
            "If they pass it, anyone else may ask to buy it; the one who would play soonest after "
            "them gets it, and takes the top stock card too as a penalty. Buying is not a turn.",
            "Another player may then buy the next discard the same way, but nobody buys two "
            "discards in a row. There is no limit on purchases.",
        ),
    ),
    (
        "R9",
        "Stock exhausted",
        (
            "When the stock is empty, shuffle the discards (all but the top one) into a new stock.",
            "If a draw is still impossible, the round ends with no winner and everyone scores the "
            "cards in hand.",
        ),
    ),
    (
        "R10",
        "Scoring",
        (
            "The player who empties their hand scores 0.",
            "Everyone else scores the cards left in hand: 2-10 face value, J Q K 10, A 15, "
            "joker 15. Cards on the table cost nothing. A♠ K♦ 4♥ = 29.",
            "The exact-cut bonus (-50) is added to the cutter's score for the round.",
            "Scores add up over the seven rounds; the lowest total wins, and tied lowest totals "
            "share the win.",
        ),
    ),
    (
        "R11",
        "House rules: the table's own rule set",
        (
            "A game is played under one rule set, chosen when the game starts and kept with "
            "it. The default is liverpool: R1-R10 as written above. The presets are liverpool, "
            "contract, online, family and shanghai; a table may also write its own.",
            "A rule set may change only these settings: the fewest and most players; the packs "
            "by table size and the jokers; the deals (how many, 1 to 12, and for each the cards "
            "dealt, the contract with each meld's minimum size, and whether it is a whole-hand "
            "deal with no discard); whether an opening lays each meld at exactly its size or at "
            "least; the value of each card left in hand and of a joker; wild deuces; the natural "
            "cards a set and a run need, and whether wild cards may outnumber natural ones; the "
            "exact-cut bonus; laying off on the opening turn; going out by laying off; which "
            "wild cards may be swapped (never, a run's, any) and on the opening turn; where a "
            "freed joker goes; and buying, its limits a deal and a game, and its penalty cards.",
            "Everything else is the same at every table: seats clockwise, the deal passing left, "
            "the cutter on the dealer's right, lowest total wins and ties share, one card never "
            "counts twice, the ace never wraps, runs of one suit in one opening never touch, and "
            "buying is never a turn, nor does anyone buy two discards in a row.",
            "Wild deuces: a 2 is natural where it stands as itself (a set of 2s, its own place in "
            "a run of its suit) and wild anywhere else, like a joker. Left in hand it scores the "
            "2's value, wild or not.",
            "A rule set is refused, with every problem named, unless it is playable: 2 to 8 "
            "players with packs (1-4) for each table size; 1 to 12 deals, 1 to 5 melds a "
            "contract, a set of three to eight cards and a run of four to 14; every deal can "
            "be dealt and its contract fits the hand; values 0-100, a cut bonus of -100 to 0, "
            "0-3 penalty cards, buy limits 1-20.",
            "A verdict or a score that turns on a setting the rule set changes from liverpool "
            'cites R11 and names the rule set ("shanghai rules: a meld may not hold more wild '
            'cards than natural cards", "Smith family rules: a joker left in hand is 50").',
        ),
    ),
)


@dataclass(frozen=True)
class Rule:
    """One section of the rulebook: its number, its title and its points in plain words."""

    number: str
    title: str
    points: tuple[str, ...]

    @property
    def anchor(self) -> str:
        return self.number.lower()


RULES: dict[str, Rule] = {number: Rule(number, title, points) for number, title, points in RULEBOOK}

# The rules of R1-R10 each setting of R11's table changes, by its place in the document (or the
# top of it): a rule set that changes the setting has its own sentence in place of that text.
TOUCHES: dict[str, tuple[str, ...]] = {
    "players": ("R2",),
    "packs": ("R1",),
    "jokers": ("R1",),
    "deals": ("R2", "R3"),
    "deals.contracts": ("R3", "R5"),
    "exact_sizes": ("R5",),
    "values": ("R10",),
    "wild_deuces": ("R1", "R4"),
    "naturals": ("R4",),
    "cut_bonus": ("R2", "R10"),
    "layoff_on_opening_turn": ("R6",),
    "go_out_by_layoff": ("R6",),
    "joker_swap": ("R7",),
    "swap_on_opening_turn": ("R7",),
    "freed_joker": ("R7",),
    "buying": ("R8",),
}


def touched_rules(place: str) -> tuple[str, ...]:
    """The rules a setting changes: `values.JK` → R10, `deals.contracts` → R3 and R5."""
    return TOUCHES.get(place) or TOUCHES[place.split(".")[0].split("[")[0]]


def changes_by_rule(differences: Iterable[tuple[str, str]]) -> dict[str, tuple[str, ...]]:
    """The sentences of a rule set's changes from liverpool (`RuleSet.differences`), under each
    rule of R1-R10 whose text they replace, in the document's order (none for liverpool)."""
    changes: dict[str, list[str]] = {}
    for place, said in differences:
        for number in touched_rules(place):
            changes.setdefault(number, []).append(said)
    return {number: tuple(said) for number, said in changes.items()}


# The questions a table asks most, each with its short answer and the rule that settles it.
COMMON_QUESTIONS: tuple[tuple[str, str, str], ...] = (
    (
        "May I lay off on the turn I open?",
        "No: only from your next turn (the online and family rules allow it, R11).",
        "R6",
    ),
    (
        "May I keep a joker I take back from a run?",
        "No: lay it off on a meld in the same turn (online rules: it goes into your hand, R11).",
        "R7",
    ),
    (
        "Is there a discard in round 7?",
        "No: the whole hand goes down at once as exactly three runs.",
        "R5",
    ),
    ("Can a joker in a set be taken back?", "No: it stays there for the rest of the round.", "R7"),
    (
        "Are twos wild?",
        "No: only jokers are wild (the shanghai rules make every 2 wild as well, R11).",
        "R1",
    ),
    (
        "Do 3♠ 4♠ 5♠ 6♠ and 7♠ 8♠ 9♠ 10♠ make two runs?",
        "No: they touch, so they count as one long run. Leave a gap or overlap them.",
        "R5",
    ),
    (
        "Two of us want the discard. Who gets it?",
        "Whoever would play sooner after the player who passed it.",
        "R8",
    ),
    ("Can K A 2 3 be a run?", "No: the ace is low or high, never round the corner.", "R4"),
)
