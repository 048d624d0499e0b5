"""Reading a rule set's JSON document, and R11's "A rule set is playable when…".

The reader never stops at the first problem: it reads the whole document, notes every problem
under its place (`players.min`, `deals[4].cards`, `values.JK`), and raises one `RuleSetError`
holding them all. A key left out takes the `liverpool` value; an unknown key is a problem, so a
misspelt setting is never silently ignored.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .errors import RuleSetError
from .ruleset import (
    BUY_LIMITS,
    CUT_BONUSES,
    FEWEST_PLAYERS,
    MOST_DEALS,
    MOST_MELDS,
    MOST_PACKS,
    MOST_PLAYERS,
    NAME_MAX,
    PENALTY_CARDS,
    RUN_SIZES,
    SET_SIZES,
    VALUE_KEYS,
    VALUES,
    VERSION,
    Buying,
    Deal,
    FreedJoker,
    Jokers,
    JokerSwap,
    MeldKind,
    Naturals,
    Need,
    PackStep,
    RuleSet,
    Values,
)

# The most jokers a rule set may add: more than any real table shuffles in.
FIXED_JOKERS = range(0, 21)
JOKERS_PER_PACK = range(0, 5)
# What a changed rule set sent without a name is called.
UNNAMED = "House"
# A document larger than this is refused before it is read.
MOST_TEXT = 20_000

_TOP = (
    "version",
    "name",
    "players",
    "packs",
    "jokers",
    "deals",
    "exact_sizes",
    "values",
    "wild_deuces",
    "naturals",
    "cut_bonus",
    "layoff_on_opening_turn",
    "go_out_by_layoff",
    "joker_swap",
    "swap_on_opening_turn",
    "freed_joker",
    "buying",
)
_FLAGS = (
    "exact_sizes",
    "wild_deuces",
    "layoff_on_opening_turn",
    "go_out_by_layoff",
    "swap_on_opening_turn",
)


def _words(allowed: range) -> str:
    return f"{allowed.start} to {allowed.stop - 1}"


class _Reader:
    """Reads one document, keeping every problem under its place."""

    def __init__(self) -> None:
        self.problems: dict[str, str] = {}

    def problem(self, path: str, message: str) -> None:
        self.problems.setdefault(path, message)

    def mapping(self, path: str, value: object, keys: tuple[str, ...]) -> Mapping[str, Any]:
        """The value as a JSON object with only known keys; {} (after a problem) otherwise."""
        if not isinstance(value, Mapping):
            self.problem(path, f"must be an object with {', '.join(keys)}")
            return {}
        for key in value:
            if key not in keys:
                where = f"{path}.{key}" if path else str(key)
                self.problem(where, f"is not a setting: the settings here are {', '.join(keys)}")
        return value

    def whole(self, path: str, value: object, allowed: range) -> int:
        """A whole number within `allowed`; the range's first value (after a problem) otherwise."""
        if isinstance(value, bool) or not isinstance(value, int):
            self.problem(path, f"must be a whole number from {_words(allowed)}, not {value!r}")
            return allowed.start
        if value not in allowed:
            self.problem(path, f"must be from {_words(allowed)}, not {value}")
            return allowed.start
        return value

    def flag(self, path: str, value: object) -> bool:
        if not isinstance(value, bool):
            self.problem(path, f"must be true or false, not {value!r}")
            return False
        return value

    def choice(self, path: str, value: object, kind: type) -> Any:
        choices = [member.value for member in kind]
        if not isinstance(value, str) or value not in choices:
            self.problem(path, f"must be one of {', '.join(choices)}, not {value!r}")
            return kind(choices[0])
        return kind(value)

    def limit(self, path: str, value: object) -> int | None:
        return None if value is None else self.whole(path, value, BUY_LIMITS)


def _decoded(document: object, reader: _Reader) -> object:
    """A JSON text decoded; anything else as it is."""
    if isinstance(document, bytes | bytearray):
        document = document.decode("utf-8", "replace")
    if not isinstance(document, str):
        return document
    if len(document) > MOST_TEXT:
        reader.problem("rules", f"a rule set is at most {MOST_TEXT} characters of JSON")
        return {}
    try:
        return json.loads(document)
    except ValueError as error:
        reader.problem("rules", f"is not JSON: {error}")
        return {}


def read_document(document: object) -> RuleSet:
    """The rule set a document describes, or `RuleSetError` naming every problem (R11)."""
    from .presets import LIVERPOOL, preset

    if isinstance(document, str) and not document.lstrip().startswith("{"):
        return preset(document)
    reader = _Reader()
    data = reader.mapping("", _decoded(document, reader), _TOP)
    if "rules" in reader.problems or not isinstance(data, Mapping):
        raise _refusal(reader.problems)
    default = LIVERPOOL.to_json()
    given = {key: data.get(key, default[key]) for key in _TOP}
    rules = _build(reader, given, default)
    playable_problems(rules, reader)
    if reader.problems:
        raise _refusal(reader.problems)
    if "name" not in data and rules != LIVERPOOL:
        # Left unnamed, a changed rule set is not called Liverpool.
        return rules.renamed(UNNAMED)
    return rules


def _refusal(problems: dict[str, str]) -> RuleSetError:
    count = len(problems)
    listed = "; ".join(f"{path}: {message}" for path, message in problems.items())
    noun = "problem" if count == 1 else "problems"
    return RuleSetError(f"the rule set cannot be used ({count} {noun}): {listed}", problems)


def _build(reader: _Reader, given: Mapping[str, Any], default: Mapping[str, Any]) -> RuleSet:
    if given["version"] != VERSION or isinstance(given["version"], bool):
        reader.problem("version", f"must be {VERSION}, the only version there is")
    players = reader.mapping("players", given["players"], ("min", "max"))
    values = reader.mapping("values", given["values"], VALUE_KEYS)
    flags = {key: reader.flag(key, given[key]) for key in _FLAGS}
    return RuleSet(
        name=_name(reader, given["name"]),
        min_players=reader.whole(
            "players.min", players.get("min", default["players"]["min"]), range(2, 9)
        ),
        max_players=reader.whole(
            "players.max", players.get("max", default["players"]["max"]), range(2, 9)
        ),
        packs=_packs(reader, given["packs"]),
        jokers=_jokers(reader, given["jokers"], default["jokers"]),
        deals=_deals(reader, given["deals"]),
        values=Values(
            tuple(
                reader.whole(f"values.{key}", values.get(key, default["values"][key]), VALUES)
                for key in VALUE_KEYS
            )
        ),
        naturals=_naturals(reader, given["naturals"], default["naturals"]),
        cut_bonus=reader.whole("cut_bonus", given["cut_bonus"], CUT_BONUSES),
        joker_swap=reader.choice("joker_swap", given["joker_swap"], JokerSwap),
        freed_joker=reader.choice("freed_joker", given["freed_joker"], FreedJoker),
        buying=_buying(reader, given["buying"], default["buying"]),
        **flags,
    )


def _name(reader: _Reader, value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        reader.problem("name", 'must be a name of 1 to 40 characters, like "Smith family"')
        return "House"
    name = " ".join(value.split())
    if len(name) > NAME_MAX:
        reader.problem("name", f"must be at most {NAME_MAX} characters, not {len(name)}")
    if not name.isprintable():
        reader.problem("name", "must not hold control characters")
    return name


def _packs(reader: _Reader, value: object) -> tuple[PackStep, ...]:
    if not isinstance(value, list) or not value:
        reader.problem("packs", 'must be a list of {"up_to": players, "packs": packs}')
        return (PackStep(MOST_PLAYERS, 2),)
    steps = []
    for index, item in enumerate(value[:MOST_PLAYERS]):
        path = f"packs[{index}]"
        item = reader.mapping(path, item, ("up_to", "packs"))
        steps.append(
            PackStep(
                reader.whole(f"{path}.up_to", item.get("up_to"), range(2, MOST_PLAYERS + 1)),
                reader.whole(f"{path}.packs", item.get("packs"), range(1, MOST_PACKS + 1)),
            )
        )
    if len(value) > MOST_PLAYERS:
        reader.problem("packs", f"has at most {MOST_PLAYERS} steps, not {len(value)}")
    for index, (before, after) in enumerate(zip(steps, steps[1:], strict=False), start=1):
        if after.up_to <= before.up_to:
            reader.problem(
                f"packs[{index}].up_to", "each step must seat more players than the last"
            )
    return tuple(steps)


def _jokers(reader: _Reader, value: object, default: Mapping[str, Any]) -> Jokers:
    value = reader.mapping("jokers", value, ("fixed", "per_pack"))
    return Jokers(
        fixed=reader.whole("jokers.fixed", value.get("fixed", default["fixed"]), FIXED_JOKERS),
        per_pack=reader.whole(
            "jokers.per_pack", value.get("per_pack", default["per_pack"]), JOKERS_PER_PACK
        ),
    )


def _deals(reader: _Reader, value: object) -> tuple[Deal, ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= MOST_DEALS:
        count = f"not {len(value)}" if isinstance(value, list) else f"not {value!r}"
        reader.problem("deals", f"must be a list of 1 to {MOST_DEALS} deals, {count}")
        value = value[:MOST_DEALS] if isinstance(value, list) else []
    return tuple(_deal(reader, f"deals[{index}]", item) for index, item in enumerate(value))


def _deal(reader: _Reader, path: str, value: object) -> Deal:
    value = reader.mapping(path, value, ("cards", "contract", "whole_hand"))
    cards = reader.whole(f"{path}.cards", value.get("cards"), range(1, 61))
    contract = value.get("contract")
    if not isinstance(contract, list) or not 1 <= len(contract) <= MOST_MELDS:
        reader.problem(f"{path}.contract", f"must be a list of 1 to {MOST_MELDS} melds")
        contract = contract[:MOST_MELDS] if isinstance(contract, list) else []
    needs = tuple(
        _need(reader, f"{path}.contract[{index}]", item) for index, item in enumerate(contract)
    )
    return Deal(cards, needs, reader.flag(f"{path}.whole_hand", value.get("whole_hand", False)))


def _need(reader: _Reader, path: str, value: object) -> Need:
    value = reader.mapping(path, value, ("kind", "size"))
    kind = reader.choice(f"{path}.kind", value.get("kind"), MeldKind)
    sizes = SET_SIZES if kind is MeldKind.SET else RUN_SIZES
    return Need(kind, reader.whole(f"{path}.size", value.get("size", kind.least), sizes))


def _naturals(reader: _Reader, value: object, default: Mapping[str, Any]) -> Naturals:
    value = reader.mapping("naturals", value, ("set", "run", "wild_at_most_natural"))
    return Naturals(
        set=reader.whole("naturals.set", value.get("set", default["set"]), range(1, 9)),
        run=reader.whole("naturals.run", value.get("run", default["run"]), range(1, 15)),
        wild_at_most_natural=reader.flag(
            "naturals.wild_at_most_natural",
            value.get("wild_at_most_natural", default["wild_at_most_natural"]),
        ),
    )


def _buying(reader: _Reader, value: object, default: Mapping[str, Any]) -> Buying:
    value = reader.mapping("buying", value, ("allowed", "per_deal", "per_game", "penalty_cards"))
    return Buying(
        allowed=reader.flag("buying.allowed", value.get("allowed", default["allowed"])),
        per_deal=reader.limit("buying.per_deal", value.get("per_deal", default["per_deal"])),
        per_game=reader.limit("buying.per_game", value.get("per_game", default["per_game"])),
        penalty_cards=reader.whole(
            "buying.penalty_cards",
            value.get("penalty_cards", default["penalty_cards"]),
            PENALTY_CARDS,
        ),
    )


def playable_problems(rules: RuleSet, reader: _Reader | None = None) -> dict[str, str]:
    """R11's conditions on a rule set whose every setting has the right type and range."""
    reader = reader or _Reader()
    if rules.min_players > rules.max_players:
        reader.problem(
            "players.max",
            f"the most players ({rules.max_players}) cannot be fewer than the fewest "
            f"({rules.min_players})",
        )
        return reader.problems
    if rules.min_players < FEWEST_PLAYERS:
        reader.problem("players.min", f"a game needs at least {FEWEST_PLAYERS} players")
    covered = max((step.up_to for step in rules.packs), default=0)
    if covered < rules.max_players:
        reader.problem(
            "packs",
            f"gives no number of packs for {covered + 1}–{rules.max_players} players",
        )
        return reader.problems
    for index, deal in enumerate(rules.deals):
        _deal_problems(rules, reader, f"deals[{index}]", deal)
    return reader.problems


def _deal_problems(rules: RuleSet, reader: _Reader, path: str, deal: Deal) -> None:
    for players in rules.table_sizes:
        needed = players * deal.cards + 1
        if needed >= rules.pack_size(players):
            reader.problem(
                f"{path}.cards",
                f"{players} players × {deal.cards} cards + the upcard is {needed}, and the game "
                f"has only {rules.pack_size(players)} cards: the deal leaves no stock",
            )
            return
    discard = 0 if deal.whole_hand else 1
    needed = deal.contract_cards + discard
    buys = rules.buying.buys_in_a_deal()
    held = deal.cards + 1
    if buys is None or needed <= held + 2 * buys:
        return
    and_discard = " and a discard" if discard else ""
    reason = (
        "and buying is not allowed"
        if buys == 0
        else f"even with {buys} buy{'s' if buys != 1 else ''} of 2 cards each"
    )
    reader.problem(
        f"{path}.cards",
        f"{held} cards ({deal.cards} dealt + the draw) cannot hold "
        f"{deal.contract_text()}{and_discard} ({needed} cards), {reason}",
    )
