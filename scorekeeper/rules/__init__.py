"""The referee: Liverpool Rummy's rules (../shared/RULES.md) as pure Python.

Nothing here imports Flask or the database: the pages, the JSON API and the tests all call the
same functions. Checks return a `Verdict`; input that cannot be judged raises a `RulesError`.
Every number a table may change is in its `RuleSet` (R11), and every check takes one: a preset
(`preset("shanghai")`, `PRESETS`) or a table's own, read once where it comes in (`RuleSet.parse`).
"""

from .cards import JOKER, Card, check_copies, format_cards, parse_cards
from .contracts import Contract, contract
from .errors import (
    CardError,
    CopyLimitError,
    RoundError,
    RulesError,
    RuleSetError,
    SeatError,
    SizeError,
    Undecided,
)
from .ruleset import (
    DEFAULT_RULES,
    PRESETS,
    Deal,
    FreedJoker,
    JokerSwap,
    MeldKind,
    Need,
    RuleSet,
    preset,
)
from .verdict import Verdict

__all__ = [
    "DEFAULT_RULES",
    "JOKER",
    "PRESETS",
    "Card",
    "CardError",
    "Contract",
    "CopyLimitError",
    "Deal",
    "FreedJoker",
    "JokerSwap",
    "MeldKind",
    "Need",
    "RoundError",
    "RuleSet",
    "RuleSetError",
    "RulesError",
    "SeatError",
    "SizeError",
    "Undecided",
    "Verdict",
    "check_copies",
    "contract",
    "format_cards",
    "parse_cards",
    "preset",
]
