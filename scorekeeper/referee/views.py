"""The rules-check page and the rulebook reference: thin views over `questions`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, render_template, request, url_for

from .. import rules
from ..rules import CONTRACTS, PROFILES, Profile, RulesError, get_profile
from ..rules.rulebook import COMMON_QUESTIONS, RULES
from ..scorebook import ledger, writeonce
from ..scorebook.forms import MAX_SEATS, sentence
from ..scorebook.models import Game
from . import questions
from .forms import RulesCheckForm

bp = Blueprint("referee", __name__, url_prefix="/rules")


@dataclass(frozen=True)
class Context:
    """What a question assumes: the rules, the round and the table, from a game or as chosen."""

    profile: Profile
    round: int
    players: int
    game: Game | None = None

    @property
    def seats(self) -> list[str]:
        """Every seat a table can have, by the game's names or as `Seat 1` … clockwise."""
        names = self.game.names if self.game else []
        return [names[n] if n < len(names) else f"Seat {n + 1}" for n in range(MAX_SEATS)]

    def line(self, question: questions.Question) -> str:
        """`Round 7 · Liverpool · 4 players`: the context a verdict was given in."""
        parts = [f"Round {self.round}"] if question.asks_round else []
        return " · ".join([*parts, self.profile.label, f"{self.players} players"])

    def query(self) -> dict[str, Any]:
        """The context as a link's query, so that another tab starts from it."""
        query = {"profile": self.profile.preset, "round": self.round, "players": self.players}
        return {"game": self.game.id, **query} if self.game else query


@bp.route("", methods=["GET", "POST"])
@writeonce.reads_only("the question is posted as a form; its verdict is only read")
def check():
    """Ask one question; answer with the same verdict the JSON API gives."""
    question = questions.TABS.get(request.args.get("q", "meld"))
    if question is None:
        abort(404)
    game = _game()
    context = _context(game, request.form if request.method == "POST" else request.args)
    form = RulesCheckForm(seats=context.seats, players=context.players)
    if request.method == "GET":
        form.profile.data = context.profile.preset
        form.round.data = context.round
        form.players.data = context.players
    verdict = None
    error = None
    if form.validate_on_submit():
        data = question.to_data(form)
        data.setdefault("players", context.players)  # the line above the verdict says so
        if game and "requests" in data:
            data["names"] = context.seats[: context.players]  # the reason names the players
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
        context=context,
        game=game,
        back=url_for("games.show_game", game_id=game.id) if game else None,
    )


@bp.get("/reference")
def reference():
    """R1-R11 in the app's own words, with the questions players ask most."""
    return render_template(
        "referee/reference.html",
        rules=RULES.values(),
        common=COMMON_QUESTIONS,
        profiles=PROFILES.values(),
        contracts=CONTRACTS,
    )


def _form_problem(form: RulesCheckForm) -> str:
    """A field the form refused (a round that does not exist, 12 players), named in one line."""
    return "; ".join(
        f"{form[name].label.text}: {messages[0]}" for name, messages in form.errors.items()
    )


def _game() -> Game | None:
    """The game the page was opened from (`?game=ID`): its seat names and rules fill the form."""
    game_id = request.args.get("game", type=int)
    return None if game_id is None else ledger.get_game(game_id)


def _context(game: Game | None, values) -> Context:
    """The game's rules, current round and table, or the defaults; then what the person chose.

    A chosen value that does not fit (an unknown profile, round 9, 12 players) is ignored here:
    the form itself reports it when the question is asked.
    """
    profile = ledger.profile_of(game) if game else get_profile()
    round_number = (ledger.next_round(game) or rules.LAST_ROUND) if game else 1
    players = len(game.names) if game else profile.default_players
    chosen = values.get("profile")
    if chosen in PROFILES:
        profile = PROFILES[chosen]
        players = min(max(players, profile.min_players), profile.max_players)
    number = values.get("round", type=int)
    if number is not None and 1 <= number <= rules.LAST_ROUND:
        round_number = number
    count = values.get("players", type=int)
    if count is not None and profile.min_players <= count <= profile.max_players:
        players = count
    return Context(profile, round_number, players, game)
