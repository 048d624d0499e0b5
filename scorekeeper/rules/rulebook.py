"""The rulebook in the app's own words: what each R-number says, for verdicts and the reference page."""

from __future__ import annotations

from dataclasses import dataclass

from .ruleset import RuleSet
from .seating import contract_of


@dataclass(frozen=True)
class Rule:
    """One section of the rulebook: its number, its title and its points in plain words."""

    number: str
    title: str
    points: tuple[str, ...]

    @property
    def anchor(self) -> str:
        return self.number.lower()


RULES: dict[str, Rule] = {
    rule.number: rule
    for rule in (
        Rule(
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
        Rule(
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
        Rule(
            "R3",
            "Contracts",
            (
                "Round 1: 2 sets. Round 2: 1 set + 1 run. Round 3: 2 runs. Round 4: 3 sets. "
                "Round 5: 2 sets + 1 run. Round 6: 1 set + 2 runs. Round 7: 3 runs using the whole "
                "hand, with no discard.",
                "Everyone plays the same contract; a contract not made does not carry over.",
            ),
        ),
        Rule(
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
        Rule(
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
        Rule(
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
        Rule(
            "R7",
            "Jokers after the opening",
            (
                "A joker in a set stays there for the rest of the round.",
                "If you opened on an earlier turn, on your turn you may swap a run's joker for the "
                "exact card it stands for (rank and suit). You must lay the freed joker off on a meld "
                "in the same turn: you never keep it.",
            ),
        ),
        Rule(
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
        Rule(
            "R9",
            "Stock exhausted",
            (
                "When the stock is empty, shuffle the discards (all but the top one) into a new stock.",
                "If a draw is still impossible, the round ends with no winner and everyone scores the "
                "cards in hand.",
            ),
        ),
        Rule(
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
        Rule(
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
}


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


def changes_by_rule(rules: RuleSet) -> dict[str, tuple[str, ...]]:
    """The sentences of every setting this rule set changes from liverpool, under each rule of
    R1-R10 whose text they replace, in the document's order (none for liverpool itself)."""
    changes: dict[str, list[str]] = {}
    for place, said in rules.differences():
        for number in touched_rules(place):
            changes.setdefault(number, []).append(said)
    return {number: tuple(said) for number, said in changes.items()}
