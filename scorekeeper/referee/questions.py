"""The referee's questions, asked the same way by the JSON API and the rules-check page.

Each question takes the request's fields (JSON values, or a form's values turned into them),
checks their types, calls the engine and returns a JSON-ready answer. Bad input raises a
`RulesError` whose message names the problem. `QUESTIONS` is the one registry: the API's routes,
the page's tabs, its form fields and how a verdict is shown all come from it. A buy question
reads what each asker has bought so far (`bought`), for the rules' limits (R8, R11).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

from ..games import buys, ledger
from ..games.errors import HandRefused, NoSuchGame, NoSuchRuleSet
from ..games.models import Game
from ..games.names import name_key
from ..games.roundvalues import Hand, check_hand
from ..platform.http import ApiError, field
from ..platform.language import speaker, spoken
from ..rules import Card, parse_cards
from ..rules.buying import check_buy, seat_labels
from ..rules.citing import applied
from ..rules.discards import check_take, check_throw
from ..rules.errors import InputError, RuleSetError
from ..rules.melds import check_meld
from ..rules.opening.laid import check_opening
from ..rules.opening.solver import solve_opening
from ..rules.ruleset import DEFAULT_RULES, MOST_MELDS, MOST_PLAYERS, PRESETS, RuleSet
from ..rules.scoring import value_citation
from ..rules.table import check_layoff, check_swap
from ..rulesets import choice as rulechoice
from .forms import BUYS_FIELDS

MAX_MELDS = 6
MAX_REQUESTS = 16
# The fields that may name the rules; at most one of them in a question.
RULES_FIELDS = ("rules", "profile", "game", "ruleset")

Data = dict[str, Any]
# The longest value a message quotes whole.
SHOWN = 40


class ProblemsError(InputError):
    """A field with several problems, each named: answered as `{"error", "problems"}`."""

    def __init__(self, message: str, problems: dict[str, str]):
        super().__init__(message)
        self.problems = problems


def bought(
    data: Data, rules: RuleSet, players: int, names: list[str] | None
) -> tuple[dict[int, int], dict[int, int]]:
    """Each asker's buys so far, by seat index, in the deal and in the game (R11's limits).

    `"bought"` maps a player's name, or a seat number from 1 when no names are given, to a
    count as the rules' limit counts it: this deal's buys where the limit is a deal's, this
    game's where it is a game's; `{"deal": n, "game": m}` where the rules limit both. Every
    problem is named at once.
    """
    given = field(data, "bought", dict, required=False) or {}
    if len(given) > MOST_PLAYERS:
        raise InputError(
            _(
                "'bought' names %(given)s players: a table has at most %(most)s",
                given=len(given),
                most=MOST_PLAYERS,
            )
        )
    limits = [what for what, limit in _limits(rules) if limit is not None]
    seats = {name_key(name): seat for seat, name in enumerate(names or [])}
    problems: dict[str, str] = {}
    in_deal: dict[int, int] = {}
    in_game: dict[int, int] = {}
    for key, count in given.items():
        where = f"bought.{key}"
        seat = _bought_seat(key, seats, names, players)
        if isinstance(seat, str):
            problems[where] = seat
            continue
        counts = _bought_counts(count, limits)
        if isinstance(counts, str):
            problems[where] = counts
            continue
        for what, number in counts.items():
            (in_deal if what == "deal" else in_game)[seat] = number
    if problems:
        raise ProblemsError(
            ngettext(
                "'bought' has a problem: %(problems)s",
                "'bought' has %(num)s problems: %(problems)s",
                len(problems),
                problems="; ".join(f"{where}: {why}" for where, why in problems.items()),
            ),
            problems,
        )
    return in_deal, in_game


def _limits(rules: RuleSet) -> tuple[tuple[str, int | None], ...]:
    return (("deal", rules.buying.per_deal), ("game", rules.buying.per_game))


def _shown(value: object) -> str:
    """A value as a message quotes it, cut short: a key may be as long as the body."""
    text = repr(value)
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"


def _bought_seat(key: str, seats: dict[str, int], names: list[str] | None, players: int):
    """The seat index a `bought` key names, or what is wrong with it."""
    if names:
        seat = seats.get(name_key(key.strip()))
        if seat is not None:
            return seat
        return _("%(key)s is not a player: %(names)s", key=_shown(key), names=", ".join(names))
    if not key.strip().isdigit() or not 1 <= int(key) <= players:
        return _(
            "%(key)s is no seat: without names, seats are numbered 1 to %(players)s",
            key=_shown(key),
            players=players,
        )
    return int(key) - 1


def _bought_counts(count: object, limits: list[str]) -> dict[str, int] | str:
    """A `bought` value as counts by what each limit counts, or what is wrong with it."""
    if isinstance(count, dict):
        unknown = [key for key in count if key not in ("deal", "game")]
        if unknown:
            return _(
                "counts buys in a 'deal' or a 'game', not %(given)s",
                given=", ".join(map(_shown, unknown)),
            )
        counts = count
    elif len(limits) == 2:
        return _(
            'these rules limit buys both a deal and a game: give {"deal": n, "game": m}, '
            "not %(given)s",
            given=_shown(count),
        )
    else:
        counts = {limits[0] if limits else "deal": count}
    for what, number in counts.items():
        in_deal = what == "deal"
        if isinstance(number, bool) or not isinstance(number, int):
            if in_deal:
                return _(
                    "the buys this deal must be a whole number, not %(given)s", given=_shown(number)
                )
            return _(
                "the buys this game must be a whole number, not %(given)s", given=_shown(number)
            )
        if number < 0:
            if in_deal:
                return _("the buys this deal cannot be %(given)s", given=number)
            return _("the buys this game cannot be %(given)s", given=number)
    return dict(counts)


def _cards(data: Data, name: str, *, rank_only: bool = False) -> tuple[Card, ...]:
    """A cards field: one string in R1 notation, or a list of such strings."""
    value = field(data, name, (str, list))
    cards = parse_cards(value, rank_only=rank_only)
    if not cards:
        raise InputError(_("'%(name)s' holds no cards", name=name))
    return cards


def asked_game(data: Data) -> Game | None:
    """The game a question names (`"game": id`), or None; 404 when there is no such game."""
    game_id = field(data, "game", int, required=False)
    if game_id is None:
        return None
    try:
        return ledger.get_game(game_id, scores=False)
    except NoSuchGame as missing:
        raise ApiError(str(missing), 404) from None


def asked_ruleset(data: Data) -> RuleSet | None:
    """The rules of the saved rule set a question names (`"ruleset": id`), or None; 404 when
    there is no such saved rule set."""
    ruleset_id = field(data, "ruleset", int, required=False)
    if ruleset_id is None:
        return None
    try:
        return rulechoice.saved(ruleset_id).rules
    except NoSuchRuleSet as missing:
        raise ApiError(str(missing), 404) from None


def named_rules(value: str) -> rulechoice.Chosen | None:
    """The rules `"rules"` names as a page's picker would (`ruleset:<id>`, `code:<code>`,
    `game:<id>`, a preset's key), or None for another value (a preset's name in any case, a
    document's text); 404 for a saved rule set or game that is not there, and a damaged share
    code is refused naming the problem."""
    try:
        return rulechoice.named(value)
    except (NoSuchRuleSet, NoSuchGame) as missing:
        raise ApiError(str(missing), 404) from None


def asked_rules(data: Data) -> tuple[RuleSet, Game | None]:
    """The rules a question is asked under: `"rules"` (a preset's name, a document, or a value
    a page's picker sends: `ruleset:<id>`, `code:<share code>`, `game:<id>`), `"profile"` (a
    preset's name), a saved rule set (`"ruleset"`: its id) or the stored rules of `"game"`;
    liverpool when none."""
    given = [name for name in RULES_FIELDS if data.get(name) is not None]
    if len(given) > 1:
        raise InputError(
            _(
                "give the rules once: %(names)s both name them",
                names=_(" and ").join(repr(name) for name in given),
            )
        )
    game = asked_game(data)
    if game is not None:
        return ledger.rules_of(game), game
    saved = asked_ruleset(data)
    if saved is not None:
        return saved, None
    if data.get("rules") is not None:
        value = data["rules"]
        if not isinstance(value, str | dict):
            raise RuleSetError(
                _("'rules' must be a preset's name or a rule set document"),
                {
                    "rules": _(
                        "a preset's name (%(presets)s) or a document, not %(given)s",
                        presets=", ".join(PRESETS),
                        given=_kind(value),
                    )
                },
            )
        chosen = named_rules(value) if isinstance(value, str) else None
        if chosen is not None:
            return chosen.rules, chosen.game
    else:
        value = field(data, "profile", str, required=False)
    return (DEFAULT_RULES if value is None or value == "" else RuleSet.parse(value)), None


def _kind(value: object) -> str:
    """What a JSON value is, in a few words (never the value itself, which may be long)."""
    if isinstance(value, bool):
        return "true/false"
    return "a list" if isinstance(value, list) else "a number"


def _rules(data: Data) -> tuple[RuleSet, int]:
    """The rules (default liverpool) and the number of players (default: the game's, or the
    rules' usual table)."""
    rules, game = asked_rules(data)
    given = field(data, "players", int, required=False)
    if given is None and game is not None:
        given = len(game.players)
    return rules, rules.check_players(given)


def _round(data: Data, rules: RuleSet) -> int:
    """The deal (round) number, one of the rules' deals."""
    return rules.check_deal(field(data, "round", int))


def _opened_this_turn(data: Data) -> bool:
    return field(data, "opened_this_turn", bool, required=False, default=False)


def _left(data: Data) -> int | None:
    left = field(data, "left", int, required=False)
    if left is not None and left < 0:
        raise InputError(
            _("'left' counts the cards still in hand, so it cannot be %(left)s", left=left)
        )
    return left


def answered(rules: RuleSet, answer: Data) -> Data:
    """An answer with the rule set it applied (`rule_set`: its key, name and one-line summary),
    so that every answer says which rules it judged by (R11's citing)."""
    return {**answer, "rule_set": applied(rules)}


def meld(data: Data) -> Data:
    """Is this a meld? (R4)"""
    rules, players = _rules(data)
    return answered(rules, check_meld(_cards(data, "cards"), rules, players).to_dict(speaker()))


def opening(data: Data) -> Data:
    """Is this opening legal? (R5)"""
    rules, players = _rules(data)
    round_number = _round(data, rules)
    melds = field(data, "melds", list)
    if not melds:
        raise InputError(_("'melds' is empty: list the melds laid down, e.g. [\"7♣ 7♦ 7♥\"]"))
    if len(melds) > MAX_MELDS:
        raise InputError(_("%(count)s melds is more than an opening can hold", count=len(melds)))
    parsed = [_cards({"meld": item}, "meld") for item in melds]
    verdict = check_opening(round_number, parsed, rules, players, left=_left(data))
    return answered(rules, verdict.to_dict(speaker()))


def layoff(data: Data) -> Data:
    """Can I lay this off? (R6)"""
    rules, players = _rules(data)
    verdict = check_layoff(
        _round(data, rules),
        _cards(data, "meld"),
        _cards(data, "cards"),
        _opened_this_turn(data),
        rules,
        players,
        left=_left(data),
    )
    return answered(rules, verdict.to_dict(speaker()))


def swap(data: Data) -> Data:
    """Can I swap this joker? (R7)"""
    rules, players = _rules(data)
    card = _cards(data, "card")
    if len(card) != 1:
        raise InputError(
            _(
                "'card' is the one natural card that replaces the joker, not %(count)s",
                count=len(card),
            )
        )
    verdict = check_swap(
        _round(data, rules), _cards(data, "meld"), card[0], _opened_this_turn(data), rules, players
    )
    return answered(rules, verdict.to_dict(speaker()))


def solve(data: Data) -> Data:
    """Can this hand go down? (R5)"""
    rules, players = _rules(data)
    verdict = solve_opening(_cards(data, "hand"), _round(data, rules), rules, players)
    return answered(rules, verdict.to_dict(speaker()))


def take(data: Data) -> Data:
    """May I take the top discard? (R8; R12.3's `discard_draw_after_opening`)"""
    rules, _players = _rules(data)
    gone_down = field(data, "gone_down", bool, required=False, default=False)
    return answered(rules, check_take(gone_down, rules).to_dict(speaker()))


def throw(data: Data) -> Data:
    """May I discard this card? (R8; R12.3's `discard_wild`)"""
    rules, players = _rules(data)
    card = _cards(data, "card")
    if len(card) != 1:
        raise InputError(_("'card' is the one card to discard, not %(count)s", count=len(card)))
    return answered(rules, check_throw(card[0], rules, players).to_dict(speaker()))


def score(data: Data) -> Data:
    """What do these leftover cards cost? (R10, with the rules' own values: R11) The hand is
    read by the one check every hand typed passes (`roundvalues.check_hand`), so a card it
    cannot read is refused in the words the round form, the API and a phone give."""
    rules, players = _rules(data)
    try:
        hand = check_hand(Hand("cards", field(data, "cards", (str, list))), rules, players)
    except HandRefused as refused:
        raise InputError(refused.message) from None
    cards = hand.cards
    rules.check_copies(cards, players)
    rule, said = value_citation(cards, rules)
    answer: Data = {
        "penalty": hand.penalty,
        "cards": [str(card) for card in cards],
        "rule": rule,
    }
    if said:
        answer["reason"] = spoken(said)
    return answered(rules, answer)


def _seat(value: object, players: int, what: str) -> int:
    """A 1-based seat number, as players count round the table, turned into the engine's index."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(
            _(
                "%(what)s must be a seat number from 1 to %(players)s, not %(given)s",
                what=what,
                players=players,
                given=repr(value),
            )
        )
    if not 1 <= value <= players:
        raise InputError(
            _(
                "%(what)s is seat %(seat)s, but a %(players)s-player table has seats 1 to "
                "%(players)s",
                what=what,
                seat=value,
                players=players,
            )
        )
    return value - 1


def _names(data: Data) -> list[str] | None:
    """The optional seat names, clockwise from seat 1, that the reason uses instead of numbers."""
    names = field(data, "names", list, required=False)
    if names is None:
        return None
    if len(names) > MAX_REQUESTS:
        raise InputError(_("%(count)s names is more than a table has players", count=len(names)))
    for index, name in enumerate(names, start=1):
        if not isinstance(name, str) or not name.strip():
            raise InputError(
                _(
                    "name %(index)s must be a player's name, not %(given)s",
                    index=index,
                    given=repr(name),
                )
            )
    return [name.strip() for name in names]


def buy(data: Data) -> Data:
    """Who gets the discard? (R8) Seats are numbered 1, 2, … clockwise; names are optional
    (a game's own when the question names the game)."""
    names = _names(data)
    rules, game = asked_rules(data)
    if names is None and game is not None:
        names = list(game.names)
    given = field(data, "players", int, required=False)
    players = rules.check_players(given if given is not None or not names else len(names))
    if names is not None and len(names) != players:
        raise InputError(
            _(
                "%(count)s names for %(players)s players: give one name a seat",
                count=len(names),
                players=players,
            )
        )
    requests = field(data, "requests", list)
    if len(requests) > MAX_REQUESTS:
        raise InputError(
            _("%(count)s requests is more than a table has players", count=len(requests))
        )
    asked = [
        _seat(seat, players, _("request %(number)s", number=n))
        for n, seat in enumerate(requests, start=1)
    ]
    active = _seat(field(data, "active", int), players, "'active'")
    last_buyer = field(data, "last_buyer", int, required=False)
    if last_buyer is not None:
        last_buyer = _seat(last_buyer, players, "'last_buyer'")
    down = field(data, "down", list, required=False) or []
    if len(down) > MAX_REQUESTS:
        raise InputError(_("%(count)s seats down is more than a table has", count=len(down)))
    gone_down = [
        _seat(seat, players, _("seat down %(number)s", number=n))
        for n, seat in enumerate(down, start=1)
    ]
    in_deal, in_game = bought(data, rules, players, names)
    if game is not None and "bought" not in data:
        # The score book counted the game's buys in its rounds: the question needs no count.
        in_game = dict(enumerate(buys.used(game)))
    verdict = check_buy(
        players, active, asked, rules, last_buyer, names, in_deal, in_game, gone_down
    )
    answer = verdict.to_dict(speaker())
    buyer = answer["buyer"]
    answer["buyer"] = None if buyer is None else buyer + 1
    answer["buyer_name"] = seat_labels(players, names)[buyer] if buyer is not None else None
    return answered(rules, answer)


def seat_counts(columns: dict[str, list[int | None]]) -> dict[str, dict[str, int]]:
    """`{"deal": [1, None, …], "game": […]}` by seat as `bought` by seat number from 1: only the
    seats and the counts given."""
    counts: dict[str, dict[str, int]] = {}
    for what, column in columns.items():
        for seat, count in enumerate(column or [], start=1):
            if count is not None:
                counts.setdefault(str(seat), {})[what] = count
    return counts


@dataclass(frozen=True)
class Entry:
    """One thing a question asks for: the form fields that hold it, its JSON name and kind.

    Kinds: `cards` (text in R1 notation), `melds` (several card fields, as a list), `count`
    (a whole number or nothing), `flag` (true or false), `seat` and `seats` (numbered from 1),
    `down` (the seats that have gone down this deal, asked where the rules keep them from the
    discard: R12.3's `discard_draw_after_opening`), `counts` (each seat's buys this deal and
    this game, as `bought` by seat number).
    """

    key: str
    kind: str
    fields: tuple[str, ...]
    placeholder: str = ""

    def value(self, form: Any) -> Any:
        """The entry as the JSON API would receive it, from the rules-check form."""
        data = [form[name].data for name in self.fields]
        if self.kind == "cards":
            return data[0] or ""
        if self.kind == "melds":
            return [text for text in data if (text or "").strip()]
        if self.kind == "flag":
            return bool(data[0])
        if self.kind in ("seats", "down"):
            return list(data[0] or [])
        if self.kind == "seat" and self.key == "last_buyer":
            return data[0] or None  # 0 is "nobody bought the previous discard"
        if self.kind == "counts":
            half = len(data) // 2
            return seat_counts({"deal": data[:half], "game": data[half:]})
        return data[0]


@dataclass(frozen=True)
class Question:
    """A rules question: its name in URLs and the API, its title, what it asks, how it answers."""

    name: str
    title: str
    entries: tuple[Entry, ...]
    answer: Callable[[Data], Data]
    yes: str = _l("LEGAL")
    no: str = _l("NOT LEGAL")
    asks_round: bool = True
    # What a verdict shows besides its reason: `readings`, `melds`, `keep`, `meld_after`.
    shows: tuple[str, ...] = ()
    melds_heading: str = _l("The melds")
    hint: Callable[[RuleSet], str] | None = None
    hint_after: str = ""
    check_what: str = _l("CHECK THE CARDS")
    # A tab of the rules-check page; the rest are asked through the JSON API only.
    on_page: bool = True

    @property
    def card_fields(self) -> tuple[str, ...]:
        """The form fields the card pad types into, first one first."""
        return tuple(
            name
            for entry in self.entries
            if entry.kind in ("cards", "melds")
            for name in entry.fields
        )

    @property
    def asks_seats(self) -> bool:
        """Whether the question has seat lists, as long as the table."""
        return any(entry.kind in ("seat", "seats", "down") for entry in self.entries)

    def to_data(self, form: Any) -> Data:
        """The form's answers to this question as the JSON API would receive them, the rules
        aside (the page adds its game or its chosen preset)."""
        data: Data = {}
        if self.asks_round:
            data["round"] = form.round.data
        if form.players.data is not None:
            data["players"] = form.players.data
        for entry in self.entries:
            data[entry.key] = entry.value(form)
        return data

    def headline(self, verdict: Data) -> str:
        """The verdict: LEGAL, CANNOT GO DOWN, "Ann gets it" (the page shows it in capitals; a
        name is written as it is, so a screen reader says it as a name)."""
        return (self.yes if self.legal(verdict) else self.no).format(**verdict)

    def hint_for(self, rules: RuleSet) -> str:
        """The hint above the question's fields, in the rules' own terms."""
        return self.hint(rules) if self.hint else ""

    @staticmethod
    def legal(verdict: Data) -> bool:
        return verdict.get("legal", verdict.get("buyer") is not None)


def opening_hint(rules: RuleSet) -> str:
    """How to lay an opening under these rules: each meld's size, and the whole-hand deals."""
    whole = [str(number) for number in rules.deal_numbers if rules.deal(number).whole_hand]
    tap = _("Tap a meld's box, then its cards.")
    if not whole:
        if rules.exact_sizes:
            return _("%(tap)s Each meld of the contract is exactly its size.", tap=tap)
        return _("%(tap)s Each meld of the contract is at least its size.", tap=tap)
    rounds = ngettext(
        "round %(rounds)s lay the whole hand as the contract, with no discard.",
        "rounds %(rounds)s lay the whole hand as the contract, with no discard.",
        len(whole),
        rounds=", ".join(whole),
    )
    if rules.exact_sizes:
        return _(
            "%(tap)s Each meld of the contract is exactly its size; %(rounds)s",
            tap=tap,
            rounds=rounds,
        )
    return _(
        "%(tap)s Each meld of the contract is at least its size; %(rounds)s", tap=tap, rounds=rounds
    )


# One field a meld, for the largest contract a rule set may have (R11).
MELD_FIELDS = tuple(f"meld{n}" for n in range(1, MOST_MELDS + 1))
_LEFT = Entry("left", "count", ("left",))
_OPENED = Entry("opened_this_turn", "flag", ("opened_this_turn",))

QUESTIONS: dict[str, Question] = {
    q.name: q
    for q in (
        Question(
            "meld",
            _l("Is this a meld?"),
            (Entry("cards", "cards", ("cards",), _l("e.g. 5♠ 6♠ JK 8♠")),),
            meld,
            shows=("readings",),
        ),
        Question(
            "opening",
            _l("Is this opening legal?"),
            (Entry("melds", "melds", MELD_FIELDS, _l("e.g. 7♣ 7♦ 7♥")), _LEFT),
            opening,
            shows=("melds",),
            hint=opening_hint,
        ),
        Question(
            "layoff",
            _l("Can I lay this off?"),
            (
                Entry("meld", "cards", ("meld",), _l("e.g. 3♠ 4♠ 5♠ 6♠")),
                Entry("cards", "cards", ("layoff_cards",), _l("e.g. 7♠")),
                _OPENED,
                _LEFT,
            ),
            layoff,
            shows=("meld_after",),
        ),
        Question(
            "swap",
            _l("Can I swap this joker?"),
            (
                Entry("meld", "cards", ("meld",), _l("e.g. 7♠ 8♠ JK 10♠")),
                Entry("card", "cards", ("card",), _l("e.g. 9♠")),
                _OPENED,
            ),
            swap,
            shows=("meld_after",),
        ),
        Question(
            "solve",
            _l("Can this hand go down?"),
            (Entry("hand", "cards", ("hand",), _l("e.g. 7♠ 7♥ 7♦ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥")),),
            solve,
            yes=_l("CAN GO DOWN"),
            no=_l("CANNOT GO DOWN"),
            shows=("melds", "keep"),
            melds_heading=_l("Lay down"),
        ),
        Question(
            "take",
            _l("May I take the top discard?"),
            (Entry("gone_down", "flag", ("gone_down",)),),
            take,
            yes=_l("YOU MAY TAKE IT"),
            no=_l("DRAW FROM THE STOCK"),
            asks_round=False,
            check_what=_l("CHECK THE QUESTION"),
        ),
        Question(
            "throw",
            _l("May I discard this card?"),
            (Entry("card", "cards", ("discard",), _l("e.g. JK")),),
            throw,
            yes=_l("YOU MAY DISCARD IT"),
            no=_l("NOT THIS CARD"),
            asks_round=False,
        ),
        Question(
            "buy",
            _l("Who gets the discard?"),
            (
                Entry("active", "seat", ("active",)),
                Entry("requests", "seats", ("requests",)),
                Entry("last_buyer", "seat", ("last_buyer",)),
                Entry("down", "down", ("down",)),
                Entry("bought", "counts", BUYS_FIELDS),
            ),
            buy,
            yes=_l("{buyer_name} gets it"),
            no=_l("Nobody buys it"),
            asks_round=False,
            hint_after=_l("Seats are numbered clockwise from 1."),
            check_what=_l("CHECK THE SEATS"),
        ),
        # The round form prices leftover cards itself: the page needs no tab for it.
        Question(
            "score",
            _l("What do these leftover cards cost?"),
            (Entry("cards", "cards", ("cards",)),),
            score,
            on_page=False,
        ),
    )
}
TABS = {name: question for name, question in QUESTIONS.items() if question.on_page}


def presets_summary() -> list[Data]:
    """Every preset, in R11's order: its key (what `"rules"` may name) and its whole document
    (what `"rules"` may send)."""
    return [{"key": key, "rules": rules.to_json()} for key, rules in PRESETS.items()]
