"""The referee: Liverpool Rummy's rules (../shared/RULES.md) as pure Python.

Nothing here imports Flask or the database: the pages, the JSON API and the tests all call the
same functions. Checks return a `Verdict`; input that cannot be judged raises a `RulesError`.
Every number a table may change is in its `RuleSet` (R11): `get_rules` reads one from a preset's
name or a document.
"""

# The reader and the words first: they lend the rule set value its `parse`, `summary` and
# `differences` (ruleset.lend) before any other module can use them.
from . import ruleschema, rulewords  # noqa: F401  # isort: skip
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
)
from .presets import DEFAULT_RULES, PRESETS, get_rules, preset
from .ruleset import Deal, FreedJoker, JokerSwap, MeldKind, Need, RuleSet
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
    "Verdict",
    "check_copies",
    "contract",
    "format_cards",
    "get_rules",
    "parse_cards",
    "preset",
]
