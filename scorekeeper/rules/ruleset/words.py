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

from ..words import Gettext, english_gettext, english_ngettext
from .values import (
    VALUE_KEYS,
    Ace,
    Direction,
    FreedJoker,
    FreedJokerTo,
    JokerSwap,
    Settings,
    TieBreak,
)


@dataclass(frozen=True)
class Speech:
    """The translation functions a rule set's sentences are written with: English as written
    here, or a language's (Flask-Babel's `gettext` and `ngettext` take the same arguments)."""

    gettext: Gettext = english_gettext
    ngettext: Gettext = english_ngettext


ENGLISH = Speech()


def N_(text: str) -> str:  # noqa: N802 (gettext's name for a text marked, translated where shown)
    """A text of the rulebook marked for the catalogs: translated where a page shows it."""
    return text


# Where a preset's rules come from, by its key, where a source is named.
SOURCES = {"shanghai": N_("the common ten-deal descriptions of Shanghai rum")}


# R12.1 and R12.2's variants (variants.py), as the rule editor's buttons say them.
VARIANT_WORDS = {
    "carioca.joker_30": N_("A joker left in hand is 30"),
    "carioca.joker_20": N_("A joker left in hand is 20"),
    "carioca.nine_deals": N_("9 deals: no escala sucia"),
    "carioca.eight_deals": N_("8 deals: neither last deal"),
    "carioca.no_wrap": N_("The ace never wraps"),
    "carioca.joker_swap": N_("A run's joker may be swapped"),
    "carioca.spacing_4": N_("A run's wild cards at least 4 natural cards apart"),
    "carioca.one_turn": N_("−10 for going down and out in one turn"),
    "continental.two_jokers": N_("2 jokers a pack"),
    "continental.canasta": N_("The canasta scale: 2–7 5, 8–K 10, A 20, joker 50"),
    "continental.mexico": N_("Mexico's family game: 8 deals, each dealing exactly its contract"),
}


def _card_name(key: str, say: Speech) -> str:
    """A card left in hand, as a sentence names it: `an ace`, `a joker`, `a 7`."""
    named = {
        "A": say.gettext("an ace"),
        "8": say.gettext("an 8"),
        "J": say.gettext("a jack"),
        "Q": say.gettext("a queen"),
        "K": say.gettext("a king"),
        "JK": say.gettext("a joker"),
    }
    return named.get(key) or say.gettext("a %(rank)s", rank=key)


def _swaps(swap: JokerSwap, say: Speech) -> str:
    return {
        JokerSwap.NEVER: say.gettext(
            "a wild card on the table is never swapped for the card it stands for"
        ),
        JokerSwap.RUNS: say.gettext("a run's wild card may be swapped for the card it stands for"),
        JokerSwap.ANY: say.gettext(
            "a wild card in a set or a run may be swapped for the card it stands for"
        ),
    }[swap]


def _freed(freed: FreedJoker, say: Speech) -> str:
    return {
        FreedJoker.LAY_OFF: say.gettext("a swapped-out wild card must be laid off the same turn"),
        FreedJoker.HAND: say.gettext("a swapped-out wild card goes into the hand"),
    }[freed]


def players_range(rules: Settings, say: Speech = ENGLISH) -> str:
    """A rule set's table sizes as a list or a picker names them: the one size (`4 players`),
    or the fewest and the most joined by an en dash."""
    if rules.min_players == rules.max_players:
        return say.ngettext("%(num)s player", "%(num)s players", rules.min_players)
    return say.gettext(
        "%(least)s–%(most)s players", least=rules.min_players, most=rules.max_players
    )


def _buying(rules: Settings, say: Speech) -> str:
    buying = rules.buying
    if not buying.allowed:
        return say.gettext("no buying")
    limits = [
        text
        for limit, text in (
            (buying.per_deal, say.gettext("%(limit)s a deal", limit=buying.per_deal)),
            (buying.per_game, say.gettext("%(limit)s a game", limit=buying.per_game)),
        )
        if limit is not None
    ]
    return say.gettext(
        "buying: %(limits)s", limits=", ".join(limits) if limits else say.gettext("no limit")
    )


def summary(rules: Settings, say: Speech = ENGLISH) -> str:
    """`Shanghai · 10 deals · 3–8 players · deuces wild · buying: no limit`."""
    parts = [
        rules.name,
        say.ngettext("%(num)s deal", "%(num)s deals", rules.last_deal),
        players_range(rules, say),
    ]
    if rules.wild_deuces:
        parts.append(say.gettext("deuces wild"))
    parts.append(_buying(rules, say))
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


def _sizes(first: int, last: int) -> str:
    return f"{first}" if first == last else f"{first}–{last}"


def packs_sentence(rules: Settings, say: Speech = ENGLISH) -> str:
    """`2 packs`, or by table size: `2 packs for 3–4 players, 3 for 5–6, 4 for 7–8`."""
    steps = pack_steps(rules)
    if len(steps) == 1:
        return say.ngettext("%(num)s pack", "%(num)s packs", steps[0][2])
    return ", ".join(
        say.gettext("%(packs)s for %(players)s", packs=packs, players=_sizes(first, last))
        if index
        else say.gettext(
            "%(packs)s packs for %(players)s players", packs=packs, players=_sizes(first, last)
        )
        for index, (first, last, packs) in enumerate(steps)
    )


def _jokers(rules: Settings, say: Speech) -> str:
    fixed, per_pack = rules.jokers.fixed, rules.jokers.per_pack
    if not per_pack:
        return (
            say.ngettext("%(num)s joker", "%(num)s jokers", fixed)
            if fixed
            else say.gettext("no jokers")
        )
    each = say.ngettext("%(num)s joker a pack", "%(num)s jokers a pack", per_pack)
    if not fixed:
        return each
    return say.gettext(
        "%(fixed)s + %(each)s",
        fixed=say.ngettext("%(num)s joker", "%(num)s jokers", fixed),
        each=each,
    )


def _deals(rules: Settings, say: Speech) -> str:
    cards = [deal.cards for deal in rules.deals]
    if len(set(cards)) == 1:
        return say.ngettext(
            "%(num)s deal of %(cards)s cards each",
            "%(num)s deals of %(cards)s cards each",
            len(cards),
            cards=cards[0],
        )
    return say.ngettext(
        "%(num)s deal of %(cards)s cards",
        "%(num)s deals of %(cards)s cards",
        len(cards),
        cards=", ".join(map(str, cards)),
    )


def _contracts(rules: Settings, say: Speech) -> str:
    contracts = [_capped(deal, _contract(deal, say), say) for deal in rules.deals]
    return say.gettext("contracts: %(contracts)s", contracts=CONTRACTS_BETWEEN.join(contracts))


def _contract(deal, say: Speech) -> str:
    text = deal.contract_text(say.gettext, say.ngettext)
    return (
        say.gettext("%(contract)s using the whole hand", contract=text) if deal.whole_hand else text
    )


def _capped(deal, text: str, say: Speech) -> str:
    """A deal's contract with its own cap on wild cards (R12.3), where it has one."""
    if deal.wild_max is None:
        return text
    if not deal.wild_max:
        return say.gettext("%(contract)s with no wild card", contract=text)
    return say.ngettext(
        "%(contract)s with at most %(num)s wild card a meld",
        "%(contract)s with at most %(num)s wild cards a meld",
        deal.wild_max,
        contract=text,
    )


# Between a rule set's contracts, deal by deal.
CONTRACTS_BETWEEN = " · "


def _value(key: str) -> Callable[[Settings, Speech], str]:
    return lambda rules, say: say.gettext(
        "%(card)s left in hand is %(value)s", card=_card_name(key, say), value=rules.values[key]
    )


def _either(
    yes: str, no: str, test: Callable[[Settings], bool]
) -> Callable[[Settings, Speech], str]:
    """One of two sentences (marked with `N_`, translated as they are said)."""
    return lambda rules, say: say.gettext(yes if test(rules) else no)


def _limit(where: str, read: Callable[[Settings], int | None]) -> Callable[[Settings, Speech], str]:
    def sentence(rules: Settings, say: Speech) -> str:
        limit = read(rules)
        if where == "deal":
            if limit is None:
                return say.gettext("no limit on buys in a deal")
            return say.ngettext(
                "a player buys at most %(num)s time a deal",
                "a player buys at most %(num)s times a deal",
                limit,
            )
        if limit is None:
            return say.gettext("no limit on buys in a game")
        return say.ngettext(
            "a player buys at most %(num)s time a game",
            "a player buys at most %(num)s times a game",
            limit,
        )

    return sentence


def _counted(
    none: str, read: Callable[[Settings], int | None], counted: Callable[[Speech, int], str]
) -> Callable[[Settings, Speech], str]:
    """A setting's count said by `counted`, or `none` (marked with `N_`) where it is unset."""

    def sentence(rules: Settings, say: Speech) -> str:
        count = read(rules)
        return say.gettext(none) if count is None else counted(say, count)

    return sentence


def _cut(rules: Settings, say: Speech) -> str:
    if not rules.cut_bonus:
        return say.gettext("an exact cut earns no bonus")
    return say.gettext(
        "an exact cut takes %(points)s off the cutter's round", points=-rules.cut_bonus
    )


def _one_turn(rules: Settings, say: Speech) -> str:
    if not rules.out_in_one_turn_bonus:
        return say.gettext("going down and out in one turn earns no bonus")
    return say.gettext(
        "going down and out in one turn takes %(points)s off the player's round",
        points=-rules.out_in_one_turn_bonus,
    )


def _penalty(rules: Settings, say: Speech) -> str:
    count = rules.buying.penalty_cards
    if not count:
        return say.gettext("a buy takes no penalty card")
    return say.ngettext(
        "a buy takes %(num)s penalty card from the stock",
        "a buy takes %(num)s penalty cards from the stock",
        count,
    )


def _naturals(kind: str) -> Callable[[Settings, Speech], str]:
    def sentence(rules: Settings, say: Speech) -> str:
        if kind == "set":
            return say.ngettext(
                "a set needs %(num)s natural card",
                "a set needs %(num)s natural cards",
                rules.naturals.set,
            )
        return say.ngettext(
            "a run needs %(num)s natural card",
            "a run needs %(num)s natural cards",
            rules.naturals.run,
        )

    return sentence


# Each setting's place in the document and its sentence, in the document's order. A place is
# compared with `liverpool`'s; "deals.contracts" (not a document place) stands for every deal's
# contract and whole-hand flag, compared as a whole.
_SENTENCES: tuple[tuple[str, Callable[[Settings, Speech], str]], ...] = (
    (
        "players",
        lambda rules, say: say.gettext(
            "for %(players)s", players=rules.players_text(say.gettext, say.ngettext)
        ),
    ),
    ("packs", packs_sentence),
    ("jokers", _jokers),
    ("deals", _deals),
    ("deals.contracts", _contracts),
    (
        "exact_sizes",
        _either(
            N_("an opening lays each meld at exactly its size"),
            N_("an opening may lay melds longer than the contract's sizes"),
            lambda rules: rules.exact_sizes,
        ),
    ),
    *((f"values.{key}", _value(key)) for key in VALUE_KEYS),
    (
        "wild_deuces",
        _either(
            N_("every 2 is wild as well as the jokers"),
            N_("2s are natural"),
            lambda r: r.wild_deuces,
        ),
    ),
    ("naturals.set", _naturals("set")),
    ("naturals.run", _naturals("run")),
    (
        "naturals.wild_at_most_natural",
        _either(
            N_("a meld may not hold more wild cards than natural cards"),
            N_("wild cards may outnumber natural cards in a meld"),
            lambda rules: rules.naturals.wild_at_most_natural,
        ),
    ),
    ("cut_bonus", _cut),
    (
        "layoff_on_opening_turn",
        _either(
            N_("a player may lay off on the turn they open"),
            N_("no laying off on the turn of opening"),
            lambda rules: rules.layoff_on_opening_turn,
        ),
    ),
    (
        "go_out_by_layoff",
        _either(
            N_("a player may go out by laying off the last card"),
            N_("a player may not go out by laying off the last card"),
            lambda rules: rules.go_out_by_layoff,
        ),
    ),
    ("joker_swap", lambda rules, say: _swaps(rules.joker_swap, say)),
    (
        "swap_on_opening_turn",
        _either(
            N_("a player may swap a wild card on the turn they open"),
            N_("no swapping a wild card on the turn of opening"),
            lambda rules: rules.swap_on_opening_turn,
        ),
    ),
    ("freed_joker", lambda rules, say: _freed(rules.freed_joker, say)),
    (
        "buying.allowed",
        _either(N_("a passed discard may be bought"), N_("no buying"), lambda r: r.buying.allowed),
    ),
    ("buying.per_deal", _limit("deal", lambda rules: rules.buying.per_deal)),
    ("buying.per_game", _limit("game", lambda rules: rules.buying.per_game)),
    ("buying.penalty_cards", _penalty),
    (
        "buying.take_several",
        _either(
            N_("with no buying, a player may take several discards from the top"),
            N_("with no buying, a player takes only the top discard"),
            lambda rules: rules.buying.take_several,
        ),
    ),
    # R12.3's settings (`R12_SETTINGS`), after R11's as the document has them.
    (
        "direction",
        _either(
            N_(
                "play, the deal and buying go to the right: the cutter sits on the dealer's "
                "left and the player on the dealer's right plays first"
            ),
            N_("play, the deal and buying go to the left, clockwise"),
            lambda rules: rules.direction is Direction.RIGHT,
        ),
    ),
    (
        "ace",
        _either(
            N_("the ace wraps: Q K A 2 is a run, and a run holds each rank once"),
            N_("the ace is low or high, never both: no run turns the corner (K A 2)"),
            lambda rules: rules.ace is Ace.WRAP,
        ),
    ),
    (
        "wild_max",
        _counted(
            N_("no cap on the wild cards in a meld of the opening"),
            lambda rules: rules.wild_max,
            lambda say, count: say.ngettext(
                "a meld of the opening holds at most %(num)s wild card",
                "a meld of the opening holds at most %(num)s wild cards",
                count,
            ),
        ),
    ),
    (
        "wild_spacing",
        _counted(
            N_("wild cards may stand side by side in a run"),
            lambda rules: rules.wild_spacing or None,
            lambda say, count: say.ngettext(
                "two wild cards of a run stand at least %(num)s natural card apart",
                "two wild cards of a run stand at least %(num)s natural cards apart",
                count,
            ),
        ),
    ),
    (
        "distinct_set_ranks",
        _either(
            N_("the sets of one contract are of different ranks"),
            N_("the sets of one contract may share a rank"),
            lambda rules: rules.distinct_set_ranks,
        ),
    ),
    (
        "discard_wild",
        _either(
            N_("a wild card may be discarded"),
            N_("a wild card is never discarded"),
            lambda rules: rules.discard_wild,
        ),
    ),
    (
        "discard_draw_after_opening",
        _either(
            N_("a player who has gone down may still take the top discard"),
            N_("a player who has gone down draws only from the stock"),
            lambda rules: rules.discard_draw_after_opening,
        ),
    ),
    ("out_in_one_turn_bonus", _one_turn),
    (
        "tie_break",
        _either(
            N_(
                "level on the lowest total at the end, the player who went out in more deals "
                "wins; still level, they share the win"
            ),
            N_("level on the lowest total at the end, the players share the win"),
            lambda rules: rules.tie_break is TieBreak.DEALS_WON,
        ),
    ),
    (
        "freed_joker_to",
        _either(
            N_("a swapped-out wild card is laid off on a run"),
            N_("a swapped-out wild card may be laid off on any meld"),
            lambda rules: rules.freed_joker_to is FreedJokerTo.RUN,
        ),
    ),
)


def _changed(rules: Settings, default: Settings, place: str) -> bool:
    if place == "deals.contracts":
        return [(d.contract, d.whole_hand, d.wild_max) for d in rules.deals] != [
            (d.contract, d.whole_hand, d.wild_max) for d in default.deals
        ]
    if place == "deals":
        return [d.cards for d in rules.deals] != [d.cards for d in default.deals]
    return rules.setting(place) != default.setting(place)


def _silent(rules: Settings, place: str) -> bool:
    """Whether a setting says nothing under these rules: buying's limits and penalty without
    buying, taking several discards with buying, and where a freed wild card is laid when it
    goes into the hand."""
    if place == "buying.take_several":
        return rules.buying.allowed
    if place.startswith("buying.") and place != "buying.allowed":
        return not rules.buying.allowed
    return place == "freed_joker_to" and rules.freed_joker is FreedJoker.HAND


def _changes(rules: Settings, default: Settings, say: Speech) -> Iterator[tuple[str, str]]:
    for place, sentence in _SENTENCES:
        if _silent(rules, place):
            continue
        if _changed(rules, default, place):
            yield place, sentence(rules, say)


def differences(
    rules: Settings, default: Settings, say: Speech = ENGLISH
) -> tuple[tuple[str, str], ...]:
    """Each change from `default` (`liverpool`): (its place, a plain sentence), in the
    document's order."""
    return tuple(_changes(rules, default, say))


def sentence(rules: Settings, place: str, say: Speech = ENGLISH) -> str:
    """The sentence for one setting's value in this rule set, changed or not."""
    return dict(_SENTENCES)[place](rules, say)


# R11's settings as the editor and the reading pages group them, each group with the top-level
# places of the document it holds, in the order a table talks them through.
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (N_("Players and packs"), ("players", "packs", "jokers", "direction")),
    (N_("Deals and contracts"), ("deals", "exact_sizes", "distinct_set_ranks")),
    (N_("Scoring"), ("values", "out_in_one_turn_bonus", "tie_break")),
    (
        N_("Melds and jokers"),
        (
            "wild_deuces",
            "naturals",
            "ace",
            "wild_max",
            "wild_spacing",
            "joker_swap",
            "freed_joker",
            "freed_joker_to",
        ),
    ),
    (
        N_("Turns and buying"),
        (
            "layoff_on_opening_turn",
            "go_out_by_layoff",
            "swap_on_opening_turn",
            "buying",
            "discard_wild",
            "discard_draw_after_opening",
        ),
    ),
    (N_("The cut"), ("cut_bonus",)),
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


def read_out(
    rules: Settings, default: Settings, say: Speech = ENGLISH
) -> tuple[tuple[str, tuple[Line, ...]], ...]:
    """The whole rule set as sentences, grouped as R11 groups them (`GROUPS`, each title in the
    language of `say`), each marked when it differs from `default` (`liverpool`). Without
    buying, its limits and penalty are not read out (`_silent`)."""
    lines: dict[str, list[Line]] = {title: [] for title, _ in GROUPS}
    for place, written in _SENTENCES:
        if _silent(rules, place):
            continue
        line = Line(place, written(rules, say), _changed(rules, default, place))
        lines[group_of(place)].append(line)
    return tuple((say.gettext(title), tuple(lines[title])) for title, _ in GROUPS)


def packs_text(rules: Settings, say: Speech = ENGLISH) -> str:
    """`2 + 3`, or by table size: `2 packs for 3–5 players, 3 for 6–8; jokers: 2`."""
    steps = pack_steps(rules)
    if len(steps) == 1:
        return f"{steps[0][2]} + {rules.joker_count()}"
    sizes = packs_sentence(rules, say)
    each = (
        say.gettext("%(jokers)s a pack", jokers=rules.jokers.per_pack)
        if rules.jokers.per_pack
        else str(rules.jokers.fixed)
    )
    return say.gettext("%(sizes)s; jokers: %(each)s", sizes=sizes, each=each)


# The rulebook (R1-R11): each rule's number, title and points in plain words, as liverpool plays
# them; a rule set's changes (the sentences above) read beside the rules they replace.
RULEBOOK: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (
        "R1",
        N_("Cards and notation"),
        (
            N_(
                "Two 52-card packs and 3 jokers: 107 cards. Only jokers are wild; deuces are ordinary cards."
            ),
            N_(
                "A game holds at most 2 of each card (one from each pack) and 3 jokers. "
                "Anything that needs more copies than that is impossible."
            ),
            N_(
                "Write a card as rank then suit: 10♠, 10s or Ts, Q♥ or qh, A♦. The suits are "
                "♠ ♥ ♦ ♣, the white ♤ ♡ ♢ ♧, or S H D C. A joker is JK (also JKR, JOKER, * or 🃏). "
                "Separate cards with spaces, commas or semicolons."
            ),
            N_(
                "A joker may say what it stands for: JK=7♠ in a run, JK=7 in a set. A declaration "
                "that names no card or rank (JK=, JK=JK, JK=7♠=8♠) is an error: it is never "
                "dropped or guessed."
            ),
            N_("Anything else, brackets included, is an error that names the card and its place."),
        ),
    ),
    (
        "R2",
        N_("Seats, dealer, cut and deal"),
        (
            N_("Four players, seated clockwise. Play and the deal pass to the left."),
            N_(
                "The first dealer is drawn at random; each round the deal passes one seat to the left."
            ),
            N_(
                "The dealer's right-hand neighbour cuts; the dealer's left-hand neighbour plays first."
            ),
            N_(
                "Deal 10 cards each in rounds 1-3 and 12 in rounds 4-7, one at a time; turn the next "
                "card up to start the discard pile; the rest is the stock."
            ),
            N_(
                "Exact cut: if the cut packet is exactly the cards needed to deal every hand and turn "
                "the upcard (41 in rounds 1-3, 49 in rounds 4-7 with four players), the cutter scores "
                "50 less that round. Scores may go below zero."
            ),
        ),
    ),
    (
        "R3",
        N_("Contracts"),
        (
            N_(
                "Round 1: 2 sets. Round 2: 1 set + 1 run. Round 3: 2 runs. Round 4: 3 sets. "
                "Round 5: 2 sets + 1 run. Round 6: 1 set + 2 runs. Round 7: 3 runs using the whole "
                "hand, with no discard."
            ),
            N_("Everyone plays the same contract; a contract not made does not carry over."),
        ),
    ),
    (
        "R4",
        N_("Melds"),
        (
            N_("A set is cards of one rank; suits are free and duplicates are fine (7♠ 7♠ 7♥)."),
            N_(
                "A run is consecutive cards of one suit. The ace is low (A 2 3 4) or high (J Q K A) "
                "but never both ways round the corner (K A 2 3 is not a run). The longest run is "
                "A 2 … K A, 14 cards."
            ),
            N_("A joker stands for one missing card. Every meld needs at least one real card."),
            N_(
                "The order cards are listed in does not matter. If a joker could go in more than one "
                "place, the meld is legal and every reading counts unless the joker was declared."
            ),
        ),
    ),
    (
        "R5",
        N_("Opening (going down)"),
        (
            N_(
                "You open once a round, laying the whole contract at once: exactly the sets and runs "
                "asked for, each at its minimum size (3 cards a set, 4 a run), nothing extra."
            ),
            N_(
                "Two runs of the same suit may not touch: 3♠-6♠ with 7♠-10♠ is one long run, not "
                "two. A gap or an overlap with the other pack's cards is fine."
            ),
            N_("Rounds 1-6: keep at least one card to discard after opening."),
            N_(
                "Round 7: lay the whole hand at once as exactly 3 runs of at least 4 cards, with no "
                "card left and no discard."
            ),
            N_("After opening you make no new melds that round."),
        ),
    ),
    (
        "R6",
        N_("Laying off"),
        (
            N_(
                "From your next turn after opening (never on the turn you open), add any cards to any "
                "meld on the table, yours or anyone's."
            ),
            N_(
                "A set takes more of its rank or jokers; a run takes the next card at either end or a "
                "joker, up to 14 cards, never past an ace."
            ),
            N_(
                "Round 7 has no laying off. In rounds 1-6 you go out by discarding your last card, "
                "not by laying it off."
            ),
            N_(
                "Only melds of the round's contract can be on the table: no run in rounds 1 and 4, "
                "no set in round 3. Laying off on any other meld is not legal."
            ),
        ),
    ),
    (
        "R7",
        N_("Jokers after the opening"),
        (
            N_("A joker in a set stays there for the rest of the round."),
            N_(
                "If you opened on an earlier turn, on your turn you may swap a run's joker for the "
                "exact card it stands for (rank and suit). You must lay the freed joker off on a meld "
                "in the same turn: you never keep it."
            ),
        ),
    ),
    (
        "R8",
        N_("Turns and buying"),
        (
            N_(
                "A turn: draw the top stock card or the top discard; open or lay off if allowed; "
                "discard one card (except when going out in round 7)."
            ),
            N_("If the player whose turn it is takes the discard, nobody may buy it."),
            N_(
                "If they pass it, anyone else may ask to buy it; the one who would play soonest after "
                "them gets it, and takes the top stock card too as a penalty. Buying is not a turn."
            ),
            N_(
                "Another player may then buy the next discard the same way, but nobody buys two "
                "discards in a row. There is no limit on purchases."
            ),
        ),
    ),
    (
        "R9",
        N_("Stock exhausted"),
        (
            N_(
                "When the stock is empty, shuffle the discards (all but the top one) into a new stock."
            ),
            N_(
                "If a draw is still impossible, the round ends with no winner and everyone scores the "
                "cards in hand."
            ),
        ),
    ),
    (
        "R10",
        N_("Scoring"),
        (
            N_("The player who empties their hand scores 0."),
            N_(
                "Everyone else scores the cards left in hand: 2-10 face value, J Q K 10, A 15, "
                "joker 15. Cards on the table cost nothing. A♠ K♦ 4♥ = 29."
            ),
            N_("The exact-cut bonus (-50) is added to the cutter's score for the round."),
            N_(
                "Scores add up over the seven rounds; the lowest total wins, and tied lowest totals "
                "share the win."
            ),
        ),
    ),
    (
        "R11",
        N_("House rules: the table's own rule set"),
        (
            N_(
                "A game is played under one rule set, chosen when the game starts and kept with "
                "it. The default is liverpool: R1-R10 as written above. The presets are liverpool, "
                "contract, online, family and shanghai; a table may also write its own."
            ),
            N_(
                "A rule set may change only these settings: the fewest and most players; the packs "
                "by table size and the jokers; the deals (how many, 1 to 12, and for each the cards "
                "dealt, the contract with each meld's minimum size, and whether it is a whole-hand "
                "deal with no discard); whether an opening lays each meld at exactly its size or at "
                "least; the value of each card left in hand and of a joker; wild deuces; the natural "
                "cards a set and a run need, and whether wild cards may outnumber natural ones; the "
                "exact-cut bonus; laying off on the opening turn; going out by laying off; which "
                "wild cards may be swapped (never, a run's, any) and on the opening turn; where a "
                "freed joker goes; and buying, its limits a deal and a game, and its penalty cards."
            ),
            N_(
                "Everything else is the same at every table: seats clockwise, the deal passing left, "
                "the cutter on the dealer's right, lowest total wins and ties share, one card never "
                "counts twice, the ace never wraps, runs of one suit in one opening never touch, and "
                "buying is never a turn, nor does anyone buy two discards in a row."
            ),
            N_(
                "Wild deuces: a 2 is natural where it stands as itself (a set of 2s, its own place in "
                "a run of its suit) and wild anywhere else, like a joker. Left in hand it scores the "
                "2's value, wild or not."
            ),
            N_(
                "A rule set is refused, with every problem named, unless it is playable: 2 to 8 "
                "players with packs (1-4) for each table size; 1 to 12 deals, 1 to 5 melds a "
                "contract, a set of three to eight cards and a run of four to 14; every deal can "
                "be dealt and its contract fits the hand; values 0-100, a cut bonus of -100 to 0, "
                "0-3 penalty cards, buy limits 1-20."
            ),
            N_(
                "A verdict or a score that turns on a setting the rule set changes from liverpool "
                'cites R11 and names the rule set ("shanghai rules: a meld may not hold more wild '
                'cards than natural cards", "Smith family rules: a joker left in hand is 50").'
            ),
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
    "direction": ("R2", "R8"),
    "tie_break": ("R10",),
    "out_in_one_turn_bonus": ("R10",),
    "discard_draw_after_opening": ("R8",),
    "discard_wild": ("R8",),
    "freed_joker_to": ("R7",),
    "distinct_set_ranks": ("R5",),
    "ace": ("R4",),
    "wild_max": ("R5",),
    "wild_spacing": ("R4", "R6"),
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
        N_("May I lay off on the turn I open?"),
        N_("No: only from your next turn (the online and family rules allow it, R11)."),
        "R6",
    ),
    (
        N_("May I keep a joker I take back from a run?"),
        N_(
            "No: lay it off on a meld in the same turn (online rules: it goes into your hand, R11)."
        ),
        "R7",
    ),
    (
        N_("Is there a discard in round 7?"),
        N_("No: the whole hand goes down at once as exactly three runs."),
        "R5",
    ),
    (
        N_("Can a joker in a set be taken back?"),
        N_("No: it stays there for the rest of the round."),
        "R7",
    ),
    (
        N_("Are twos wild?"),
        N_("No: only jokers are wild (the shanghai rules make every 2 wild as well, R11)."),
        "R1",
    ),
    (
        N_("Do 3♠ 4♠ 5♠ 6♠ and 7♠ 8♠ 9♠ 10♠ make two runs?"),
        N_("No: they touch, so they count as one long run. Leave a gap or overlap them."),
        "R5",
    ),
    (
        N_("Two of us want the discard. Who gets it?"),
        N_("Whoever would play sooner after the player who passed it."),
        "R8",
    ),
    (N_("Can K A 2 3 be a run?"), N_("No: the ace is low or high, never round the corner."), "R4"),
)
