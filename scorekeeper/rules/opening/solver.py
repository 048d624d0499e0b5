"""R5 Opening search: can this hand go down, and how?

`solve_opening(hand, round_number, rules, players)` answers for the cards held after the draw:
a deal looks for its contract inside the hand with at least one card kept for the discard; a
whole-hand deal (the default rules' round 7) looks for a split of the whole hand into its melds. The answer is exact (never a
wrong "no", never an illegal "yes") and fast enough to run on every tap: the search works on
card counts, never on physical cards, and only the arrangement it finally returns is made of
real cards.

The search lives in four modules, each with the reasoning that makes it exact:
search.py (the hand as counts; rounds 1-6: runs first, then the sets they leave; a run as a `Run`
value with the tables of positions every search reads; each reason for a "no", with its rule and
message), whole_hand.py (round 7: 3 runs that use every card) and arrangement.py (the opening
found, made of real cards); general.py searches the
contracts and settings only a rule set asks (R11: sizes above the least, three runs beside the
sets, whole-hand deals with sets, wild deuces, no more wild cards than natural ones). This module
is the public entry point: it checks the input (R1), runs the search, and names the deciding
rule, R11 where only the rule set's settings decide.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache

from ..cards import Card, declared_text, parse_cards
from ..citing import cite_deal
from ..contracts import Contract, contract
from ..errors import SizeError, Undecided
from ..melds import (
    MIN_RUN,
    MIN_SET,
    RUN,
    SET,
    WILD_AT_MOST_NATURAL,
    naturals_needed_text,
    wraps,
)
from ..ruleset import Naturals, RuleSet
from ..verdict import Problem, Verdict
from ..words import Code, Join, Message, joined, message, words
from .arrangement import realise
from .by_melds import (
    DISTINCT,
    STEP_COST,
    UNCAPPED,
    UNSPACED,
    found_details,
    needs_melds,
    solve_by_melds,
)
from .general import OutOfSteps, solve_general
from .laid import Laid
from .search import Refusal, Search, contract_text
from .whole_hand import early_refusal, solve_whole


class Solved(Code):
    """What the solver says beside the search's refusals: a hand too large to search, the
    opening found, and why no opening exists under a contract or setting only general.py
    searches."""

    TOO_MANY = "solver.too_many"
    TOO_MANY_WAYS = "solver.too_many_ways"
    FOUND = "solver.found"
    FOUND_WHOLE = "solver.found_whole"
    WILD_DEUCES = "solver.wild_deuces"
    WILD_DEUCE = "solver.wild_deuce"
    SIZE_WHOLE = "solver.size_whole"
    HOUSE_NATURALS = "solver.house_naturals"
    WILD_AT_MOST_NATURAL = "solver.wild_at_most_natural"
    WHOLE = "solver.whole"
    SAME_RANK = "solver.same_rank"
    WILD_MAX = "solver.wild_max"
    WILD_SPACING = "solver.wild_spacing"


# The most cards a hand may hold for the search: a hand after several purchases fits easily.
HAND_LIMIT = 30

# The steps the search under a rule set's own contracts and settings (general.py) may take before
# it answers `Undecided` (a step: a place looked at for a run, a run tried on it, a choice of the
# naturals it keeps, a card taken): about 40 ms of CPU on the bench's machine, where the
# slowest of 10,000 dealt shanghai hands takes 14,461 (bench/solver.py, "any rule set"). The
# searches of the default contracts (search.py, whole_hand.py) try a bounded number of runs.
SOLVE_STEPS = 40_000

# The points of R5 an opening found rests on: the contract laid at once, or the whole hand.
LAID, WHOLE_HAND = "R5.1", "R5.4"


def _hand_cards(hand) -> list[Card]:
    """The hand as a list of cards (text is parsed), within the size limit."""
    if isinstance(hand, str):
        cards = list(parse_cards(hand))
    else:
        cards = list(hand)
        if str in {type(item) for item in cards}:
            cards = list(parse_cards(cards))
    if len(cards) > HAND_LIMIT:
        raise SizeError(message(Solved.TOO_MANY, size=len(cards), limit=HAND_LIMIT))
    return cards


def _search(search: Search):
    """The contract's search on these counts: round 7's or rounds 1-6's (R5)."""
    return solve_whole(search) if search.whole else search.solve_partial()


def _early_refusal(search: Search):
    """What refuses the hand before the search proper (see `Search.early_refusal`), or None."""
    return early_refusal(search) if search.whole else search.early_refusal()


def _opening(search: Search, deal: Contract, rules: RuleSet):
    """(the opening found as (runs, sets), None), or (None, why not, on the rule that decides it).

    Where the rules raise the natural-card minimums (R11), a refusal that turns on them is
    searched again on the same counts with one natural a meld (R4's minimum, as every other
    rule set has it): if that search finds an opening, the house minimum alone refuses (R11,
    rules named); if not, the default rules refuse as well, and the reason is theirs.

    Any opening under the house minimums is one under R4's too, so when the search with one
    natural a meld refuses before any run is fitted (too few cards or naturals, no sets, no run:
    cheap checks), its reason is the answer at once, and the house search is not needed (a
    refusal no minimum decides, too few cards or four suits in round 7, reads the same either
    way).
    """
    house = rules.house("naturals.set") or rules.house("naturals.run")
    if house:
        relaxed = search.variant(1, 1, search.exact)
        refusal = _early_refusal(relaxed)
        if refusal is not None:
            return None, refusal.problem(relaxed, deal)
    found, refusal = _search(search)
    if found is not None:
        return found, None
    if not house or not refusal.turns_on_naturals:
        return None, refusal.problem(search, deal)
    found, refusal = _search(relaxed)
    if found is None:
        return None, refusal.problem(relaxed, deal)
    return None, _house_naturals(rules, deal, search.size)


def solve_opening(
    hand: Sequence[Card] | str,
    round_number: int,
    rules: RuleSet,
    players: int | None = None,
) -> Verdict:
    """Can this hand (the cards held after the draw) go down in this deal? (R5)

    Legal means an opening exists; `details` then gives one: `melds` (the hand's own cards, sets
    first, runs low to high), `readings` (the same with each wild card replaced by the card it
    stands for, or by the rank alone in a set), `kinds` ("set" / "run") and `left` (the cards
    kept; none in a whole-hand deal); with wild deuces, `wild_deuces` too (each meld's wild 2s as
    `2♥=7♠`). Otherwise `melds` is empty and `left` is the whole hand.
    Raises `SizeError` above HAND_LIMIT cards, `Undecided` when a rule set's own contract has
    more ways to try than SOLVE_STEPS (never a verdict not checked), `CopyLimitError` for
    impossible copies and `RulesError` for rank-only cards, a bad round, rule set or player
    count.
    """
    deal = contract(round_number, rules)
    return cite_deal(_solve(hand, deal, rules, players), rules, deal.round)


def _solve(hand: Sequence[Card] | str, deal: Contract, rules: RuleSet, players: int | None):
    """`solve_opening`'s verdict on the rules of R1-R10 and the settings that decide it."""
    cards = _hand_cards(hand)
    search = Search(cards, deal, rules, rules.pack_count(players), rules.joker_count(players))
    if needs_general(deal, rules) or needs_melds(deal, rules):
        return _general(cards, search, deal, rules)
    found, problem = _opening(search, deal, rules)
    if found is None:
        empty = {"melds": [], "readings": [], "kinds": [], "left": search.texts, "declared": []}
        return problem.verdict(empty)
    runs, ks = found
    melds, readings, kinds, left = realise(cards, search, runs, ks)
    reason = _found_reason(deal, melds, left)
    rule = WHOLE_HAND if deal.whole_hand else LAID
    if _only_by_bigger_melds(search, rules, melds, kinds):
        above = message(Laid.ABOVE_LEAST, rules=rules.rules_name)
        reason = message(Laid.HOUSE, house=above, reason=reason)
        rule = "R11:exact_sizes"
    details = {"melds": melds, "readings": readings, "kinds": kinds, "left": left}
    return _found(reason, rule, {**details, "declared": declared(melds, readings)})


def _found(said: Message, rule: str, details) -> Verdict:
    """A legal opening: the hand goes down as found."""
    return Verdict(True, words(said), rule, details, message=said)


def _problem(said: Message, rule: str) -> Problem:
    """Why no opening exists, as the solver says it."""
    return Problem(words(said), rule, message=said)


def _house_naturals(rules: RuleSet, deal: Contract, size: int) -> Problem:
    """Only the rules' natural-card minimums refuse the hand (R11)."""
    kinds = [kind for kind, count in ((SET, deal.sets), (RUN, deal.runs)) if count]
    said = message(
        Solved.HOUSE_NATURALS,
        rules=rules.rules_name,
        needed=naturals_needed_text(rules, kinds),
        size=size,
        contract=contract_text(deal),
    )
    return _problem(said, "R11:naturals")


def declared(melds: list[list[str]], readings: list[list[str]]) -> list[list[str]]:
    """The melds found, each wild card declared as what its reading shows (`JK=7`, `2♦=7♠`)."""
    return [
        [declared_text(played, shown) for played, shown in zip(meld, reading, strict=True)]
        for meld, reading in zip(melds, readings, strict=True)
    ]


def needs_general(deal: Contract, rules: RuleSet) -> bool:
    """Whether the deal asks what only general.py searches (see its docstring)."""
    if rules.wild_deuces or rules.naturals.wild_at_most_natural or not deal.at_least_sizes:
        return True
    if rules.distinct_set_ranks and deal.sets > 1:
        return True
    if deal.whole_hand:
        return deal.sets > 0 or deal.runs > 3
    return deal.runs > 2


def _found_reason(deal: Contract, melds, left) -> Message:
    """`This hand can go down with 2 sets: 7♠ 7♥ 7♦ + 9♣ 9♦ 9♥, keeping 2 cards for the
    discard.`"""
    shown = joined(Laid.PLUS, [" ".join(meld) for meld in melds])
    if deal.whole_hand:
        return message(Solved.FOUND_WHOLE, contract=contract_text(deal), melds=shown)
    return message(Solved.FOUND, contract=contract_text(deal), melds=shown, kept=len(left))


def _general(cards, search: Search, deal: Contract, rules: RuleSet) -> Verdict:
    """The opening under any contract or setting (general.py), with its reason and rule."""
    empty = {"melds": [], "readings": [], "kinds": [], "left": search.texts, "declared": []}
    if rules.wild_deuces:
        empty["wild_deuces"] = []
    # The settings the meld-by-meld search found ruling something out (None: not known).
    pruned: set[str] | None = set() if needs_melds(deal, rules) else None
    try:
        found = _solve_any(cards, deal, rules, SOLVE_STEPS, pruned=pruned)
    except OutOfSteps:
        raise Undecided(_too_many_ways(cards, deal, rules)) from None
    if found is None:
        return _general_refusal(cards, search, deal, rules, pruned).verdict(empty)
    (melds, readings, kinds, deuces, left), wrapped = found
    details = {"melds": melds, "readings": readings, "kinds": kinds, "left": left}
    details["declared"] = declared(melds, readings)
    reason = _found_reason(deal, melds, left)
    if rules.wild_deuces:
        details["wild_deuces"] = deuces
        marks = [mark.split("=") for meld in deuces for mark in meld]
        if marks:
            # The fewest wild 2s are tried first: with every 2 natural, no opening exists.
            wild = [message(Solved.WILD_DEUCE, card=card, stands_for=face) for card, face in marks]
            said = message(
                Solved.WILD_DEUCES,
                rules=rules.rules_name,
                deuces=joined(Join.COMMA, wild),
                reason=reason,
            )
            return _found(said, "R11:wild_deuces", details)
    if wrapped:
        said = message(
            Laid.HOUSE, house=message(Laid.ACE_WRAPS, rules=rules.rules_name), reason=reason
        )
        return _found(said, "R11:ace", details)
    return _found(reason, WHOLE_HAND if deal.whole_hand else LAID, details)


def _solve_any(cards, deal: Contract, rules: RuleSet, steps: int, pruned=None, **relaxed):
    """(melds, readings, kinds, wild deuces, left) of one opening and whether a run of it goes
    round the ace, or None: searched meld by meld under R12's meld settings (by_melds.py, which
    notes in `pruned` the settings that ruled something out), else on counts (general.py);
    `relaxed` names the settings searched as if the rules did not set them (`capped`,
    `minimums`, `distinct`, `uncapped`, `unspaced`)."""
    melds = needs_melds(deal, rules)
    deal, rules = _relaxed(deal, rules, **relaxed)
    if not melds:
        found = solve_general(cards, deal, rules, steps=steps)
        return None if found is None else (found, False)
    found = solve_by_melds(cards, deal, rules, steps // STEP_COST, pruned)
    if found is None:
        return None
    melds, readings = found
    return found_details(cards, melds, readings), any(wraps(reading) for reading in readings)


# A rule set and deal relaxed are the same values for every hand asked about under them.
@lru_cache(maxsize=256)
def _relaxed(
    deal: Contract,
    rules: RuleSet,
    capped=None,
    minimums=None,
    distinct=None,
    uncapped=False,
    unspaced=False,
) -> tuple[Contract, RuleSet]:
    """The deal and rules with the settings `_solve_any` names relaxed."""
    change: dict = {}
    if capped is not None or minimums is not None:
        least = minimums or (rules.naturals.set, rules.naturals.run)
        capped = rules.naturals.wild_at_most_natural if capped is None else capped
        change["naturals"] = Naturals(set=least[0], run=least[1], wild_at_most_natural=capped)
    if distinct is not None:
        change["distinct_set_ranks"] = distinct
    if unspaced:
        change["wild_spacing"] = 0
    if change:
        rules = replace(rules, **change)
    return (replace(deal, wild_max=None) if uncapped else deal), rules


def _too_many_ways(cards, deal: Contract, rules: RuleSet) -> Message:
    """The search ran out of steps: the hand, its deal and the rules, with no verdict."""
    return message(
        Solved.TOO_MANY_WAYS,
        size=len(cards),
        contract=contract_text(deal),
        rules=rules.rules_name,
    )


def _general_refusal(cards, search: Search, deal: Contract, rules: RuleSet, pruned) -> Problem:
    """Why no opening exists: too few cards (R5), or only a setting of the rules (R11), or none.
    A setting the search noted as never ruling anything out (`pruned` holds those that did,
    where the search noted them) is not searched again relaxed: the search would be the same."""
    discard = 0 if deal.whole_hand else 1
    least = deal.least_cards + discard
    hand = {"contract": contract_text(deal), "size": len(cards)}
    if len(cards) < least:
        if discard:
            return _problem(message(Refusal.SIZE, least=least, **hand), "R5.3")
        return _problem(message(Solved.SIZE_WHOLE, least=least, **hand), WHOLE_HAND)
    settings = [
        (relaxed, refusal)
        for relaxed, refusal in _settings_that_may_refuse(deal, rules)
        if pruned is None or not relaxed.keys() <= NOTED or relaxed.keys() & pruned
    ]
    if len(settings) > 1 and _opens(cards, deal, rules, **_all_relaxed(settings)) is False:
        # With every one of them relaxed at once no opening exists, so none relaxed alone finds
        # one: each search with one relaxed looks at a part of what this one looked at.
        settings = []
    for relaxed, refusal in settings:
        if _opens(cards, deal, rules, **relaxed):
            return refusal(rules, deal, hand)
    if deal.whole_hand:
        return _problem(message(Solved.WHOLE, **hand), WHOLE_HAND)
    return _problem(message(Refusal.JOINT, **hand), LAID)


def _wild_at_most_natural(rules: RuleSet, deal: Contract, hand) -> Problem:
    said = message(
        Solved.WILD_AT_MOST_NATURAL, rules=rules.rules_name, limit=WILD_AT_MOST_NATURAL, **hand
    )
    return _problem(said, "R11:naturals")


def _house_minimums(rules: RuleSet, deal: Contract, hand) -> Problem:
    return _house_naturals(rules, deal, hand["size"])


def _same_rank(rules: RuleSet, deal: Contract, hand) -> Problem:
    return _problem(
        message(Solved.SAME_RANK, rules=rules.rules_name, **hand), "R11:distinct_set_ranks"
    )


def _wild_max(rules: RuleSet, deal: Contract, hand) -> Problem:
    said = message(Solved.WILD_MAX, rules=rules.rules_name, most=deal.wild_max, **hand)
    return _problem(said, "R11:wild_max")


def _wild_spacing(rules: RuleSet, deal: Contract, hand) -> Problem:
    said = message(Solved.WILD_SPACING, rules=rules.rules_name, spacing=rules.wild_spacing, **hand)
    return _problem(said, "R11:wild_spacing")


def _settings_that_may_refuse(deal: Contract, rules: RuleSet) -> list:
    """(the setting relaxed, the refusal that names it) for each of the rules' settings that may
    alone refuse the hand (R11), in the order a refusal names them."""
    house = rules.house("naturals.set") or rules.house("naturals.run")
    settings = [
        (rules.naturals.wild_at_most_natural, {"capped": False}, _wild_at_most_natural),
        (house, {"minimums": (1, 1)}, _house_minimums),
        (rules.distinct_set_ranks and deal.sets > 1, {"distinct": False}, _same_rank),
        (deal.wild_max is not None, {"uncapped": True}, _wild_max),
        (bool(rules.wild_spacing), {"unspaced": True}, _wild_spacing),
    ]
    return [(relaxed, refusal) for applies, relaxed, refusal in settings if applies]


def _all_relaxed(settings: list) -> dict:
    """The settings' relaxations, all at once."""
    return {name: value for relaxed, _ in settings for name, value in relaxed.items()}


# The settings the meld-by-meld search notes when they rule something out.
NOTED = {UNCAPPED, UNSPACED, DISTINCT}

# The runs a search for a refusal's citation may try: past them the reason is the plain one,
# which is true as well (no opening exists), only less specific.
CITATION_STEPS = 1000


def _opens(cards, deal: Contract, rules: RuleSet, **relaxed) -> bool | None:
    """Whether the hand opens with some of the rules' settings relaxed, or None when that takes
    more than CITATION_STEPS."""
    try:
        return _solve_any(cards, deal, rules, CITATION_STEPS, **relaxed) is not None
    except OutOfSteps:
        return None


def _only_by_bigger_melds(search: Search, rules: RuleSet, melds, kinds) -> bool:
    """Whether the hand opens only because the rules allow melds above 3 / 4 cards (R11)."""
    if search.whole or rules.exact_sizes:
        return False
    sizes = {SET: MIN_SET, RUN: MIN_RUN}
    if all(len(meld) == sizes[kind] for meld, kind in zip(melds, kinds, strict=True)):
        return False
    return search.variant(search.set_naturals, search.run_naturals, True).solve_partial()[0] is None
