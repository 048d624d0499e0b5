"""R5 Opening search: can this hand go down, and how?

`solve_opening(hand, round_number, rules, players)` answers for the cards held after the draw:
a deal looks for its contract inside the hand with at least one card kept for the discard; a
whole-hand deal (the default rules' round 7) looks for a split of the whole hand into its melds. The answer is exact (never a
wrong "no", never an illegal "yes") and fast enough to run on every tap: the search works on
card counts, never on physical cards, and only the arrangement it finally returns is made of
real cards.

The search lives in five modules, each with the reasoning that makes it exact:
search.py (the hand as counts; rounds 1-6: runs first, then the sets they leave), runs.py (a run
as a `Run` value, and the tables of positions the search reads), whole_hand.py
(round 7: 3 runs that use every card), arrangement.py (the opening found, made of real cards)
and refusals.py (each reason for a "no", with its rule and message); general.py searches the
contracts and settings only a rule set asks (R11: sizes above the least, three runs beside the
sets, whole-hand deals with sets, wild deuces, no more wild cards than natural ones). This module
is the public entry point: it checks the input (R1), runs the search, and names the deciding
rule, R11 where only the rule set's settings decide.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import Card, declared_text, parse_cards
from ..citing import cite_deal
from ..contracts import Contract, contract
from ..errors import SizeError
from ..melds import MIN_RUN, MIN_SET, RUN, SET, WILD_AT_MOST_NATURAL, naturals_needed_text
from ..ruleset import RuleSet
from ..verdict import Problem, Verdict
from .arrangement import realise
from .general import OutOfSteps, solve_general
from .refusals import contract_text, plural
from .search import Search
from .whole_hand import early_refusal, solve_whole

# The most cards a hand may hold for the search: a hand after several purchases fits easily.
HAND_LIMIT = 30

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
        raise SizeError(
            f"{len(cards)} cards is more than the {HAND_LIMIT} a hand may hold for the opening check"
        )
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
    kinds = [kind for kind, count in ((SET, deal.sets), (RUN, deal.runs)) if count]
    return None, Problem(
        f"{rules.rules_name}: {naturals_needed_text(rules, kinds)}, and these "
        f"{search.size} cards cannot make {contract_text(deal)} with that many natural cards.",
        "R11:naturals",
    )


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
    Raises `SizeError` above HAND_LIMIT cards, `CopyLimitError` for impossible copies and
    `RulesError` for rank-only cards, a bad round, rule set or player count.
    """
    deal = contract(round_number, rules)
    return cite_deal(_solve(hand, deal, rules, players), rules, deal.round)


def _solve(hand: Sequence[Card] | str, deal: Contract, rules: RuleSet, players: int | None):
    """`solve_opening`'s verdict on the rules of R1-R10 and the settings that decide it."""
    cards = _hand_cards(hand)
    search = Search(cards, deal, rules, rules.pack_count(players), rules.joker_count(players))
    if needs_general(deal, rules):
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
        reason = f"{rules.rules_name} allow opening melds above 3 and 4 cards. {reason}"
        rule = "R11:exact_sizes"
    details = {"melds": melds, "readings": readings, "kinds": kinds, "left": left}
    return Verdict(True, reason, rule, {**details, "declared": declared(melds, readings)})


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
    if deal.whole_hand:
        return deal.sets > 0 or deal.runs > 3
    return deal.runs > 2


def _found_reason(deal: Contract, melds, left) -> str:
    shown = " + ".join(" ".join(meld) for meld in melds)
    if deal.whole_hand:
        return f"The whole hand goes down as {contract_text(deal)}: {shown}."
    return (
        f"This hand can go down with {contract_text(deal)}: {shown}, "
        f"keeping {plural(len(left), 'card')} for the discard."
    )


def _general(cards, search: Search, deal: Contract, rules: RuleSet) -> Verdict:
    """The opening under any contract or setting (general.py), with its reason and rule."""
    empty = {"melds": [], "readings": [], "kinds": [], "left": search.texts, "declared": []}
    if rules.wild_deuces:
        empty["wild_deuces"] = []
    found = solve_general(cards, deal, rules)
    if found is None:
        return _general_refusal(cards, search, deal, rules).verdict(empty)
    melds, readings, kinds, deuces, left = found
    details = {"melds": melds, "readings": readings, "kinds": kinds, "left": left}
    details["declared"] = declared(melds, readings)
    reason = _found_reason(deal, melds, left)
    if rules.wild_deuces:
        details["wild_deuces"] = deuces
        marks = [mark for meld in deuces for mark in meld]
        if marks:
            # The fewest wild 2s are tried first: with every 2 natural, no opening exists.
            words = ", ".join(
                f"the {mark.split('=')[0]} is wild here, standing for {mark.split('=')[1]}"
                for mark in marks
            )
            reason = f"{rules.rules_name}: {words}. {reason}"
            return Verdict(True, reason, "R11:wild_deuces", details)
    return Verdict(True, reason, WHOLE_HAND if deal.whole_hand else LAID, details)


def _general_refusal(cards, search: Search, deal: Contract, rules: RuleSet) -> Problem:
    """Why no opening exists: too few cards (R5), or only a setting of the rules (R11), or none."""
    discard = 0 if deal.whole_hand else 1
    least = deal.least_cards + discard
    if len(cards) < least:
        kept = ", one of them kept to discard" if discard else ""
        return Problem(
            f"{contract_text(deal)} needs at least {least} cards{kept}: this hand has "
            f"{plural(len(cards), 'card')}.",
            "R5.3" if discard else WHOLE_HAND,
        )
    made = f"these {len(cards)} cards cannot make {contract_text(deal)}"
    if rules.naturals.wild_at_most_natural and _opens(cards, deal, rules, capped=False):
        said = f"{rules.rules_name}: {WILD_AT_MOST_NATURAL}, and {made} that way."
        return Problem(said, "R11:naturals")
    house = rules.house("naturals.set") or rules.house("naturals.run")
    if house and _opens(cards, deal, rules, minimums=(1, 1)):
        kinds = [kind for kind, count in ((SET, deal.sets), (RUN, deal.runs)) if count]
        return Problem(
            f"{rules.rules_name}: {naturals_needed_text(rules, kinds)}, and {made} with that "
            "many natural cards.",
            "R11:naturals",
        )
    if deal.whole_hand:
        return Problem(
            f"There is no way to lay these {len(cards)} cards as {contract_text(deal)} "
            "using the whole hand.",
            WHOLE_HAND,
        )
    return Problem(
        f"There is no way to make {contract_text(deal)} from these {len(cards)} cards at once, "
        "each card in one meld, and still keep a card to discard.",
        LAID,
    )


# The runs a search for a refusal's citation may try: past them the reason is the plain one,
# which is true as well (no opening exists), only less specific.
CITATION_STEPS = 1000


def _opens(cards, deal: Contract, rules: RuleSet, **relaxed) -> bool:
    """Whether the hand opens with one of the rules' settings relaxed, within CITATION_STEPS."""
    try:
        return solve_general(cards, deal, rules, steps=CITATION_STEPS, **relaxed) is not None
    except OutOfSteps:
        return False


def _only_by_bigger_melds(search: Search, rules: RuleSet, melds, kinds) -> bool:
    """Whether the hand opens only because the rules allow melds above 3 / 4 cards (R11)."""
    if search.whole or rules.exact_sizes:
        return False
    sizes = {SET: MIN_SET, RUN: MIN_RUN}
    if all(len(meld) == sizes[kind] for meld, kind in zip(melds, kinds, strict=True)):
        return False
    return search.variant(search.set_naturals, search.run_naturals, True).solve_partial()[0] is None
