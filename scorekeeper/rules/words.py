"""The engine's words: every coded message's English text, in one place a translation can replace.

A message is a code (a member of a `Code` enum, such as `Refusal.SIZE` or `Why.RUN_GAP`) and its
named values (`{"size": 9, "jokers": 2}`). Its text lives here once, under the code's stable id
(`opening.size`), gettext style: `%(name)s` placeholders, and plural forms `Plural(singular,
plural, count)` wherever a value counts something. Values that are words themselves (a suit's
name, a list of cards joined by "or") are nested messages, rendered the same way.

`render(message)` writes a message in English as a sentence (its first letter a capital);
`render(message, gettext=..., ngettext=...)` writes it with any translation functions that take
Flask-Babel's arguments (`gettext(text, **values)`, `ngettext(singular, plural, num, **values)`).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


class Code(enum.Enum):
    """A message's code: an enum member whose value starts with its stable id (`layoff.run_gap`);
    an enum may add more to each member's value (a refusal its rule)."""

    def __init__(self, id: str, *_) -> None:
        self.id = id


@dataclass(frozen=True)
class Message:
    """A code and the named values its text shows."""

    code: Code
    values: Mapping[str, Any] = field(default_factory=dict)


def message(code: Code, **values: Any) -> Message:
    """`message(Refusal.SIZE, size=9)`: the code with its values."""
    return Message(code, values)


class Said(str):
    """A message's English words that still know their message: a name the engine hands on as
    text (`shanghai rules`, `Seat 3`) reads as that text anywhere a string does, and is said
    again in the language of any message it fills (`_shown`)."""

    __slots__ = ("said",)

    def __new__(cls, said: Message) -> Said:
        made = super().__new__(cls, words(said))
        made.said = said
        return made


class Named(Code):
    """How a verdict names the rules it applies (R11): `shanghai rules`, `Smith family rules`."""

    RULES = "named.rules"


def rules_named(name: str) -> Said:
    """`Smith family rules`: a rule set's name as a verdict says whose rules it applies."""
    return Said(message(Named.RULES, name=name))


@dataclass(frozen=True)
class Plural:
    """A text with a singular and a plural form, chosen by the value named `count` (shown as
    `%(num)s`)."""

    singular: str
    plural: str
    count: str


@dataclass(frozen=True)
class Text:
    """A message's text (one form, or plural forms), and the placeholders it fills with plural
    phrases counting one of its values (`cards`: `1 card`, `2 cards`)."""

    text: str | Plural
    counts: Mapping[str, Plural] = field(default_factory=dict)


@dataclass(frozen=True)
class Joining:
    """How a list reads: the words `between` its items and the `last` two's template."""

    between: str
    last: str


class Join(Code):
    """Lists of items, cards or nested messages, each with its joining words."""

    COMMA = "list.comma"
    SEMICOLON = "list.semicolon"
    OR = "list.or"
    AND = "list.and"
    EITHER = "list.either"
    EACH_AND = "list.each_and"
    PLUS = "list.plus"


class Name(Code):
    """A rank or a suit named in a sentence."""

    ACES = "ranks.aces"
    JACKS = "ranks.jacks"
    QUEENS = "ranks.queens"
    KINGS = "ranks.kings"
    NUMBERS = "ranks.numbers"
    SPADES = "suit.spades"
    HEARTS = "suit.hearts"
    DIAMONDS = "suit.diamonds"
    CLUBS = "suit.clubs"


class Part(Code):
    """A message set inside another: as a sentence of its own (its first letter a capital), or
    read on after the rule set's name it leads with (`NAMED`), that name said already."""

    SENTENCE = "part.sentence"
    AFTER_NAME = "part.after_name"


# How a text that names the rule set leads: `shanghai rules: ...`.
NAMED = "%(rules)s: "


def names_rules(said: Message, name: str) -> bool:
    """Whether the message leads with the rule set's name (`NAMED`, its `rules` that name)."""
    entry = TEXTS.get(said.code.id)
    text = entry.text if isinstance(entry, Text) else None
    return isinstance(text, str) and text.startswith(NAMED) and said.values.get("rules") == name


def joined(code: Join, items) -> Message:
    """A list, read with its joining words: `joined(Join.OR, ["4♠", "9♠"])` is `4♠ or 9♠`."""
    return Message(code, {"items": tuple(items)})


def ranks(rank: int) -> Message:
    """`7s`, `aces`, `kings`: a set's rank in a sentence."""
    named = {1: Name.ACES, 11: Name.JACKS, 12: Name.QUEENS, 13: Name.KINGS}
    return Message(named.get(rank, Name.NUMBERS), {"rank": rank})


def suit(letter: str) -> Message:
    """`spades`: a suit (`S`, `H`, `D`, `C`) in a sentence."""
    named = {"S": Name.SPADES, "H": Name.HEARTS, "D": Name.DIAMONDS, "C": Name.CLUBS}
    return Message(named[letter])


def _cards(noun: str, count: str) -> Plural:
    """`1 card`, `2 cards` (or any noun taking an s) counting the value `count`."""
    return Plural(f"%(num)s {noun}", f"%(num)s {noun}s", count)


_NATURAL_CARDS = "natural card"
_JOINT_LIMIT = "each card in one meld, and still keep a card to discard."
_ONCE = "a run holds each card once"

TEXTS: dict[str, Text | Joining] = {
    # Lists, ranks and suits.
    Join.COMMA.id: Joining(", ", "%(head)s, %(last)s"),
    Join.SEMICOLON.id: Joining("; ", "%(head)s; %(last)s"),
    Join.OR.id: Joining(", ", "%(head)s or %(last)s"),
    Join.AND.id: Joining(", ", "%(head)s and %(last)s"),
    Join.EITHER.id: Joining(" or ", "%(head)s or %(last)s"),
    Name.ACES.id: Text("aces"),
    Name.JACKS.id: Text("jacks"),
    Name.QUEENS.id: Text("queens"),
    Name.KINGS.id: Text("kings"),
    Name.NUMBERS.id: Text("%(rank)ss"),
    Part.SENTENCE.id: Text("%(said)s"),
    Part.AFTER_NAME.id: Text("%(said)s"),
    Name.SPADES.id: Text("spades"),
    Name.HEARTS.id: Text("hearts"),
    Name.DIAMONDS.id: Text("diamonds"),
    Name.CLUBS.id: Text("clubs"),
    # R5: why a hand cannot go down (opening/search.py).
    "opening.size": Text(
        "%(contract)s needs at least %(least)s cards, one of them kept to discard: "
        "this hand has %(cards)s.",
        {"cards": _cards("card", "size")},
    ),
    "opening.naturals": Text(
        "%(contract)s needs %(needed)s: this hand has %(naturals)s.",
        {"naturals": _cards(_NATURAL_CARDS, "naturals")},
    ),
    "opening.naturals_needed": Text("at least %(least)s natural cards (%(each)s)"),
    "opening.set_naturals": Text("%(need)s a set"),
    "opening.run_naturals": Text("%(need)s a run"),
    "opening.sets": Text(
        "%(no_sets)s can be made from these %(size)s cards: a set is %(min_set)s cards of one "
        "rank with at least %(set_naturals)s, and the hand has %(jokers)s.",
        {
            "no_sets": Plural("No set", "No %(num)s sets", "sets"),
            "set_naturals": _cards(_NATURAL_CARDS, "set_naturals"),
            "jokers": _cards("joker", "jokers"),
        },
    ),
    "opening.runs": Text(
        "No run can be made from these %(size)s cards: a run is %(min_run)s cards in a row of "
        "one suit with at least %(run_naturals)s, jokers filling gaps.",
        {"run_naturals": _cards(_NATURAL_CARDS, "run_naturals")},
    ),
    "opening.suits": Text(
        "The naturals are in %(suits)s suits, but round %(round)s's %(runs)s can hold at most "
        "%(run_suits)s and every card must be used.",
        {"runs": _cards("run", "runs"), "run_suits": _cards("suit", "runs")},
    ),
    "opening.whole": Text(
        "There is no way to split these %(size)s cards into %(runs)s runs of at least "
        "%(min_run)s cards that use the whole hand."
    ),
    "opening.joint": Text(
        "There is no way to make %(contract)s from these %(size)s cards at once, " + _JOINT_LIMIT
    ),
    # R6: why cards do not fit a meld on the table (layoff_reasons.py).
    "layoff.every_reading": Text(
        "%(laid)s does not fit %(meld)s whichever way it is read: %(whys)s"
    ),
    "layoff.as_set": Text("as a set, %(why)s"),
    "layoff.as_run": Text("as a run, %(why)s"),
    "layoff.read_as": Text("read as %(readings)s, %(why)s"),
    "layoff.reading_jokers": Text(
        Plural("%(span)s (joker %(faces)s)", "%(span)s (jokers %(faces)s)", "jokers")
    ),
    "layoff.set_rank": Text("%(card)s does not belong on %(meld)s: %(takes)s"),
    "layoff.set_takes_jokers": Text("a set of %(ranks)s takes only more %(ranks)s or jokers"),
    "layoff.set_takes_wild": Text("a set of %(ranks)s takes only more %(ranks)s or wild cards"),
    "layoff.set_declared": Text(
        "%(card)s is declared as %(face)s, but %(meld)s is a set of %(ranks)s"
    ),
    "layoff.run_suit": Text("%(card)s cannot go on %(meld)s: a run is all %(suit)s"),
    "layoff.run_declared": Text(
        "%(card)s is declared as %(face)s, but %(meld)s is a run of %(suit)s"
    ),
    "layoff.run_too_long": Text(
        "a run holds at most %(most)s cards (A 2 … K A); %(meld)s would have %(size)s"
    ),
    "layoff.run_too_long_wrap": Text(
        "where the ace wraps a run holds each rank once, at most %(most)s cards; %(meld)s would "
        "have %(size)s"
    ),
    "layoff.run_stands_for": Text(
        "%(card)s stands for %(face)s, which %(meld)s already has: " + _ONCE
    ),
    "layoff.run_has_joker": Text(
        "%(card)s is already in %(meld)s as a joker: replace the joker instead (R7)"
    ),
    "layoff.run_has_wild": Text(
        "%(card)s is already in %(meld)s as the wild %(slot)s: replace the wild %(slot)s "
        "instead (R7)"
    ),
    "layoff.run_has_card": Text("%(card)s is already in %(meld)s: " + _ONCE),
    "layoff.run_same_place": Text(
        "%(twin)s and %(card)s both take the place of %(face)s: " + _ONCE
    ),
    "layoff.run_ace_twice": Text(
        "%(card)s is laid twice, but the run has room for only one more ace"
    ),
    "layoff.run_twice": Text("%(card)s is laid twice: " + _ONCE),
    "layoff.run_no_room": Text("%(cards)s need more places than the run has"),
    "layoff.run_extends": Text("%(cards)s does not extend %(meld)s"),
    "layoff.run_past_top_ace": Text(
        "nothing extends past an ace: %(card)s cannot go after the A at its top (%(span)s)"
    ),
    "layoff.run_past_bottom_ace": Text(
        "nothing extends past an ace: %(card)s cannot go before the A at its bottom (%(span)s)"
    ),
    "layoff.run_gap": Text(
        Plural(
            "%(cards)s leaves a gap on %(meld)s: %(missing)s would be missing%(fill)s%(ace)s%(ends)s",
            "%(cards)s leave a gap on %(meld)s: %(missing)s would be missing%(fill)s%(ace)s%(ends)s",
            "laid",
        )
    ),
    "layoff.gap_jokers": Text(
        Plural(
            " (%(num)s joker can fill only %(num)s)",
            " (%(num)s jokers can fill only %(num)s)",
            "free",
        )
    ),
    "layoff.gap_wild": Text(
        Plural(
            " (%(num)s wild card can fill only %(num)s)",
            " (%(num)s wild cards can fill only %(num)s)",
            "free",
        )
    ),
    "layoff.gap_starts_with_ace": Text(
        "; the run already starts with its ace, so %(card)s could go only after the K"
    ),
    "layoff.gap_ends_with_ace": Text(
        "; the run already ends with its ace, so %(card)s could go only before the 2"
    ),
    "layoff.gap_ends": Text("; the next card at either end is %(ends)s"),
    # Melds, lay-offs, buying, scoring, cards.
    # R4: a meld's reading (reading.py), and why cards are no meld (melds.py).
    Join.EACH_AND.id: Joining(" and ", "%(head)s and %(last)s"),
    Join.PLUS.id: Joining(" + ", "%(head)s + %(last)s"),
    "reading.jokers": Text(
        Plural("%(cards)s (joker %(faces)s)", "%(cards)s (jokers %(faces)s)", "jokers")
    ),
    "reading.wilds": Text("%(cards)s (%(parts)s)"),
    "reading.wild_as": Text("%(card)s wild as %(face)s"),
    "reading.joker_as": Text("joker %(face)s"),
    "meld.no_suit": Text("%(card)s has no suit: a card on the table is written like 7♠"),
    "meld.natural_deuce": Text(
        "%(card)s declares a place, but under %(rules)s a 2 is a natural card: only a joker "
        "stands for another card"
    ),
    "meld.no_cards": Text("a meld needs cards; none were given"),
    "meld.no_natural": Text("%(cards)s has no natural card: a meld needs at least one"),
    "meld.too_few": Text(
        "a meld needs at least %(min_set)s cards (a set) or %(min_run)s (a run); this has %(size)s"
    ),
    "meld.either_kind": Text("as a set, %(set)s; as a run, %(run)s"),
    "meld.mixes_ranks": Text("%(cards)s mixes ranks: a set is cards of one rank"),
    "meld.mixes_suits": Text("%(cards)s mixes suits: a run is one suit"),
    "meld.mixes_both": Text(
        "%(cards)s mixes ranks and suits: a set is one rank and a run is one suit"
    ),
    "meld.wild_at_most_natural": Text("a meld may not hold more wild cards than natural cards"),
    "meld.too_wild": Text(
        "%(rules)s: %(limit)s; %(cards)s has %(wild)s wild and %(natural)s natural"
    ),
    "meld.too_few_naturals": Text("%(rules)s: %(needed)s; %(cards)s has %(naturals)s"),
    "meld.set_needs": Text("a set needs %(count)s natural cards"),
    "meld.run_needs": Text("a run needs %(count)s natural cards"),
    "meld.and_set_needs": Text("%(first)s and a set %(count)s"),
    "meld.and_run_needs": Text("%(first)s and a run %(count)s"),
    "meld.set_declared": Text(
        "%(card)s is declared as %(face)s, but %(cards)s is a set of %(ranks)s"
    ),
    "meld.set_too_few": Text("a set needs at least %(least)s cards; this has %(size)s"),
    "meld.not_a_set": Text("%(cards)s is not a set"),
    "meld.run_declared": Text("%(card)s is declared as %(face)s, but %(cards)s is in %(suit)s"),
    "meld.run_too_few": Text("a run needs at least %(least)s cards; this has %(size)s"),
    "meld.run_too_long": Text("a run holds at most %(most)s cards (A 2 … K A); this has %(size)s"),
    "meld.run_stands_for": Text(
        "%(card)s stands for %(face)s, which %(cards)s already has: " + _ONCE
    ),
    "meld.run_twice": Text("%(cards)s has %(card)s twice: " + _ONCE),
    "meld.run_aces": Text(
        "%(cards)s has %(aces)s aces: only a 14-card run A 2 … K A has an ace at each end"
    ),
    "meld.run_wraps": Text(
        "%(cards)s wraps around the ace: an ace is low (A 2 3 4) or high (J Q K A), never both"
    ),
    "meld.run_gap": Text(
        "%(cards)s is not consecutive: %(low)s–%(high)s needs %(width)s cards and it has "
        "%(size)s; %(wild)s fills only one missing card"
    ),
    "meld.run_too_long_wrap": Text(
        "where the ace wraps a run holds each rank once, at most %(most)s cards; this has %(size)s"
    ),
    "meld.run_aces_wrap": Text(
        "%(cards)s has two aces: where the ace wraps a run holds each rank once"
    ),
    "meld.any_suit_twice": Text(
        "%(cards)s has two %(rank)s: a run in any suits holds each rank once"
    ),
    "meld.wild_spacing": Text(
        "%(rules)s: two wild cards of a run stand at least %(spacing)s apart; %(cards)s has "
        "%(apart)s between two",
        {"spacing": _cards(_NATURAL_CARDS, "spacing"), "apart": _cards(_NATURAL_CARDS, "apart")},
    ),
    "meld.a_joker": Text("a joker"),
    "meld.a_wild_card": Text("a wild card"),
    "meld.legal": Text("%(cards)s is a legal %(kinds)s, read as %(readings)s"),
    "meld.kind_set": Text("set"),
    "meld.kind_run": Text("run"),
    "meld.kind_any_suit_run": Text("run in any suits"),
    "meld.ace_wraps": Text("the ace wraps, so Q K A 2 is a run"),
    "meld.wild_deuce": Text("the %(card)s is wild here, standing for %(face)s"),
    "meld.wild_deuces": Text("%(rules)s: %(parts)s."),
    "meld.house_first": Text("%(rules)s: %(settings)s. %(reason)s"),
    # R6 laying off and R7 replacing a joker (table.py).
    "table.laid_off": Text("lay it off this turn"),
    "table.laid_in_run": Text("lay it off on a run this turn"),
    "table.to_hand": Text("your hand"),
    "table.layoff_on_opening_turn": Text("you may lay off on the turn you open"),
    "table.go_out_by_layoff": Text("you may go out by laying off your last card"),
    "table.joker_swap": Text(
        "a set's joker may be swapped too, for a natural card of the set's rank"
    ),
    "table.wild_deuces": Text("a 2 is wild, and a wild 2 is swapped like a joker"),
    "table.swap_on_opening_turn": Text("you may replace a joker on the turn you open"),
    "table.freed_joker": Text("a freed joker goes into your hand"),
    "table.freed_joker_to": Text("a freed joker is laid off on a run"),
    "table.the_joker": Text("the joker"),
    "table.the_wild": Text("the wild %(card)s"),
    "table.joker": Text("joker"),
    "table.joker_or_wild": Text("joker or wild 2"),
    "table.sets": Text("sets"),
    "table.runs": Text("runs"),
    "table.not_legal": Text("The meld on the table, %(meld)s, is not legal: %(problem)s"),
    "table.only_kind": Text(
        "Round %(round)s's contract is %(contract)s, so only %(kinds)s are on the table: "
        "%(meld)s is a %(kind)s, which no player can have put down this round"
    ),
    "table.no_cards": Text("name at least one card to lay off"),
    "table.no_layoff_round": Text(
        "Round %(round)s has no laying off: the whole hand goes down at once"
    ),
    "table.opened_layoff": Text(
        "You opened on this turn, so you may lay off only from your next turn on"
    ),
    "table.out_by_layoff": Text(
        "You go out by discarding your last card, so you may not lay it off"
    ),
    "table.too_wild": Text(
        "%(rules)s: %(limit)s; %(cards)s would hold %(wild)s wild and %(natural)s natural"
    ),
    "table.can_go": Text("%(cards)s can go on %(meld)s, making %(reading)s"),
    "table.natural_only": Text("Only a natural card can replace a joker"),
    "table.no_swap_round": Text(
        "Round %(round)s has no turn after an opening: the whole hand goes down at once and "
        "ends the round, so no joker on the table can be replaced"
    ),
    "table.no_swaps": Text("%(rules)s: no joker on the table may be swapped"),
    "table.opened_swap": Text(
        "You opened on this turn: only a player who opened on an earlier turn may replace a joker"
    ),
    "table.nothing_to_swap": Text("%(meld)s has no %(what)s to replace"),
    "table.set_joker_stays": Text(
        "A joker in a set stays there for the rest of the round; %(meld)s is a set"
    ),
    "table.not_joker_face": Text(
        "%(card)s is not what a joker stands for in %(meld)s: the joker is %(faces)s"
    ),
    "table.not_wild_face": Text(
        "%(card)s is not what a wild card stands for in %(meld)s: %(stood)s"
    ),
    "table.wild_is": Text("%(wild)s is %(face)s"),
    "table.freed_to_hand": Text("the freed %(freed)s goes into your hand"),
    "table.freed_laid_off": Text(
        "the freed %(freed)s must be laid off on a meld on the table this turn, never kept in hand"
    ),
    "table.freed_in_run": Text(
        "the freed %(freed)s must be laid off on a run on the table this turn, never kept in hand"
    ),
    "table.replaces": Text("%(card)s replaces %(wild)s in %(meld)s; %(where)s"),
    # R1: a card's text that is no card (cards.py, errors.py), and copies the packs do not hold.
    "card.not_a_card": Text("'%(token)s' (card %(position)s) is not a card: %(hint)s"),
    "card.hint": Text(
        "write a rank (A 2-10 J Q K) and a suit (♠ ♥ ♦ ♣ or S H D C), or JK for a joker"
    ),
    "card.brackets": Text(
        "brackets are not part of the notation; write the card alone, like 7♠ or JK"
    ),
    "card.empty": Text("it is empty"),
    "card.declares_only": Text("only a joker or a 2 can be declared with '='"),
    "card.no_suit": Text("it has no suit; write e.g. %(rank)s♠"),
    "card.not_text": Text("cards are written as text"),
    "card.too_many": Text("%(cards)s cards is more than the %(limit)s any one entry may hold"),
    "card.declares_nothing": Text("it declares nothing after '='"),
    "card.joker_as_joker": Text("a joker cannot stand for a joker"),
    "card.deuce_as_joker": Text("a 2 cannot stand for a joker"),
    "card.declares_twice": Text("it declares more than one position"),
    "card.declares_no_card": Text("'%(declared)s' is not a card or a rank"),
    "card.joker_declaration": Text(
        "%(what)s; a joker's position is a card like %(wild)s=7♠ or a rank like %(wild)s=7, "
        "or write %(wild)s alone"
    ),
    "card.deuce_declaration": Text(
        "%(what)s; a wild 2's position is a card like %(wild)s=7♠ or a rank like %(wild)s=7, "
        "or write %(wild)s alone"
    ),
    "card.over_exact": Text(
        "%(count)s × %(card)s, but a %(packs)s-pack game holds only %(packs)s of each card"
    ),
    "card.over_rank": Text(
        "%(count)s cards of rank %(rank)s, but a %(packs)s-pack game holds only %(held)s"
    ),
    "card.no_jokers": Text(
        "%(laid)s, but this game is played without jokers", {"laid": _cards("joker", "jokers")}
    ),
    "card.over_jokers": Text(
        "%(laid)s, but this game has only %(held)s (%(packs_held)s)",
        {"laid": _cards("joker", "jokers"), "packs_held": _cards("pack", "packs")},
    ),
    # R2 seats (seating.py) and R3 contracts (contracts.py).
    "seat.seat": Text("seat"),
    "seat.first_dealer": Text("the first dealer"),
    "seat.not_a_number": Text("%(what)s must be a seat number from 0 to %(last)s, not %(seat)s"),
    "seat.missing": Text("%(what)s %(seat)s does not exist: seats are 0 to %(last)s"),
    "contract.sets": Text(Plural("%(num)s set", "%(num)s sets", "count")),
    "contract.runs": Text(Plural("%(num)s run", "%(num)s runs", "count")),
    "contract.sets_of": Text(
        Plural("%(num)s set of %(size)s", "%(num)s sets of %(size)s", "count")
    ),
    "contract.runs_of": Text(
        Plural("%(num)s run of %(size)s", "%(num)s runs of %(size)s", "count")
    ),
    "contract.any_suit_runs": Text(
        Plural("%(num)s run in any suits", "%(num)s runs in any suits", "count")
    ),
    "contract.any_suit_runs_of": Text(
        Plural(
            "%(num)s run of %(size)s in any suits", "%(num)s runs of %(size)s in any suits", "count"
        )
    ),
    "contract.whole_hand": Text("%(contract)s using the whole hand, no discard"),
    # A rule set's share code (sharing.py).
    "share.not_text": Text("is not a share code: it must be text"),
    "share.empty": Text("the share code is empty"),
    "share.too_long": Text(
        "the share code is too long: a rule set's code is under %(most)s characters"
    ),
    "share.damaged": Text("the share code is damaged: copy the whole link again"),
    "share.too_big": Text("the share code holds more than a rule set: at most %(most)s characters"),
    "share.cut_short": Text("the share code is cut short or damaged: copy the whole link again"),
    "share.no_text": Text("the share code is damaged: it does not hold text"),
    "share.no_rules": Text("the share code does not hold a rule set"),
    # R8 the discard pile under R12.3's settings (discards.py).
    "discard.take": Text(
        "On your turn you may take the top discard instead of the top card of the stock"
    ),
    "discard.take_down": Text(
        "A player who has gone down may still take the top discard on their turn"
    ),
    "discard.no_take_down": Text(
        "%(rules)s: a player who has gone down draws only from the stock, never the top discard"
    ),
    "discard.throw": Text("%(card)s may be discarded: any card may end a turn"),
    "discard.throw_wild": Text(
        "%(card)s is a wild card, and a wild card may be discarded like any other card"
    ),
    "discard.no_throw_wild": Text(
        "%(rules)s: a wild card is never discarded, and %(card)s is a wild card"
    ),
    # R8 buying a passed discard (buying.py).
    "buy.seat": Text("Seat %(number)s"),
    "buy.active": Text("the active player"),
    "buy.buyer": Text("a buyer"),
    "buy.last_buyer": Text("the last buyer"),
    "buy.down": Text("a seat that has gone down"),
    "buy.gone_down": Text(
        "%(seat)s has gone down, and under %(rules)s a player who has gone down takes no discard"
    ),
    "buy.no_buying": Text(
        "%(rules)s have no buying: a player may instead take several discards from the top, "
        "plus one stock card for each extra"
    ),
    "buy.no_buying_top_only": Text(
        "%(rules)s have no buying, and a player takes only the top discard, never several"
    ),
    "buy.twice_in_a_row": Text("%(seat)s took the previous discard and may not take two in a row"),
    "buy.limit_deal": Text(
        "%(seat)s has bought %(times)s this deal: %(rules)s allow %(limit)s a deal"
    ),
    "buy.limit_game": Text(
        "%(seat)s has bought %(times)s this game: %(rules)s allow %(limit)s a game"
    ),
    "buy.twice": Text("twice"),
    "buy.times": Text(Plural("once", "%(num)s times", "count")),
    "buy.nobody_asked": Text("Nobody asked to buy the discard"),
    "buy.skipped_this": Text("%(why)s, so nobody buys this one"),
    "buy.skipped_all": Text("%(whys)s, so nobody buys it"),
    "buy.passed": Text("It is %(seat)s's turn and %(seat)s passed the discard, so nobody buys it"),
    "buy.no_penalty": Text("takes no penalty card"),
    "buy.penalty": Text(
        Plural(
            "takes the top stock card as a penalty",
            "takes the top %(num)s stock cards as a penalty",
            "cards",
        )
    ),
    "buy.gets": Text("%(seat)s gets the discard and %(penalty)s"),
    "buy.gets_house": Text("%(gets)s (%(rules)s)"),
    "buy.after_skipped": Text("%(whys)s, so %(gets)s"),
    "buy.plays_before": Text(
        "%(buyer)s plays before %(others)s after %(active)s, whose turn it is, so %(gets)s"
    ),
    # R10 scoring (scoring.py).
    "score.an_ace": Text("an ace"),
    "score.an_eight": Text("an 8"),
    "score.a_jack": Text("a jack"),
    "score.a_queen": Text("a queen"),
    "score.a_king": Text("a king"),
    "score.a_joker": Text("a joker"),
    "score.a_card": Text("a %(key)s"),
    "score.left_in_hand": Text("%(card)s left in hand is %(value)s"),
    "score.values": Text("%(rules)s: %(said)s"),
    "score.no_points": Text("no points given: enter what the hand counts"),
    "score.not_whole": Text("the points must be a whole number, not %(points)s"),
    "score.out_of_range": Text(
        "%(points)s points cannot be: a hand counts 0 to %(limit)s with these rules"
    ),
    "score.out_scores_zero": Text("the player who went out scores 0, not %(points)s (R10)"),
    "score.below_least": Text(
        "%(points)s points cannot be: a player who did not go out holds at least one card, "
        "worth at least %(lowest)s (%(rule)s)"
    ),
    "score.out_seat": Text("the player out must be one of seats 0 to %(last)s, not %(out)s"),
    "score.no_seat": Text("leftover cards for seat %(seat)s, which does not exist"),
    "score.both_given": Text("give the cards left or their points, not both"),
    "score.out_holds": Text("the player who went out holds no cards (R10)"),
    "score.holds_one": Text("every player who did not go out still holds at least one card (R10)"),
    "score.nobody_out": Text("nobody went out, so every player still holds cards (R9)"),
    "score.one_turn_nobody_out": Text(
        "nobody went out, so nobody went down and out in one turn (R12.3)"
    ),
    "score.one_turn_no_bonus": Text(
        "%(rules)s give nothing for going down and out in one turn (R12.3)"
    ),
    # Openings and rule sets.
    # R11's citing: the deal a verdict rests on, as the rule set changes it (citing.py).
    "citing.house": Text("%(rules)s: %(said)s. %(reason)s"),
    "citing.house_named": Text("%(rules)s: %(said)s; %(reason)s"),
    "citing.new_deal": Text("deal %(number)s is %(contract)s, %(laid)s"),
    "citing.contract": Text("deal %(number)s's contract is %(contract)s"),
    "citing.laid": Text("deal %(number)s is %(laid)s"),
    "citing.all_at_once": Text("laid all at once, with no discard"),
    "citing.kept": Text("a card kept to discard"),
    "citing.not_all_at_once": Text("not laid all at once, so a card is kept to discard"),
    # R5: an opening laid, legal or not, and why (opening/laid.py).
    "laid.left_not_whole": Text("the cards left in hand must be a whole number, not %(left)s"),
    "laid.left_negative": Text("%(left)s cards left in hand: it cannot be negative"),
    "laid.sets": Text(Plural("%(num)s set", "%(num)s sets", "count")),
    "laid.runs": Text(Plural("%(num)s run", "%(num)s runs", "count")),
    "laid.any_suit_runs": Text(
        Plural("%(num)s run in any suits", "%(num)s runs in any suits", "count")
    ),
    "laid.plus": Joining(" + ", "%(head)s + %(last)s"),
    "laid.count": Text(
        "Round %(round)s needs %(contract)s laid together; you laid %(laid)s, and %(why)s",
        {"laid": Plural("%(num)s meld", "%(num)s melds", "laid")},
    ),
    "laid.piecemeal": Text("an opening is never piecemeal"),
    "laid.extra": Text("no extra melds are allowed"),
    "laid.meld": Text("%(meld)s: %(reason)s"),
    "laid.kinds": Text("Round %(round)s needs %(contract)s; you laid %(laid)s"),
    "laid.touch": Text(
        "%(one)s and %(two)s touch in one suit, so they count as one run, not two%(every)s"
    ),
    "laid.every_reading": Text(", whichever way the jokers are read"),
    "laid.unmatched": Text("The melds cannot be matched to %(contract)s, each meld at its size"),
    "laid.set_exactly": Text(
        "A set in the opening is exactly %(sizes)s cards (R5); %(meld)s has %(size)s"
    ),
    "laid.run_exactly": Text(
        "A run in the opening is exactly %(sizes)s cards (R5); %(meld)s has %(size)s"
    ),
    "laid.set_at_least": Text(
        "A set in the opening is at least %(least)s cards; %(meld)s has %(size)s"
    ),
    "laid.run_at_least": Text(
        "A run in the opening is at least %(least)s cards; %(meld)s has %(size)s"
    ),
    "laid.left_in_whole_hand": Text(
        "Round %(round)s lays the whole hand at once with no discard, but %(left)s would be left",
        {"left": _cards("card", "left")},
    ),
    "laid.none_left": Text(
        "After opening you must still hold a card for the discard that ends the turn; none "
        "would be left"
    ),
    "laid.legal": Text("A legal opening for round %(round)s (%(contract)s): %(melds)s%(left)s"),
    "laid.set": Text("set %(cards)s"),
    "laid.run": Text("run %(cards)s"),
    "laid.no_card_left": Text(", with no card left"),
    "laid.kept": Text(", with %(left)s left for the discard", {"left": _cards("card", "left")}),
    "laid.house": Text("%(house)s %(reason)s"),
    "laid.above_least": Text("%(rules)s allow opening melds above 3 and 4 cards."),
    "laid.longer": Text("%(rules)s allow opening melds longer than the contract's sizes."),
    "laid.same_rank": Text(
        "%(rules)s: the sets of one contract are of different ranks, and %(sets)s are of one rank"
    ),
    "laid.wild_max": Text(
        "%(rules)s: a meld of the opening holds at most %(most)s; %(meld)s has %(wild)s",
        {"most": _cards("wild card", "most"), "wild": _cards("wild card", "wild")},
    ),
    "laid.ace_wraps": Text("%(rules)s: the ace wraps, so Q K A 2 is a run."),
    "laid.no_wild": Text(
        "%(rules)s: the melds of this deal's opening hold no wild card; %(meld)s needs %(wild)s",
        {"wild": _cards("wild card", "wild")},
    ),
    # R1: a hand the opening search cannot count (opening/search.py).
    "search.not_a_card": Text("card %(position)s (%(card)s) is not a card"),
    "search.no_suit": Text(
        "'%(card)s' (card %(position)s) has no suit: a hand holds cards like 7♠"
    ),
    "search.no_rank": Text(
        "'%(card)s' (card %(position)s) is not a card: a hand holds cards like 7♠"
    ),
    "search.copies": Text("more copies than the packs hold"),
    # R5: can this hand go down, and how (opening/solver.py).
    "solver.too_many": Text(
        "%(size)s cards is more than the %(limit)s a hand may hold for the opening check"
    ),
    "solver.too_many_ways": Text(
        "These %(cards)s can be laid out in too many ways for the referee to check in time "
        "(%(contract)s, %(rules)s): it gives no verdict rather than a wrong one. Look for the "
        "melds at the table, or ask again with the cards of the melds you have in mind.",
        {"cards": _cards("card", "size")},
    ),
    "solver.found": Text(
        "This hand can go down with %(contract)s: %(melds)s, keeping %(kept)s for the discard.",
        {"kept": _cards("card", "kept")},
    ),
    "solver.found_whole": Text("The whole hand goes down as %(contract)s: %(melds)s."),
    "solver.wild_deuces": Text("%(rules)s: %(deuces)s. %(reason)s"),
    "solver.wild_deuce": Text("the %(card)s is wild here, standing for %(stands_for)s"),
    "solver.size_whole": Text(
        "%(contract)s needs at least %(least)s cards: this hand has %(cards)s.",
        {"cards": _cards("card", "size")},
    ),
    "solver.house_naturals": Text(
        "%(rules)s: %(needed)s, and these %(size)s cards cannot make %(contract)s with that "
        "many natural cards."
    ),
    "solver.wild_at_most_natural": Text(
        "%(rules)s: %(limit)s, and these %(size)s cards cannot make %(contract)s that way."
    ),
    "solver.same_rank": Text(
        "%(rules)s: the sets of one contract are of different ranks, and these %(size)s cards "
        "make %(contract)s only with two sets of one rank."
    ),
    "solver.wild_max": Text(
        "%(rules)s: a meld of the opening holds at most %(most)s, and these %(size)s cards "
        "cannot make %(contract)s that way.",
        {"most": _cards("wild card", "most")},
    ),
    "solver.wild_spacing": Text(
        "%(rules)s: two wild cards of a run stand at least %(spacing)s apart, and these "
        "%(size)s cards cannot make %(contract)s that way.",
        {"spacing": _cards(_NATURAL_CARDS, "spacing")},
    ),
    "solver.whole": Text(
        "There is no way to lay these %(size)s cards as %(contract)s using the whole hand."
    ),
    # R11: the problems that keep a rule set from being read or played, each under its place
    # in the document (document.py, ruleset/schema.py), and a bad round, table or preset.
    "reader.unknown_close": Text("is not a setting: did you mean %(close)s?"),
    "reader.unknown_listed": Text("is not a setting: the settings here are %(keys)s"),
    "reader.unknown": Text("is not a setting of a rule set"),
    "reader.big_number": Text("a number of more than 12 digits"),
    "reader.a_list": Text("a list"),
    "reader.an_object": Text("an object"),
    "reader.a_type": Text("a %(type)s"),
    "reader.more": Text(
        Plural(
            "and %(num)s more problem not listed here",
            "and %(num)s more problems not listed here",
            "more",
        )
    ),
    "reader.not_object": Text("must be an object with %(keys)s, not %(value)s"),
    "reader.range": Text("%(first)s to %(last)s"),
    "reader.missing_whole": Text("is missing: a whole number from %(range)s"),
    "reader.not_whole": Text("must be a whole number from %(range)s, not %(value)s"),
    "reader.out_of_range": Text("must be from %(range)s, not %(value)s"),
    "reader.not_flag": Text("must be true or false, not %(value)s"),
    "reader.missing_choice": Text("is missing: one of %(choices)s"),
    "reader.not_choice": Text("must be one of %(choices)s, not %(value)s"),
    # A field of a question or a score sent to the JSON API.
    "reader.absent": Text("'%(name)s' is missing"),
    "reader.not_kind": Text("'%(name)s' must be %(kinds)s, not %(value)s"),
    "reader.whole_number": Text("a whole number"),
    "reader.text": Text("text"),
    "reader.true_or_false": Text("true or false"),
    "reader.the_number": Text("the number %(number)s"),
    # A part of an export document (games, rounds, players…) that is not what it must be.
    "reader.must_object": Text("must be an object"),
    "reader.lacks": Text("lacks %(fields)s"),
    "reader.unknown_fields": Text(
        Plural("has unknown field %(fields)s", "has unknown fields %(fields)s", "count")
    ),
    "reader.must_list": Text("must be a list"),
    "reader.must_whole": Text("must be a whole number"),
    "reader.digits": Text("a number of %(digits)s digits"),
    "reader.must_flag": Text("must be true or false"),
    "reader.must_text": Text("must be text"),
    "reader.longer": Text("is longer than %(limit)s characters"),
    "reader.at": Text("%(path)s: %(problem)s"),
    "reader.refusal": Text(
        "the rule set cannot be used (%(count)s): %(listed)s%(more)s",
        {"count": Plural("%(num)s problem", "%(num)s problems", "count")},
    ),
    "schema.too_long": Text("a rule set is at most %(most)s characters of JSON"),
    "schema.not_json": Text("is not JSON: %(error)s at line %(line)s column %(column)s"),
    "schema.huge_number": Text("is not a rule set: it holds a number thousands of digits long"),
    "schema.too_deep": Text("is not a rule set: its JSON is nested far too deep"),
    "schema.version": Text("must be %(versions)s, the versions there are, not %(value)s"),
    "schema.newer": Text(
        "is a setting of version %(version)s: a version %(first)s document leaves it out"
    ),
    "schema.name": Text('must be a name of 1 to %(most)s characters, like "Smith family"'),
    "schema.name_long": Text("must be at most %(most)s characters, not %(size)s"),
    "schema.name_control": Text("must not hold control characters"),
    "schema.packs": Text('must be a list of {"up_to": players, "packs": packs}, not %(value)s'),
    "schema.packs_steps": Text("has at most %(most)s steps, not %(size)s"),
    "schema.packs_order": Text("each step must seat more players than the last"),
    "schema.deals": Text("must be a list of 1 to %(most)s deals, not %(value)s"),
    "schema.contract": Text(
        'must be a list of 1 to %(most)s melds like {"kind": "set", "size": 3}, not %(value)s'
    ),
    "schema.contract_missing": Text(
        'must be a list of 1 to %(most)s melds like {"kind": "set", "size": 3}, it is missing'
    ),
    "schema.players_order": Text(
        "the most players (%(most)s) cannot be fewer than the fewest (%(fewest)s)"
    ),
    "schema.packs_short": Text(
        "gives no number of packs for %(sizes)s players: the last step is up to %(covered)s"
    ),
    "schema.no_stock": Text(
        "%(players)s players × %(cards)s cards + the upcard is %(needed)s, but a game of "
        "%(players)s holds only %(pack)s cards: no stock is left%(nor)s"
    ),
    "schema.nor": Text(" (nor for %(others)s)"),
    "schema.too_small": Text(
        "%(held)s cards (%(dealt)s dealt + the draw) cannot hold %(contract)s%(discard)s "
        "(%(needed)s cards), %(why)s"
    ),
    "schema.and_discard": Text(" and a discard"),
    "schema.no_buying": Text("and buying is not allowed"),
    "schema.even_with": Text(
        "even with %(buys)s of 2 cards each",
        {"buys": Plural("%(num)s buy", "%(num)s buys", "buys")},
    ),
    "schema.wrapped_run": Text(
        "must be at most %(most)s when the ace wraps (ace: wrap), a run holding each rank "
        "once, not %(size)s"
    ),
    "schema.set_naturals": Text(
        "a set of %(size)s with at most %(cap)s (wild_max) needs %(naturals)s of one rank, "
        "and a game of %(players)s players has only %(held)s (%(packs)s)",
        {
            "cap": Plural("%(num)s wild card", "%(num)s wild cards", "cap"),
            "naturals": _cards(_NATURAL_CARDS, "naturals"),
            "packs": _cards("pack", "packs"),
        },
    ),
    "schema.run_naturals": Text(
        "a run of %(size)s with at most %(cap)s (wild_max) needs %(naturals)s of one suit, "
        "and a game of %(players)s players has only %(held)s (%(packs)s)",
        {
            "cap": Plural("%(num)s wild card", "%(num)s wild cards", "cap"),
            "naturals": _cards(_NATURAL_CARDS, "naturals"),
            "packs": _cards("pack", "packs"),
        },
    ),
    "values.round_type": Text("the round must be a whole number from 1 to %(last)s, not %(value)s"),
    "values.no_round": Text("round %(number)s does not exist: %(rules)s have rounds 1 to %(last)s"),
    "values.players_type": Text("the number of players must be a whole number, not %(value)s"),
    "values.players_out": Text("%(players)s players: %(rules)s are for %(table)s"),
    "values.exactly": Text("exactly %(players)s players"),
    "values.from_to": Text("%(fewest)s to %(most)s players"),
    "named.rules": Text("%(name)s rules"),
    "values.sets": Text(Plural("%(num)s set", "%(num)s sets", "count")),
    "values.runs": Text(Plural("%(num)s run", "%(num)s runs", "count")),
    "values.sets_of": Text(Plural("%(num)s set of %(size)s", "%(num)s sets of %(size)s", "count")),
    "values.runs_of": Text(Plural("%(num)s run of %(size)s", "%(num)s runs of %(size)s", "count")),
    "values.any_suit_runs": Text(
        Plural("%(num)s run in any suits", "%(num)s runs in any suits", "count")
    ),
    "values.any_suit_runs_of": Text(
        Plural(
            "%(num)s run of %(size)s in any suits", "%(num)s runs of %(size)s in any suits", "count"
        )
    ),
    "ruleset.unknown": Text("unknown rule set %(quoted)s: %(choose)s or send a rule set"),
    "ruleset.not_a_preset": Text("%(quoted)s is not a preset: %(choose)s"),
    "ruleset.choose": Text("choose one of %(presets)s"),
    # What a rule set's settings do at the table, beside each setting (ruleeffects.py).
    "note.players": Text("Seats %(players)s; a table of %(usual)s is usual"),
    "note.deal_cards": Text(
        "Deal %(number)s needs %(needed)s cards%(whole)s: %(cards)s dealt + the draw is "
        "%(drawn)s, so it needs %(buys)s",
        {"buys": Plural("a buy", "%(num)s buys", "buys")},
    ),
    "note.deal_whole_hand": Text(", the whole hand laid with no discard"),
    "note.contract": Text(
        "%(contract)s: %(cards)s laid, and a card kept to discard",
        {"cards": _cards("card", "cards")},
    ),
    "note.contract_whole_hand": Text(
        "%(contract)s: %(cards)s laid, the whole hand at once and no discard",
        {"cards": _cards("card", "cards")},
    ),
    "note.packs": Text(
        "%(players)s: %(packs)s + %(jokers)s = %(cards)s cards",
        {"packs": _cards("pack", "packs"), "jokers": _cards("joker", "jokers")},
    ),
    "note.players_one": Text("%(first)s players"),
    "note.players_range": Text("%(first)s–%(last)s players"),
    "note.cut": Text("With %(players)s players the exact cut is %(cuts)s: %(bonus)s"),
    "note.cut_deal": Text("%(packet)s in deal %(first)s"),
    "note.cut_deals": Text("%(packet)s in deals %(first)s–%(last)s"),
    "note.cut_two_deals": Text("%(packet)s in deals %(first)s and %(last)s"),
    "note.cut_bonus": Text("it takes %(bonus)s off the cutter's round"),
    "note.cut_no_bonus": Text("it earns no bonus"),
    "note.stock": Text(
        "The smallest stock: %(left)s cards, with %(players)s players in deal %(number)s "
        "(%(players)s × %(dealt)s dealt + the upcard from %(pack)s)"
    ),
    "note.no_buying": Text("Nobody buys a passed discard"),
    "note.buys_a_game": Text(
        "A player buys at most %(per_game)s a game, so never more than %(per_game)s in one "
        "deal either"
    ),
    "note.wild": Text(
        "With %(players)s players: %(deuces)s twos + %(jokers)s = %(wild)s wild cards",
        {"jokers": _cards("joker", "jokers")},
    ),
}


Gettext = Callable[..., str]


def english_gettext(text: str, **values: Any) -> str:
    """The text as written here, its placeholders filled (gettext's arguments)."""
    return text % values if values else text


def english_ngettext(singular: str, plural: str, num: int, **values: Any) -> str:
    """The singular for one, the plural otherwise, its placeholders filled (ngettext's)."""
    return (singular if num == 1 else plural) % {**values, "num": num}


def render(
    said: Message, gettext: Gettext = english_gettext, ngettext: Gettext = english_ngettext
) -> str:
    """The message as a sentence (its first letter a capital), in English or in the language of
    the `gettext` and `ngettext` given."""
    text = words(said, gettext, ngettext)
    return text[:1].upper() + text[1:]


def words(
    said: Message, gettext: Gettext = english_gettext, ngettext: Gettext = english_ngettext
) -> str:
    """The message as it reads inside another (no capital added)."""
    if said.code is Part.SENTENCE:
        return render(said.values["said"], gettext, ngettext)
    if said.code is Part.AFTER_NAME:
        return _filled(said.values["said"], gettext, ngettext, lead=NAMED)
    return _filled(said, gettext, ngettext)


def _filled(said: Message, gettext: Gettext, ngettext: Gettext, lead: str = "") -> str:
    """The message's text with its values filled in, read on after its `lead` where it has one
    (`Part.AFTER_NAME`: the rule set's name said already)."""
    entry = TEXTS[said.code.id]
    if isinstance(entry, Joining):
        return _joined(entry, said.values["items"], gettext, ngettext)
    values = {name: _shown(value, gettext, ngettext) for name, value in said.values.items()}
    for name, form in entry.counts.items():
        values[name] = _plural(form, said.values, values, ngettext)
    if isinstance(entry.text, Plural):
        return _plural(entry.text, said.values, values, ngettext)
    return gettext(entry.text.removeprefix(lead), **values)


def _plural(form: Plural, raw: Mapping[str, Any], values: dict[str, Any], ngettext) -> str:
    """The form for the count it reads from the message's values."""
    shown = {name: value for name, value in values.items() if name != "num"}
    return ngettext(form.singular, form.plural, raw[form.count], **shown)


def _shown(value: Any, gettext: Gettext, ngettext: Gettext) -> Any:
    """A value as it fills a placeholder: a nested message (or a `Said` name) in words,
    anything else as it is."""
    if isinstance(value, Said):
        value = value.said
    return words(value, gettext, ngettext) if isinstance(value, Message) else value


def _joined(joining: Joining, items, gettext: Gettext, ngettext: Gettext) -> str:
    """The items in words, joined: `a, b or c`."""
    texts = [str(_shown(item, gettext, ngettext)) for item in items]
    if len(texts) == 1:
        return texts[0]
    head = gettext(joining.between).join(texts[:-1])
    return gettext(joining.last, head=head, last=texts[-1])
