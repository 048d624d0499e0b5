"""The engine's older names for R11's rule sets, kept while every caller moves to `RuleSet`.

`Profile` is `RuleSet`; `PROFILES` are the presets; `check_round` and `LAST_ROUND` read the
default rules' seven deals.
"""

from __future__ import annotations

from .presets import DEFAULT_RULES, LIVERPOOL, PRESETS, get_rules
from .ruleset import RuleSet

Profile = RuleSet
PROFILES = PRESETS
DEFAULT_PROFILE = DEFAULT_RULES
get_profile = get_rules
LAST_ROUND = LIVERPOOL.last_deal
ROUNDS = LIVERPOOL.deal_numbers


def check_round(round_number: object, rules: RuleSet | None = None) -> int:
    """The round number, or `RoundError` naming the bad value (the default rules' deals)."""
    return (rules or DEFAULT_RULES).check_deal(round_number)


def setting(
    round_number: int, profile: RuleSet | str | None, players: int | None
) -> tuple[int, RuleSet, int]:
    """What a question about one turn assumes, each part checked in turn: the rules (R11), the
    round (R3) and the number of players (the rule set's usual table when not given)."""
    rules = get_rules(profile)
    return rules.check_deal(round_number), rules, rules.check_players(players)
