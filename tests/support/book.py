"""A score book driven as its users drive it, through the test client: start games (by the API
or the new-game page), record rounds, play a game to its end.

Every helper checks that the app took the write, so a test reads as what happens at the table.
The `book` fixture (tests/conftest.py) binds them to the test's client.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from scorekeeper.rules import LAST_ROUND

NAMES = ("Ann", "Bob", "Cat", "Dan")
# (who went out or None, exact cut?, {name: cards}) for one round.
Round = tuple[str | None, bool, Mapping[str, str]]


class Started(NamedTuple):
    """A game made through the API: its id and the headers that carry its edit key."""

    id: int
    headers: dict[str, str]
    data: dict[str, Any]

    @property
    def key(self) -> str:
        return self.headers["X-Game-Key"]


def new_game(
    client,
    names: Sequence[str] = NAMES,
    profile: str | None = "liverpool",
    first_dealer: str | int | None = None,
) -> Started:
    """`POST /api/games`; the first player deals unless `first_dealer` says otherwise."""
    body: dict[str, Any] = {"players": list(names), "first_dealer": first_dealer or names[0]}
    if profile is not None:
        body["profile"] = profile
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.get_json()
    data = response.get_json()
    return Started(data["id"], {"X-Game-Key": data.pop("key")}, data)


def record(
    client,
    game: Started,
    out: str | None,
    leftovers: Mapping[str, str] | None = None,
    cut_exact: bool = False,
) -> dict[str, Any]:
    """Record the next round through the API (everyone else holding a 5 unless told); the round."""
    names = game.data["players"]
    cards = dict(leftovers) if leftovers is not None else {n: "5" for n in names if n != out}
    response = client.post(
        f"/api/games/{game.id}/rounds",
        json={"out": out, "cut_exact": cut_exact, "leftovers": cards},
        headers=game.headers,
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def play(client, game: Started, rounds: Iterable[Round]) -> list[dict[str, Any]]:
    """Record these rounds in turn; their answers."""
    return [record(client, game, out, cards, cut) for out, cut, cards in rounds]


def play_rounds(client, game: Started, count: int = LAST_ROUND) -> None:
    """`count` ordinary rounds: players go out in seat order, the others hold K 5, the first
    round's cut is exact."""
    names = game.data["players"]
    for number in range(count):
        out = names[number % len(names)]
        record(client, game, out, {n: "K 5" for n in names if n != out}, number == 0)


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

    def new_game(self, *args, **kwargs) -> Started:
        return new_game(self.client, *args, **kwargs)

    def record(self, *args, **kwargs) -> dict[str, Any]:
        return record(self.client, *args, **kwargs)

    def play(self, *args, **kwargs) -> list[dict[str, Any]]:
        return play(self.client, *args, **kwargs)

    def finish(self, game: Started) -> None:
        """Play the game to its end from wherever it is."""
        played = len(self.client.get(f"/api/games/{game.id}").get_json()["rounds"])
        play_rounds(self.client, game, LAST_ROUND - played)

    def start(self, *args, **kwargs) -> int:
        return start(self.client, *args, **kwargs)

    def record_page(self, *args, **kwargs) -> None:
        record_page(self.client, *args, **kwargs)
