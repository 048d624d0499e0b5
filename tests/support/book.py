"""A score book driven as its users drive it, through the test client: start games (by the API,
through the one game builder in tests/support/games.py, or by the new-game page), record rounds,
play a game to its end.

Every helper checks that the app took the write, so a test reads as what happens at the table.
The `book` fixture (tests/conftest.py) binds them to the test's client.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import select

from scorekeeper.games.models import Player
from scorekeeper.games.names import name_key
from scorekeeper.platform.database import db
from tests.support import games
from tests.support.browserform import changed, fields_of
from tests.support.games import FlaskSender, Game, Round
from tests.support.names import NAMES


def new_game(
    client,
    names: Sequence[str] = NAMES,
    rules: games.Rules = "liverpool",
    first_dealer: str | int | None = None,
    *,
    profile: games.Rules = "",
) -> Game:
    """`POST /api/games` under `rules` (a preset's name or a document; `profile`, its older
    name, is a preset's name); the first player deals unless `first_dealer` says otherwise."""
    chosen = rules if profile == "" else profile
    return games.create_game(FlaskSender(client), names, chosen, first_dealer)


def game_with_stored_names(client, names: Sequence[str]) -> Game:
    """A game whose players are stored under `names` just as written, whatever the rules for
    a new game's names say now (names an earlier release let through): started with stand-ins,
    then renamed in the database."""
    game = new_game(client, [f"Stand-in {seat}" for seat in range(len(names))], "family")
    with client.application.app_context():
        for player in db.session.scalars(select(Player).where(Player.game_id == game.id)):
            player.name = names[player.seat]
            player.name_key = name_key(player.name)
        db.session.commit()
    return dataclasses.replace(game, names=list(names))


def record(
    client,
    game: Game,
    out: str | None,
    leftovers: Mapping[str, str] | None = None,
    cut_exact: bool = False,
) -> dict[str, Any]:
    """Record the next round through the API (everyone else holding a 5 unless told); the round."""
    return games.record(FlaskSender(client), game, out, leftovers, cut_exact)


def play(client, game: Game, rounds: Iterable[Round]) -> list[dict[str, Any]]:
    """Record these rounds in turn; their answers."""
    return games.play(FlaskSender(client), game, rounds)


def play_rounds(client, game: Game, count: int | None = None) -> None:
    """`count` ordinary rounds, all the game's deals when not given (see `games.play_rounds`)."""
    games.play_rounds(FlaskSender(client), game, count)


def start_edited(client, **changes: str) -> tuple[int, str]:
    """Start a game through the new-game page as a browser without script posts it, the
    editor's fields (filled with the picked rules) changed as given; its id and its page's
    address."""
    fields = fields_of(client.get("/games/new").get_data(as_text=True))
    seated = {f"names-{seat}": name for seat, name in enumerate(NAMES)}
    answer = client.post("/games/new", data=changed(fields, **seated, first_dealer="0", **changes))
    assert answer.status_code == 302, answer.get_data(as_text=True)
    return int(answer.location.rsplit("/", 1)[1]), answer.location


def start(client, names: Sequence[str] = NAMES, profile="liverpool", first_dealer="0") -> int:
    """Start a game through the new-game page (the client's cookie jar keeps its key); its id."""
    data = {f"names-{i}": name for i, name in enumerate(names)}
    data.update(profile=profile, first_dealer=first_dealer)
    response = client.post("/games/new", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    return int(response.location.rsplit("/", 1)[1])


def round_form(out: str | None, cut_exact: bool = False, names=NAMES, **cards: str) -> dict:
    """The round form's data by names: round_form("Cat", Ann="A K"); None: nobody went out."""
    data = {"out": "nobody" if out is None else str(names.index(out))}
    if cut_exact:
        data["cut_exact"] = "y"
    data.update({f"cards_{names.index(name)}": text for name, text in cards.items()})
    return data


def record_page(client, game_id: int, out="Cat", cut_exact=False, names=NAMES, **cards) -> None:
    """Record the next round through the round form (everyone else holding a 5 unless told)."""
    cards = cards or {name: "5" for name in names if name != out}
    response = client.post(
        f"/games/{game_id}/rounds/new", data=round_form(out, cut_exact, names, **cards)
    )
    assert response.status_code == 302, response.get_data(as_text=True)


def with_key(client, key: str):
    """Send this edit key in X-Game-Key with every request of this client."""
    client.environ_base["HTTP_X_GAME_KEY"] = key
    return client


def rounds_url(game: Mapping[str, Any], number: int | None = None) -> str:
    """`/api/games/<id>/rounds`, or one round's URL, for a game as the API returned it."""
    base = f"/api/games/{game['id']}/rounds"
    return base if number is None else f"{base}/{number}"


class Book:
    """The helpers above, bound to one test client: `book.new_game()`, `book.record(game, "Ann")`."""

    def __init__(self, client):
        self.client = client

    def new_game(self, *args, **kwargs) -> Game:
        return new_game(self.client, *args, **kwargs)

    def record(self, *args, **kwargs) -> dict[str, Any]:
        return record(self.client, *args, **kwargs)

    def play(self, *args, **kwargs) -> list[dict[str, Any]]:
        return play(self.client, *args, **kwargs)

    def finish(self, game: Game) -> None:
        """Play the game to its end from wherever it is."""
        now = self.client.get(f"/api/games/{game.id}").get_json()
        play_rounds(self.client, game, now["last_round"] - len(now["rounds"]))

    def start(self, *args, **kwargs) -> int:
        return start(self.client, *args, **kwargs)

    def record_page(self, *args, **kwargs) -> None:
        record_page(self.client, *args, **kwargs)
