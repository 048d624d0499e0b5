"""The rules-check page and the rulebook reference: thin views over `questions`.

A verdict's cards show as chips: a plain card as itself, a wild card as the card played and the
place it stands for (`JK as J♦`, `2♠ wild as 7♥`), with the words a screen reader says for it
(`joker as jack of diamonds`). The engine gives each card in R1 notation with every wild card
declared (a verdict's `declared`: `JK=J♦`, `2♠=7♥`); the words are the page's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

from ..games import buys, ledger
from ..games.forms import sentence
from ..games.models import Game
from ..platform import language, writeonce
from ..rules import Card, RulesError
from ..rules.buying import seat_labels
from ..rules.cards import SUIT_NAMES
from ..rules.ruleset import PRESETS, RuleSet
from ..rules.ruleset.words import COMMON_QUESTIONS, RULES, changes_by_rule
from ..rules.seating import deals_table
from ..rulesets import choice as rulechoice
from ..rulesets.choice import Chosen
from . import questions
from .forms import GAME_RULES, RulesCheckForm, buys_field, round_choices, seat_item

bp = Blueprint("referee", __name__, url_prefix="/rules")


@dataclass(frozen=True)
class Context:
    """What a question assumes: the rules (a game's, or as chosen), the round and the table."""

    chosen: Chosen
    round: int
    players: int
    game: Game | None = None

    @property
    def rules(self) -> RuleSet:
        return self.chosen.rules

    @property
    def offered(self) -> list[Chosen]:
        """The choices the rules field offers beside the presets (none from a game): a shared
        rule set opened by its code, then the table's saved rule sets."""
        if self.game:
            return []
        shared = [self.chosen] if self.chosen.code is not None else []
        return [*shared, *rulechoice.saved_choices()]

    def offered_labels(self) -> list[tuple[str, str]]:
        """The rules field's other choices: `Ours (our table's rules)`, `Theirs (shared)`."""
        return [
            (
                c.value,
                _("%(rules)s (shared)", rules=c.rules.label)
                if c.code is not None
                else _("%(rules)s (our table's rules)", rules=c.rules.label),
            )
            for c in self.offered
        ]

    @property
    def seats(self) -> list[str]:
        """The table's seats: the game's players by name, else `Seat 1` … clockwise."""
        return list(self.game.names) if self.game else seat_labels(self.players)

    @property
    def choice(self) -> str:
        """The rules field's value: the game's rules, or the chosen ones' (see `rulechoice`)."""
        return GAME_RULES if self.game else self.chosen.value

    def whose(self) -> str:
        """`Smith family rules · Deal 8 · 5 players`: whose rules a page opened from a game
        applies, at which deal and table."""
        whose = sentence(self.rules.rules_name)
        return " · ".join([whose, _("Deal %(number)s", number=self.round), self._players()])

    def _players(self) -> str:
        return ngettext("%(num)s player", "%(num)s players", self.players)

    @property
    def stock_only(self) -> bool:
        """Whether a player who has gone down takes no discard, so the buy question asks who
        has (R12.3's `discard_draw_after_opening`)."""
        return self.rules.buying.allowed and not self.rules.discard_draw_after_opening

    @property
    def limits(self) -> list[str]:
        """What the rules' buy limits count: `deal`, `game`, both or neither."""
        return list(buys.limits(self.rules))

    def limits_text(self) -> str:
        """`Smith family rules allow 3 a game`: the limits the counts are for."""
        each = buys.limits(self.rules)
        allowed = _(" and ").join(
            _("%(limit)s a deal", limit=limit)
            if what == "deal"
            else _("%(limit)s a game", limit=limit)
            for what, limit in each.items()
        )
        return _(
            "%(rules)s allow %(allowed)s", rules=sentence(self.rules.rules_name), allowed=allowed
        )

    @property
    def most_melds(self) -> int:
        """The meld fields an opening needs: the rules' largest contract."""
        return max(len(deal.contract) for deal in self.rules.deals)

    def line(self, question: questions.Question) -> str:
        """`Round 7 of 10 · Shanghai · 4 players`: the context a verdict was given in."""
        parts = (
            [_("Round %(number)s of %(last)s", number=self.round, last=self.rules.last_deal)]
            if question.asks_round
            else []
        )
        return " · ".join([*parts, self.rules.label, self._players()])

    def query(self) -> dict[str, Any]:
        """The context as a link's query, so that another tab starts from it."""
        query = {"round": self.round, "players": self.players}
        return {"game": self.game.id, **query} if self.game else {"rules": self.choice, **query}

    def asked(self) -> dict[str, Any]:
        """How a question names these rules: the game's, a saved rule set's, or the value that
        names them (a preset's key, `code:<code>`)."""
        if self.game:
            return {"game": self.game.id}
        return (
            {"ruleset": self.chosen.saved}
            if self.chosen.saved is not None
            else {"rules": self.choice}
        )

    def script_data(self) -> dict[str, Any]:
        """What the page's script needs of each rules choice: its deals and its table sizes."""
        choices = (
            {GAME_RULES: self.rules}
            if self.game
            else {**PRESETS, **{c.value: c.rules for c in self.offered}}
        )
        return {
            key: {
                "deals": [choice.label for choice in round_choices(rules)],
                "players": [rules.min_players, rules.max_players],
            }
            for key, rules in choices.items()
        }


@bp.route("", methods=["GET", "POST"])
@writeonce.reads_only("the question is posted as a form; its verdict is only read")
def check():
    """Ask one question; answer with the same verdict the JSON API gives."""
    question = questions.TABS.get(request.args.get("q", "meld"))
    if question is None:
        abort(404)
    game = _game()
    context = _context(game, request.form if request.method == "POST" else request.args)
    form = RulesCheckForm(
        rules=context.rules,
        from_game=game is not None,
        offered=context.offered_labels(),
        seats=context.seats,
        players=context.players,
    )
    if request.method == "GET":
        form.rules.data = context.choice
        form.round.data = context.round
        form.players.data = context.players
        if game and "game" in context.limits:
            # The score book counts each player's buys in the game's rounds: the table need not.
            for seat, count in enumerate(buys.used(game), start=1):
                form[buys_field("game", seat)].data = count
    verdict = None
    error = None
    # "Show these seats" (without the page's script): the form again for the table's size.
    if "reseat" not in request.form and form.validate_on_submit():
        data = {**question.to_data(form), **context.asked()}
        data.setdefault("players", context.players)  # the line above the verdict says so
        if game and "requests" in data:
            data["names"] = context.seats  # the reason names the players
            data["bought"] = by_name(data.get("bought") or {}, data["names"])
        try:
            verdict = question.answer(data)
        except RulesError as problem:
            error = sentence(str(problem))
    elif form.errors:
        error = _form_problem(form)
    return render_template(
        "referee/check.html",
        form=form,
        question=question,
        tabs=questions.TABS,
        verdict=verdict,
        error=error,
        rule=RULES.get(verdict.get("rule")) if verdict else None,
        decided=deciding_line(verdict, context.rules) if verdict else None,
        context=context,
        game=game,
        back=url_for("games.show_game", game_id=game.id) if game else None,
        seat_item=seat_item,
    )


@bp.get("/reference")
def reference():
    """R1-R11 in the app's own words, with the questions players ask most, for the rules the
    address names (a preset, a saved or shared rule set, a game's): each setting they change
    from liverpool said beside the text of the rule it changes."""
    chosen = rulechoice.from_args(request.args)
    return render_template(
        "referee/reference.html",
        chosen=chosen,
        choices=rulechoice.choices(),
        changes=changes_by_rule(chosen.rules.differences(language.speech())),
        rules=RULES.values(),
        common=COMMON_QUESTIONS,
        presets=PRESETS.values(),
        deals=deals_table(chosen.rules),
        tables={rules.name: deals_table(rules) for rules in PRESETS.values()},
    )


@dataclass(frozen=True)
class RuleLine:
    """The line of the rulebook that decides a verdict: `R4.3` and its point, or `R11` and the
    rule set's own words for the settings that decide."""

    number: str
    text: str


def deciding_line(verdict: dict[str, Any], rules: RuleSet) -> RuleLine | None:
    """The verdict's own line (`rule_line`: a point of R1-R10; `settings`: R11's), or None
    when the verdict names none (the page then shows the whole section)."""
    rule = RULES.get(verdict.get("rule"))
    if rule is None:
        return None
    number, _dot, point = (verdict.get("rule_line") or "").partition(".")
    if number == rule.number and point.isdigit() and 0 < int(point) <= len(rule.points):
        return RuleLine(verdict["rule_line"], _(rule.points[int(point) - 1]))
    settings = verdict.get("settings") or []
    said = [
        words
        for place, words in rules.differences(language.speech())
        if any(place == name or place.startswith((f"{name}.", f"{name}[")) for name in settings)
    ]
    if not said:
        return None
    return RuleLine(
        rule.number,
        _("%(rules)s: %(changes)s.", rules=sentence(rules.rules_name), changes="; ".join(said)),
    )


def by_name(bought: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """The page's buys by seat number, keyed by the players' names as `bought` then is."""
    return {
        (names[int(seat) - 1] if seat.isdigit() and 0 < int(seat) <= len(names) else seat): count
        for seat, count in bought.items()
    }


def _form_problem(form: RulesCheckForm) -> str:
    """A field the form refused (a round that does not exist, 12 players), named in one line."""
    return "; ".join(
        _("%(field)s: %(problem)s", field=form[name].label.text, problem=messages[0])
        for name, messages in form.errors.items()
    )


def _game() -> Game | None:
    """The game the page was opened from (`?game=ID`): its seat names and rules fill the form."""
    game_id = request.args.get("game", type=int)
    return None if game_id is None else ledger.get_game(game_id)


def _context(game: Game | None, values) -> Context:
    """The game's rules, current round and table, or the defaults; then what the person chose.

    A chosen value that does not fit (an unknown preset, a round the rules do not have, more
    players than they allow) is ignored here: the question itself reports it when asked.
    """
    chosen = rulechoice.of_game(game) if game else rulechoice.DEFAULT
    rules = chosen.rules
    players = len(game.names) if game else rules.default_players
    if game is None:
        asked = values.get("rules") or values.get("profile")
        if not asked and values.get("ruleset", type=int) is not None:
            asked = f"{rulechoice.SAVED}{values.get('ruleset', type=int)}"
        if not asked and values.get("code"):
            asked = f"{rulechoice.CODE}{values['code']}"
        picked = rulechoice.pick(asked) if asked and not asked.startswith("game") else None
        if picked is not None:
            chosen, rules = picked, picked.rules
            players = min(max(players, rules.min_players), rules.max_players)
    round_number = (ledger.next_round(game) or rules.last_deal) if game else 1
    number = values.get("round", type=int)
    if number is not None and number in rules.deal_numbers:
        round_number = number
    count = None if game else values.get("players", type=int)
    if count is not None and count in rules.table_sizes:
        players = count
    return Context(chosen, min(round_number, rules.last_deal), players, game)


RANK_WORDS = {1: _l("ace"), 11: _l("jack"), 12: _l("queen"), 13: _l("king")}
# The suits as a screen reader says them (the engine's `SUIT_NAMES`, in the page's language).
SUIT_WORDS = {"S": _l("spades"), "H": _l("hearts"), "D": _l("diamonds"), "C": _l("clubs")}
# Between a wild card and what it stands for: `JK as J♦`, `2♠ wild as 7♥`.
JOKER_AS = _l("as")
DEUCE_AS = _l("wild as")


def card_words(card: Card) -> str:
    """`jack of diamonds`, `7 of spades`, `jack` (a rank alone, as a set's joker stands for)."""
    rank = str(RANK_WORDS.get(card.rank, card.rank))
    if not card.suit:
        return rank
    return _(
        "%(rank)s of %(suit)s", rank=rank, suit=SUIT_WORDS.get(card.suit, SUIT_NAMES[card.suit])
    )


@dataclass(frozen=True)
class Chip:
    """One card of a verdict: `played` is the card itself (`7♠`, `JK`, `2♠`); a wild card also
    has the place it stands for (`stands_for`, `J♦` or `J`), `joining` words and `said`, how the
    whole chip reads aloud."""

    played: str
    played_red: bool
    stands_for: str = ""
    stands_red: bool = False
    joining: str = ""
    said: str = ""

    @property
    def wild(self) -> bool:
        return bool(self.stands_for)

    @property
    def joker(self) -> bool:
        return self.played == str(Card(None, None, True))

    @property
    def shown(self) -> str:
        """The chip's text: `7♠`, `JK as J♦`, `2♠ wild as 7♥`."""
        return " ".join(part for part in (self.played, self.joining, self.stands_for) if part)


def chip(token: str) -> Chip:
    """The chip of one card in R1 notation (`7♠`, `JK=J♦`, `2♠=7♥`, a rank alone: `7`)."""
    card = Card.parse(token, rank_only=True)
    stood = card.stands_for
    if stood is None:
        return Chip(card.face(), card.red)
    played = card.physical
    if played.joker:
        joining, said = str(JOKER_AS), _("joker as %(card)s", card=card_words(stood))
    else:
        joining = str(DEUCE_AS)
        said = _("%(card)s wild as %(stands)s", card=card_words(played), stands=card_words(stood))
    return Chip(played.face(), played.red, stood.face(), stood.red, joining, said)


def chips(tokens: list[str]) -> list[Chip]:
    """The chips of a meld, a reading or a hand, in order."""
    return [chip(token) for token in tokens]
