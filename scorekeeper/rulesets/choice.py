"""The new game page's rules: the picker (the presets, then the table's saved rule sets), the
editor filled from the choice, and which of the two a post means.

Without the page's script the editor is not refilled when the picker changes, so the form
carries the choice the editor was filled from (`filled_from`): a picker changed since then is
honoured, and an editor changed since then (the picker left alone) is kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..rules import PRESETS, RuleSet, RuleSetError
from ..rules.ruleset import DEFAULT_RULES
from ..rules.ruleset.schema import UNNAMED
from ..rules.ruleset.words import players_range
from . import service as rulesets

# A saved rule set in a picker (the new game page's, the referee's): `ruleset:<id>`.
SAVED = "ruleset:"
SHARED = "shared"


@dataclass(frozen=True)
class Choice:
    """One entry of the picker: its value, its label, its rules, and the saved row's id."""

    value: str
    label: str
    rules: RuleSet
    saved_id: int | None = None


def saved_rule_sets() -> list[Any]:
    """The table's saved rule sets, most recent first (the `rulesets` service)."""
    return rulesets.saved()


def choices(shared: RuleSet | None = None) -> list[Choice]:
    """The presets, a shared rule set opened by its code, then the saved ones, newest first."""
    found = [
        Choice(key, f"{rules.label}: {players_range(rules)}", rules)
        for key, rules in PRESETS.items()
    ]
    if shared is not None:
        found.append(Choice(SHARED, f"Shared: {shared.label}: {players_range(shared)}", shared))
    for row in saved_rule_sets():
        rules = row.rule_set
        label = f"{rules.label} (ours): {players_range(rules)}"
        found.append(Choice(f"{SAVED}{row.id}", label, rules, row.id))
    return found


def default_choice() -> str:
    return DEFAULT_RULES.preset or "liverpool"


def game_rules(edited: RuleSet, chosen: Choice) -> RuleSet:
    """The rules a game starts with: the choice itself when the editor left it as it was; a
    changed set under the editor's name, except a preset's name, which is not a changed set's:
    it is then called `House`, as the engine calls a changed rule set sent without a name."""
    if edited.plays_like(chosen.rules):
        return chosen.rules if edited.name == chosen.rules.name else edited
    if is_preset_name(edited.name):
        return edited.renamed(UNNAMED)
    return edited


def saved_as(rules: RuleSet | None, chosen: Choice) -> str | None:
    """The name of the table's saved rule set a game would play exactly as saved (so there is
    nothing to save again); None for a preset, a shared set or changed rules."""
    if chosen.saved_id is None or rules is None or rules is not chosen.rules:
        return None
    return chosen.rules.name


def is_preset_name(name: str) -> bool:
    """Whether a name is a preset's (any case): a changed rule set is never called so."""
    return name.strip().lower() in {rules.name.lower() for rules in PRESETS.values()}


def parse_or_none(document: object) -> RuleSet | None:
    try:
        return RuleSet.parse(document)
    except RuleSetError:
        return None
