"""The rulebook: what each R-number says, for verdicts and the reference page.

Its text (each rule's title and points, the common questions) is words, kept with the rule sets'
other words in ruleset/words.py; here it is the rulebook's `Rule`s, the deals table and the
settings of R11's table that replace a rule's text.
"""

from __future__ import annotations

from dataclasses import dataclass

from .ruleset import RuleSet
from .ruleset.words import COMMON_QUESTIONS as COMMON_QUESTIONS
from .ruleset.words import RULEBOOK
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


RULES: dict[str, Rule] = {number: Rule(number, title, points) for number, title, points in RULEBOOK}


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
