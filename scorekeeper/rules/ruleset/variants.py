"""R12.1 and R12.2's variants: the changes a carioca or continental table commonly plays, each a
change to the rule set's document that the editor offers as one tap.

A variant changes the document it is given (a copy), whatever else the table has changed: its
words say what it sets (marked with `N_`, translated where shown), and the document it writes is
judged as any other (`RuleSet.parse`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .words import N_

Document = dict[str, Any]


@dataclass(frozen=True)
class Variant:
    """One variant: its key (`carioca.joker_30`), its words, and the change it makes."""

    key: str
    said: str
    change: Callable[[Document], None]

    def applied(self, document: Document) -> Document:
        """A copy of the document with the variant's change made."""
        changed = copy.deepcopy(document)
        self.change(changed)
        return changed


def _set(**values: Any) -> Callable[[Document], None]:
    """A change of top-level settings; a dotted name (`values.JK`) reaches inside one."""

    def change(document: Document) -> None:
        for place, value in values.items():
            top, _, inner = place.partition("__")
            if inner:
                document.setdefault(top, {})[inner] = value
            else:
                document[place] = copy.deepcopy(value)
        document["version"] = 2

    return change


def _deals(keep: Callable[[list], list]) -> Callable[[Document], None]:
    def change(document: Document) -> None:
        document["deals"] = keep(document.get("deals", []))

    return change


def _need(kind: str, size: int) -> dict[str, Any]:
    return {"kind": kind, "size": size}


# Mexico's family game (R12.2's variants): eight deals, each dealing exactly its contract's cards.
_MEXICO = [
    (6, ("set", "set")),
    (7, ("set", "run")),
    (8, ("run", "run")),
    (9, ("set", "set", "set")),
    (10, ("set", "set", "run")),
    (11, ("set", "run", "run")),
    (12, ("set", "set", "set", "set")),
    (12, ("run", "run", "run")),
]
_LEAST = {"set": 3, "run": 4}
# The canasta scale: 2-7 5, 8-K 10, A 20, joker 50.
_CANASTA = {
    "A": 20,
    **{str(rank): 5 for rank in range(2, 8)},
    **{key: 10 for key in ("8", "9", "10", "J", "Q", "K")},
    "JK": 50,
}

VARIANTS: dict[str, tuple[Variant, ...]] = {
    "carioca": (
        Variant("carioca.joker_30", N_("A joker left in hand is 30"), _set(values__JK=30)),
        Variant("carioca.joker_20", N_("A joker left in hand is 20"), _set(values__JK=20)),
        Variant(
            "carioca.nine_deals",
            N_("9 deals: no escala sucia"),
            _deals(lambda deals: [*deals[:8], *deals[9:10]]),
        ),
        Variant("carioca.eight_deals", N_("8 deals: neither last deal"), _deals(lambda d: d[:8])),
        Variant("carioca.no_wrap", N_("The ace never wraps"), _set(ace="no_wrap")),
        Variant("carioca.joker_swap", N_("A run's joker may be swapped"), _set(joker_swap="runs")),
        Variant(
            "carioca.spacing_4",
            N_("A run's wild cards at least 4 natural cards apart"),
            _set(wild_spacing=4),
        ),
        Variant(
            "carioca.one_turn",
            N_("−10 for going down and out in one turn"),
            _set(out_in_one_turn_bonus=-10),
        ),
    ),
    "continental": (
        Variant("continental.two_jokers", N_("2 jokers a pack"), _set(jokers__per_pack=2)),
        Variant(
            "continental.canasta",
            N_("The canasta scale: 2–7 5, 8–K 10, A 20, joker 50"),
            _set(values=_CANASTA),
        ),
        Variant(
            "continental.mexico",
            N_("Mexico's family game: 8 deals, each dealing exactly its contract"),
            _deals(
                lambda _: [
                    {"cards": cards, "contract": [_need(kind, _LEAST[kind]) for kind in kinds]}
                    for cards, kinds in _MEXICO
                ]
            ),
        ),
    ),
}
_BY_KEY = {variant.key: variant for variants in VARIANTS.values() for variant in variants}


def variant(key: str) -> Variant | None:
    """The variant of that key (`carioca.joker_30`), or None."""
    return _BY_KEY.get(key)


def variants_of(name: str | None) -> tuple[Variant, ...]:
    """The variants offered for rules of that name: a preset's own (`Carioca`), else none."""
    return VARIANTS.get((name or "").strip().lower(), ())
