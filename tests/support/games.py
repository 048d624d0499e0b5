"""Games on a live server, made through its public entry points: the JSON API for games and
rounds, the edit link for the key cookie a scorekeeper's tablet holds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any, Protocol
from urllib.parse import quote

from tests.support.server import Response

NAMES = ["Ann", "Bob", "Cat", "Dan"]
EIGHT_NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
KEY_HEADER = "X-Game-Key"


# Cards left in the hands of the players who did not go out, a few per round, all within the copy
# limits of two packs and three jokers. Rank-only entries are allowed too (the penalty needs no suit).
HANDS = [
    "K♠ 7♦",
    "JK 3♣ 3♥",
    "A♥",
    "10♦ 10♣ 4♠",
    "Q♥ 9♣",
    "2♠ 5♦ 8♥ J♣",
    "6♣",
    "K♦ K♥ 2♣",
    "7♠ JK",
    "5♥ 9♦ Q♠",
    "8♣ A♠",
    "4♦ 6♥ J♦",
]


class Sender(Protocol):
    """What the helpers need of a client: `tests.support.server.Client`, or any adapter."""

    def request(self, method: str, path: str, body=None, headers=None) -> Response: ...

    def send_json(self, method: str, path: str, data: Any, headers=None) -> Response: ...


@dataclass
class Game:
    """A game created through the API: its id, players and edit key."""

    id: int
    names: list[str]
    key: str | None = None
    rounds: int = 0
    data: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def write_headers(self) -> dict[str, str]:
        """What every write to this game sends: the edit key, when the server gave one."""
        return {KEY_HEADER: self.key} if self.key else {}

    @property
    def rounds_path(self) -> str:
        return f"/api/games/{self.id}/rounds"


def game_body(names: Sequence[str] = NAMES, profile: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"players": list(names), "first_dealer": names[0]}
    if profile:
        body["profile"] = profile
    return body


def create_game(client: Sender, names: Sequence[str] = NAMES, profile: str | None = None) -> Game:
    response = client.send_json("POST", "/api/games", game_body(names, profile))
    if response.status != 201:
        raise RuntimeError(f"POST /api/games answered {response.status}: {response.body[:300]!r}")
    data = response.json()
    return Game(id=data["id"], names=list(names), key=data.get("key"), data=data)


def round_body(names: Sequence[str], number: int, salt: int = 0) -> dict[str, Any]:
    """A plausible round: one player out (nobody in every ninth), the others holding a few cards."""
    players = len(names)
    out = None if (number + salt) % 9 == 0 else (number + salt) % players
    leftovers = {
        name: HANDS[(number * 3 + seat + salt) % len(HANDS)]
        for seat, name in enumerate(names)
        if seat != out
    }
    return {
        "out": None if out is None else names[out],
        "cut_exact": (number + salt) % 5 == 0,
        "leftovers": leftovers,
    }


def record_rounds(client: Sender, game: Game, count: int, salt: int = 0) -> None:
    """Record the game's next `count` rounds through the API."""
    for _ in range(count):
        number = game.rounds + 1
        response = client.send_json(
            "POST", game.rounds_path, round_body(game.names, number, salt), game.write_headers
        )
        if response.status != 201:
            raise RuntimeError(
                f"recording round {number} of game {game.id} answered {response.status}: "
                f"{response.body[:300]!r}"
            )
        game.rounds = number


def seed_game(
    client: Sender,
    rounds: int,
    names: Sequence[str] = NAMES,
    profile: str | None = None,
    salt: int = 0,
) -> Game:
    """A game with `rounds` rounds recorded (7: a finished game)."""
    game = create_game(client, names, profile)
    record_rounds(client, game, rounds, salt)
    return game


def key_cookie(client: Sender, game: Game) -> dict[str, str]:
    """The cookie the scorekeeper's tablet holds for the game, as the game's edit link hands it
    over (only that cookie: not the session one carrying the link's welcome message)."""
    if not game.key:
        return {}
    answer = client.request("GET", f"/games/{game.id}/join?key={quote(game.key)}")
    if answer.status != 303:
        raise RuntimeError(f"the edit link of game {game.id} answered {answer.status}")
    jar = SimpleCookie()
    for line in answer.cookies:
        jar.load(line)
    held = {name: morsel.value for name, morsel in jar.items() if morsel.value == game.key}
    if not held:
        raise RuntimeError(f"the edit link of game {game.id} set no cookie holding its key")
    return held


def cookie_header(cookies: Mapping[str, str]) -> dict[str, str]:
    if not cookies:
        return {}
    return {"Cookie": "; ".join(f"{name}={value}" for name, value in cookies.items())}
