"""R12.1 and R12.2's variants: the changes a carioca or continental table commonly plays, each a
change to the rule set's document that the editor offers as one tap.

A variant changes the document it is given (a copy), whatever else the table has changed: its
words say what it sets (`words.VARIANT_WORDS`, translated where shown), and the document it
writes is judged as any other (`RuleSet.parse`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .words import VARIANT_WORDS

Document = dict[str, Any]


@dataclass(frozen=True)
class Variant:
    """One variant: its key (`carioca.joker_30`), its words, and the change it makes."""

    key: str
    change: Callable[[Document], None]

    @property
    def said(self) -> str:
        """What the variant sets, in English (`VARIANT_WORDS`; a page says it translated)."""
        return VARIANT_WORDS[self.key]

    def applied(self, document: Document) -> Document:
        """A copy of the document with the variant's change made."""
        changed = copy.deepcopy(document)
        self.change(changed)
        return changed


def _set(**values: Any) -> Callable[[Document], None]:
    """A change of top-level settings; a name with a double underscore (`values__JK`) reaches
    inside one."""

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
        Variant("carioca.joker_30", _set(values__JK=30)),
        Variant("carioca.joker_20", _set(values__JK=20)),
        Variant("carioca.nine_deals", _deals(lambda deals: [*deals[:8], *deals[9:10]])),
        Variant("carioca.eight_deals", _deals(lambda d: d[:8])),
        Variant("carioca.no_wrap", _set(ace="no_wrap")),
        Variant("carioca.joker_swap", _set(joker_swap="runs")),
        Variant("carioca.spacing_4", _set(wild_spacing=4)),
        Variant("carioca.one_turn", _set(out_in_one_turn_bonus=-10)),
    ),
    "continental": (
        Variant("continental.two_jokers", _set(jokers__per_pack=2)),
        Variant("continental.canasta", _set(values=_CANASTA)),
        Variant(
            "continental.mexico",
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
