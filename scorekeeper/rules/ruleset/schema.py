"""Reading a rule set's JSON document, and R11's "A rule set is playable when…" with R12.3's
conditions.

The reader never stops at the first problem: it reads the whole document, notes every problem
under its place (`players.min`, `deals[4].cards`, `values.JK`), and raises one `RuleSetError`
holding them all. A key left out takes the `liverpool` value; an unknown key is a problem, so a
misspelt setting is never silently ignored.

Two versions of the document are read (R12): version 1, R11's settings alone, every one of
R12's at its default; and version 2, with R12's. A version-1 document that holds one of R12's
settings is refused at that setting, and so is a version that does not exist. A document that
leaves its version out is read as the latest.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, TypeVar

from ..document import MISSING, SKIP, Reader, shown
from ..errors import RuleSetError
from ..words import Code, Join, Message, Said, joined, message
from .values import (
    BUY_LIMITS,
    CUT_BONUSES,
    FEWEST_PLAYERS,
    FIRST_VERSION,
    MOST_DEALS,
    MOST_MELDS,
    MOST_PACKS,
    MOST_PLAYERS,
    NAME_MAX,
    OUT_IN_ONE_TURN_BONUSES,
    PENALTY_CARDS,
    R12_BUYING,
    R12_DEAL,
    R12_TOP,
    RUN_SIZES,
    SET_SIZES,
    VALUE_KEYS,
    VALUES,
    VERSION,
    VERSIONS,
    WILD_CAPS,
    WILD_SPACINGS,
    WRAPPED_RUN,
    Ace,
    Buying,
    Deal,
    Direction,
    FreedJoker,
    FreedJokerTo,
    Jokers,
    JokerSwap,
    MeldKind,
    Naturals,
    Need,
    PackStep,
    Settings,
    TieBreak,
    Values,
)

# The problems the refusal's one-line message repeats (`problems` holds them all).
SAID = 3


class Refusal(Code):
    """The refusal's words: each problem at its place, and the one-line message."""

    AT = "reader.at"
    REFUSAL = "reader.refusal"


def refusal(problems: Mapping[str, Message]) -> RuleSetError:
    """The one error naming every problem, each under its place: the problems are said in
    words here, and the message repeats the first SAID of them."""
    first = [message(Refusal.AT, path=path, problem=said) for path, said in problems.items()]
    more = "; …" if len(first) > SAID else ""
    said = message(
        Refusal.REFUSAL, count=len(first), listed=joined(Join.SEMICOLON, first[:SAID]), more=more
    )
    return RuleSetError(said, {path: Said(problem) for path, problem in problems.items()})


# The most jokers a rule set may add: more than any real table shuffles in.
FIXED_JOKERS = range(0, 21)
# The cards dealt to each player: no game holds a deal of more (the stock check refuses most).
DEALT = range(1, 61)
JOKERS_PER_PACK = range(0, 5)
# What a changed rule set sent without a name is called.
UNNAMED = "House"
TABLE_SIZES = range(FEWEST_PLAYERS, MOST_PLAYERS + 1)
# What reads as a JSON list: a Python caller's tuple too.
LISTS = (list, tuple)
# A document larger than this is refused before it is read: the five presets are under 2,500.
MOST_TEXT = 20_000
# The rule set a document is read into: the one class that holds the settings and their names.
Rules = TypeVar("Rules", bound=Settings)


class Fault(Code):
    """Each problem with a rule set's document as a whole, or with its settings together (R11's
    "A rule set is playable when…")."""

    TOO_LONG = "schema.too_long"
    NOT_JSON = "schema.not_json"
    HUGE_NUMBER = "schema.huge_number"
    TOO_DEEP = "schema.too_deep"
    VERSION = "schema.version"
    NAME = "schema.name"
    NAME_LONG = "schema.name_long"
    NAME_CONTROL = "schema.name_control"
    PACKS = "schema.packs"
    PACKS_STEPS = "schema.packs_steps"
    PACKS_ORDER = "schema.packs_order"
    DEALS = "schema.deals"
    CONTRACT = "schema.contract"
    CONTRACT_MISSING = "schema.contract_missing"
    PLAYERS_ORDER = "schema.players_order"
    PACKS_SHORT = "schema.packs_short"
    NO_STOCK = "schema.no_stock"
    NOR = "schema.nor"
    TOO_SMALL = "schema.too_small"
    AND_DISCARD = "schema.and_discard"
    NO_BUYING = "schema.no_buying"
    EVEN_WITH = "schema.even_with"
    NEWER = "schema.newer"
    WRAPPED_RUN = "schema.wrapped_run"
    SET_NATURALS = "schema.set_naturals"
    RUN_NATURALS = "schema.run_naturals"


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
    *R12_TOP,
)
_FLAGS = (
    "exact_sizes",
    "wild_deuces",
    "layoff_on_opening_turn",
    "go_out_by_layoff",
    "swap_on_opening_turn",
    "distinct_set_ranks",
    "discard_wild",
    "discard_draw_after_opening",
)
_BUYING = ("allowed", "per_deal", "per_game", "penalty_cards", *R12_BUYING)
_DEAL = ("cards", "contract", "whole_hand", *R12_DEAL)


def _order(path: str) -> int:
    top = path.split(".")[0].split("[")[0]
    return _TOP.index(top) if top in _TOP else len(_TOP)


def _decoded(document: object, reader: Reader) -> object:
    """A JSON text decoded; anything else as it is."""
    if isinstance(document, bytes | bytearray):
        document = document.decode("utf-8", "replace")
    if not isinstance(document, str):
        return document
    if len(document) > MOST_TEXT:
        reader.problem("rules", message(Fault.TOO_LONG, most=MOST_TEXT))
        return {}
    try:
        return json.loads(document)
    except json.JSONDecodeError as error:
        where = {"line": error.lineno, "column": error.colno}
        reader.problem("rules", message(Fault.NOT_JSON, error=error.msg.lower(), **where))
    except ValueError:
        reader.problem("rules", message(Fault.HUGE_NUMBER))
    except RecursionError:
        reader.problem("rules", message(Fault.TOO_DEEP))
    return {}


def read(document: object, default: Settings, make: Callable[..., Rules]) -> Rules:
    """The rule set (`make`'s) a document describes, every key left out taken from `default`'s;
    `RuleSetError` naming every problem when it is not playable (R11). Left unnamed, a rule set
    that changes anything from `default` is called `UNNAMED`."""
    reader = Reader()
    data = reader.mapping("", _decoded(document, reader), _TOP)
    if "rules" in reader.problems:
        raise refusal(reader.listed(_order))
    defaults = default.every_setting()
    given = {key: data.get(key, defaults[key]) for key in _TOP}
    given["version"] = data.get("version", VERSION)
    if _version(reader, given["version"]) == FIRST_VERSION:
        _first_version(reader, data)
    rules = make(**_fields(reader, given, defaults), **_r12_fields(reader, given))
    _playable(rules, reader)
    if reader.problems:
        raise refusal(reader.listed(_order))
    if "name" not in data and rules.every_setting() != defaults:
        # Left unnamed, a changed rule set is not called by the default's name.
        rules = rules.renamed(UNNAMED)
    return rules


def _version(reader: Reader, version: object) -> int | None:
    """The document's version: one there is (R12), else None after a problem."""
    if type(version) is not int or version not in VERSIONS:
        versions = joined(Join.OR, [str(each) for each in VERSIONS])
        reader.problem("version", message(Fault.VERSION, versions=versions, value=shown(version)))
        return None
    return version


def _first_version(reader: Reader, data: Mapping[str, Any]) -> None:
    """A version-1 document holds R11's settings alone: each of R12's it holds is named (a
    meld of suits free is one of them)."""
    newer = [key for key in R12_TOP if key in data]
    buying = data.get("buying")
    if isinstance(buying, Mapping):
        newer += [f"buying.{key}" for key in R12_BUYING if key in buying]
    deals = data.get("deals")
    for index, deal in enumerate(deals[:MOST_DEALS] if isinstance(deals, LISTS) else []):
        if not isinstance(deal, Mapping):
            continue
        newer += [f"deals[{index}].{key}" for key in R12_DEAL if key in deal]
        contract = deal.get("contract")
        for place, need in enumerate(contract[:MOST_MELDS] if isinstance(contract, LISTS) else []):
            if isinstance(need, Mapping) and need.get("kind") == MeldKind.ANY_SUIT_RUN.value:
                newer.append(f"deals[{index}].contract[{place}].kind")
    for path in newer:
        reader.problem(path, message(Fault.NEWER, version=VERSION, first=FIRST_VERSION))


def _r12_fields(reader: Reader, given: Mapping[str, Any]) -> dict[str, Any]:
    """R12.3's settings at the top of the document."""
    return dict(
        direction=reader.choice("direction", given["direction"], Direction) or Direction.LEFT,
        ace=reader.choice("ace", given["ace"], Ace) or Ace.NO_WRAP,
        wild_max=reader.limit("wild_max", given["wild_max"], WILD_CAPS),
        wild_spacing=reader.whole("wild_spacing", given["wild_spacing"], WILD_SPACINGS),
        out_in_one_turn_bonus=reader.whole(
            "out_in_one_turn_bonus", given["out_in_one_turn_bonus"], OUT_IN_ONE_TURN_BONUSES
        ),
        tie_break=reader.choice("tie_break", given["tie_break"], TieBreak) or TieBreak.SHARE,
        freed_joker_to=reader.choice("freed_joker_to", given["freed_joker_to"], FreedJokerTo)
        or FreedJokerTo.ANY,
    )


def _fields(reader: Reader, given: Mapping[str, Any], default: Mapping[str, Any]) -> dict[str, Any]:
    players = reader.mapping("players", given["players"], ("min", "max"))
    values = reader.mapping("values", given["values"], VALUE_KEYS)
    flags = {key: reader.flag(key, given[key]) for key in _FLAGS}
    return dict(
        name=_name(reader, given["name"]),
        min_players=reader.whole(
            "players.min", players.get("min", default["players"]["min"]), TABLE_SIZES
        ),
        max_players=reader.whole(
            "players.max", players.get("max", default["players"]["max"]), TABLE_SIZES
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
        joker_swap=reader.choice("joker_swap", given["joker_swap"], JokerSwap) or JokerSwap.RUNS,
        freed_joker=reader.choice("freed_joker", given["freed_joker"], FreedJoker)
        or FreedJoker.LAY_OFF,
        buying=_buying(reader, given["buying"], default["buying"]),
        **flags,
    )


def _name(reader: Reader, value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        reader.problem("name", message(Fault.NAME, most=NAME_MAX))
        return UNNAMED
    name = " ".join(value.split())
    if len(name) > NAME_MAX:
        reader.problem("name", message(Fault.NAME_LONG, most=NAME_MAX, size=len(name)))
    if not name.isprintable():
        reader.problem("name", message(Fault.NAME_CONTROL))
    return name


def _packs(reader: Reader, value: object) -> tuple[PackStep, ...]:
    if not isinstance(value, LISTS) or not value:
        reader.problem("packs", message(Fault.PACKS, value=shown(value)))
        return (PackStep(MOST_PLAYERS, 2),)
    steps = []
    for index, item in enumerate(value[:MOST_PLAYERS]):
        path = f"packs[{index}]"
        item = reader.mapping(path, item, ("up_to", "packs"))
        steps.append(
            PackStep(
                reader.whole(f"{path}.up_to", item.get("up_to", MISSING), TABLE_SIZES),
                reader.whole(f"{path}.packs", item.get("packs", MISSING), range(1, MOST_PACKS + 1)),
            )
        )
    if len(value) > MOST_PLAYERS:
        reader.problem("packs", message(Fault.PACKS_STEPS, most=MOST_PLAYERS, size=len(value)))
    for index, (before, after) in enumerate(zip(steps, steps[1:], strict=False), start=1):
        if after.up_to <= before.up_to:
            reader.problem(f"packs[{index}].up_to", message(Fault.PACKS_ORDER))
    return tuple(steps)


def _jokers(reader: Reader, value: object, default: Mapping[str, Any]) -> Jokers:
    value = reader.mapping("jokers", value, ("fixed", "per_pack"))
    return Jokers(
        fixed=reader.whole("jokers.fixed", value.get("fixed", default["fixed"]), FIXED_JOKERS),
        per_pack=reader.whole(
            "jokers.per_pack", value.get("per_pack", default["per_pack"]), JOKERS_PER_PACK
        ),
    )


def _deals(reader: Reader, value: object) -> tuple[Deal, ...]:
    if not isinstance(value, LISTS) or not 1 <= len(value) <= MOST_DEALS:
        count = len(value) if isinstance(value, LISTS) else shown(value)
        reader.problem("deals", message(Fault.DEALS, most=MOST_DEALS, value=count))
        value = value[:MOST_DEALS] if isinstance(value, LISTS) else []
    return tuple(_deal(reader, f"deals[{index}]", item) for index, item in enumerate(value))


def _deal(reader: Reader, path: str, value: object) -> Deal:
    value = reader.mapping(path, value, _DEAL)
    cards = reader.whole(f"{path}.cards", value.get("cards", MISSING), DEALT)
    contract = value.get("contract", MISSING)
    if contract is SKIP:
        contract = []
    elif not isinstance(contract, LISTS) or not 1 <= len(contract) <= MOST_MELDS:
        if contract is MISSING:
            said = message(Fault.CONTRACT_MISSING, most=MOST_MELDS)
        else:
            count = len(contract) if isinstance(contract, LISTS) else shown(contract)
            said = message(Fault.CONTRACT, most=MOST_MELDS, value=count)
        reader.problem(f"{path}.contract", said)
        contract = contract[:MOST_MELDS] if isinstance(contract, LISTS) else []
    needs = tuple(
        _need(reader, f"{path}.contract[{index}]", item) for index, item in enumerate(contract)
    )
    return Deal(
        cards,
        needs,
        reader.flag(f"{path}.whole_hand", value.get("whole_hand", False)),
        _deal_cap(reader, path, value.get("wild_max")),
    )


def _deal_cap(reader: Reader, path: str, value: object) -> int | None:
    """A deal's own cap on wild cards (R12.3): none when it is left out or null, or when the
    deal is no object (its problem is said at the deal)."""
    return None if value is SKIP else reader.limit(f"{path}.wild_max", value, WILD_CAPS)


def _need(reader: Reader, path: str, value: object) -> Need:
    value = reader.mapping(path, value, ("kind", "size"))
    kind = reader.choice(f"{path}.kind", value.get("kind", MISSING), MeldKind)
    if kind is None:
        # Which sizes are allowed depends on the kind: nothing more to say about the size.
        return Need(MeldKind.SET, SET_SIZES.start)
    return Need(kind, reader.whole(f"{path}.size", value.get("size", kind.least), kind.sizes))


def _naturals(reader: Reader, value: object, default: Mapping[str, Any]) -> Naturals:
    value = reader.mapping("naturals", value, ("set", "run", "wild_at_most_natural"))
    return Naturals(
        set=reader.whole("naturals.set", value.get("set", default["set"]), range(1, 9)),
        run=reader.whole("naturals.run", value.get("run", default["run"]), range(1, 15)),
        wild_at_most_natural=reader.flag(
            "naturals.wild_at_most_natural",
            value.get("wild_at_most_natural", default["wild_at_most_natural"]),
        ),
    )


def _buying(reader: Reader, value: object, default: Mapping[str, Any]) -> Buying:
    value = reader.mapping("buying", value, _BUYING)
    return Buying(
        allowed=reader.flag("buying.allowed", value.get("allowed", default["allowed"])),
        per_deal=reader.limit(
            "buying.per_deal", value.get("per_deal", default["per_deal"]), BUY_LIMITS
        ),
        per_game=reader.limit(
            "buying.per_game", value.get("per_game", default["per_game"]), BUY_LIMITS
        ),
        penalty_cards=reader.whole(
            "buying.penalty_cards",
            value.get("penalty_cards", default["penalty_cards"]),
            PENALTY_CARDS,
        ),
        take_several=reader.flag(
            "buying.take_several", value.get("take_several", default["take_several"])
        ),
    )


def _playable(rules: Settings, reader: Reader) -> None:
    """R11's "A rule set is playable when…" and R12.3's conditions, each on settings that were
    read without a problem, or on the values every valid fix of a refused one would keep
    (`_seated`): a refused setting stands for a guess, and a guess proves nothing. A contract
    that cannot fit the hand is named even when the table sizes are wrong: it does not depend
    on them.

    R12.3's `wild_spacing` never makes a contract unplayable: a run may always be laid with
    no wild card, and one wild card in a run has no other to keep apart from. Nor does
    `direction`: the exact-cut packet is the same either way."""
    table = _seated(rules, reader) if reader.clean("jokers") else None
    for index, deal in enumerate(rules.deals):
        path = f"deals[{index}]"
        if reader.clean("ace"):
            _wrapped(rules, reader, path, deal)
        if not reader.clean(path) or (table and not _dealt(table, reader, path, deal)):
            continue
        if reader.clean("buying"):
            _fits(rules, reader, path, deal)
        if table and reader.clean("wild_max"):
            _natural(table, reader, path, deal)


def _wrapped(rules: Settings, reader: Reader, path: str, deal: Deal) -> None:
    """With a wrapping ace a run holds each rank once: at most 13 cards (R12.3)."""
    if rules.ace is not Ace.WRAP:
        return
    for index, need in enumerate(deal.contract):
        place = f"{path}.contract[{index}]"
        if need.kind is MeldKind.RUN and need.size > WRAPPED_RUN and reader.clean(place):
            said = message(Fault.WRAPPED_RUN, most=WRAPPED_RUN, size=need.size)
            reader.problem(f"{place}.size", said)


def _natural(rules: Settings, reader: Reader, path: str, deal: Deal) -> None:
    """Under the deal's cap on wild cards (R12.3's `wild_max`, the deal's own or the rule
    set's) each meld of the contract needs natural cards the game holds, at every table size:
    a set so many of one rank (4 a pack), a run so many of one suit in their places (13 with
    one pack; the 14-card run, with an ace at each end, needs two packs). A run of suits free
    (at most 13 cards, one of each rank) always has its natural cards."""
    cap = rules.wild_max if deal.wild_max is None else deal.wild_max
    if cap is None:
        return
    for index, need in enumerate(deal.contract):
        if need.kind is MeldKind.ANY_SUIT_RUN:
            continue
        naturals = need.size - cap
        for players in rules.table_sizes:
            packs = rules.pack_count(players)
            held = 4 * packs if need.kind is MeldKind.SET else min(13 + packs - 1, RUN_SIZES[-1])
            if naturals > held:
                code = Fault.SET_NATURALS if need.kind is MeldKind.SET else Fault.RUN_NATURALS
                said = message(
                    code,
                    size=need.size,
                    cap=cap,
                    naturals=naturals,
                    players=players,
                    held=held,
                    packs=packs,
                )
                reader.problem(f"{path}.contract[{index}]", said)
                break


def _seated(rules: Settings, reader: Reader) -> Settings | None:
    """The rules whose table sizes every deal is checked at: their own when both table sizes
    are read, in order, and each has its number of packs.

    One refused table size assumes the one size every valid fix keeps: `players.max` alone when
    `players.min` is refused (any valid fewest is at most the most), `players.min` alone when
    `players.max` is; the deals are checked at it when the packs cover it. None when
    both are refused, when the players are no object or hold an unknown key (either size may be
    meant), or when the packs were refused (no table size's cards are known)."""
    refused = reader.refused("players")
    if refused - {"players.min", "players.max"} or len(refused) == 2:
        return None
    if not refused and rules.min_players > rules.max_players:
        said = message(Fault.PLAYERS_ORDER, most=rules.max_players, fewest=rules.min_players)
        reader.problem("players.max", said)
        return None
    if not reader.clean("packs"):
        return None
    covered = max(step.up_to for step in rules.packs)
    if refused:
        kept = rules.max_players if "players.min" in refused else rules.min_players
        return replace(rules, min_players=kept, max_players=kept) if kept <= covered else None
    if covered < rules.max_players:
        sizes = (
            f"{rules.max_players}"
            if covered + 1 == rules.max_players
            else f"{max(covered + 1, rules.min_players)}–{rules.max_players}"
        )
        reader.problem("packs", message(Fault.PACKS_SHORT, sizes=sizes, covered=covered))
        return None
    return rules


def _dealt(rules: Settings, reader: Reader, path: str, deal: Deal) -> bool:
    """Every table size can deal every hand and turn the upcard with a stock left (R2, R11)."""
    short = [
        players
        for players in rules.table_sizes
        if players * deal.cards + 1 >= rules.pack_size(players)
    ]
    if not short:
        return True
    players, others = short[0], short[1:]
    needed = players * deal.cards + 1
    nor = message(Fault.NOR, others=joined(Join.COMMA, others)) if others else ""
    said = message(
        Fault.NO_STOCK,
        players=players,
        cards=deal.cards,
        needed=needed,
        pack=rules.pack_size(players),
        nor=nor,
    )
    reader.problem(f"{path}.cards", said)
    return False


def _fits(rules: Settings, reader: Reader, path: str, deal: Deal) -> None:
    """The contract fits the hand after the draw and the buys the limits allow, less the card
    kept for the discard (none in a whole-hand deal) (R11)."""
    discard = 0 if deal.whole_hand else 1
    needed = deal.contract_cards + discard
    buys = rules.buying.buys_in_a_deal()
    held = deal.cards + 1
    if buys is None or needed <= held + 2 * buys:
        return
    reason = message(Fault.NO_BUYING) if buys == 0 else message(Fault.EVEN_WITH, buys=buys)
    said = message(
        Fault.TOO_SMALL,
        held=held,
        dealt=deal.cards,
        contract=deal.contract_text(),
        discard=message(Fault.AND_DISCARD) if discard else "",
        needed=needed,
        why=reason,
    )
    reader.problem(f"{path}.cards", said)
