"""The referee: Liverpool Rummy's rules (../shared/RULES.md) as pure Python.

Nothing here imports Flask or the database: the pages, the JSON API and the tests all call the
same functions. Checks return a `Verdict`; input that cannot be judged raises a `RulesError`.
"""

from .cards import JOKER, Card, check_copies, format_cards, parse_cards
from .contracts import CONTRACTS, Contract, contract
from .errors import (
    CardError,
    CopyLimitError,
    ProfileError,
    RoundError,
    RulesError,
    SeatError,
    SizeError,
)
from .profiles import DEFAULT_PROFILE, LAST_ROUND, PROFILES, Profile, get_profile
from .verdict import Verdict

__all__ = [
    "CONTRACTS",
    "DEFAULT_PROFILE",
    "JOKER",
    "LAST_ROUND",
    "PROFILES",
    "Card",
    "CardError",
    "Contract",
    "CopyLimitError",
    "Profile",
    "ProfileError",
    "RoundError",
    "RulesError",
    "SeatError",
    "SizeError",
    "Verdict",
    "check_copies",
    "contract",
    "format_cards",
    "get_profile",
    "parse_cards",
]
