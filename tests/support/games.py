"""Games made and played through the app's public entry points: the JSON API for games and
rounds, the edit link for the key cookie a scorekeeper's tablet holds.

This is the one place that knows how a test makes a game and records its rounds. It speaks to the
app through a thin `Sender`: `server.Client` for a live server, `FlaskSender` for Flask's test
client (the `book` fixture), `PageSender` for a browser page's own requests (tablet.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any, Protocol
from urllib.parse import quote

from scorekeeper.games import keys
from scorekeeper.platform import security
from tests.support.names import NAMES
from tests.support.server import Response, encode, json_headers

KEY_HEADER = "X-Game-Key"
# (who went out or None, exact cut?, {name: cards}) for one round.
Round = tuple[str | None, bool, Mapping[str, str]]


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
    """What the helpers need of a client: `tests.support.server.Client`, or an adapter below."""

    def request(self, method: str, path: str, body=None, headers=None) -> Response: ...

    def send_json(self, method: str, path: str, data: Any, headers=None) -> Response: ...


def _lower(headers) -> dict[str, str]:
    return {name.lower(): value for name, value in headers.items()}


class FlaskSender:
    """A `Sender` over Flask's test client (its cookie jar carries on between requests)."""

    def __init__(self, client):
        self.client = client

    def request(self, method: str, path: str, body=None, headers=None) -> Response:
        answer = self.client.open(path, method=method, data=body, headers=dict(headers or {}))
        cookies = answer.headers.getlist("Set-Cookie")
        return Response(answer.status_code, _lower(answer.headers), answer.data, cookies)

    def send_json(self, method: str, path: str, data: Any, headers=None) -> Response:
        return self.request(method, path, encode(data), json_headers(headers))


class PageSender:
    """A `Sender` over a Playwright page's own requests (they share the page's cookies)."""

    def __init__(self, page):
        self.api = page.request

    def request(self, method: str, path: str, body=None, headers=None) -> Response:
        answer = self.api.fetch(path, method=method, data=body, headers=dict(headers or {}))
        return Response(answer.status, _lower(answer.headers), answer.body())

    def send_json(self, method: str, path: str, data: Any, headers=None) -> Response:
        return self.request(method, path, encode(data), json_headers(headers))


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

    headers = write_headers

    @property
    def last_round(self) -> int:
        """How many deals the game's own rules have, as the API answered."""
        return self.data["last_round"]

    @property
    def rounds_path(self) -> str:
        return f"/api/games/{self.id}/rounds"


Rules = str | Mapping[str, Any] | None


def game_body(
    names: Sequence[str] = NAMES, rules: Rules = None, first_dealer: str | int | None = None
) -> dict[str, Any]:
    """`POST /api/games`'s body, under `rules` (a preset's name or a document); the first player
    deals unless `first_dealer` says otherwise."""
    body: dict[str, Any] = {"players": list(names), "first_dealer": first_dealer or names[0]}
    if rules:
        body["rules"] = rules if isinstance(rules, str) else dict(rules)
    return body


def create_game(
    client: Sender,
    names: Sequence[str] = NAMES,
    rules: Rules = None,
    first_dealer: str | int | None = None,
) -> Game:
    """A new game through `POST /api/games` (which must take it)."""
    response = client.send_json("POST", "/api/games", game_body(names, rules, first_dealer))
    assert response.status == 201, (
        f"POST /api/games answered {response.status}: {response.body[:300]!r}"
    )
    data = response.json()
    # The names as the app keeps them (normalised): the ones its rounds are recorded under.
    seated = list(data.get("players", names))
    return Game(id=data["id"], names=seated, key=data.pop("key", None), data=data)


def record(
    client: Sender,
    game: Game,
    out: str | None,
    leftovers: Mapping[str, str] | None = None,
    cut_exact: bool = False,
) -> dict[str, Any]:
    """Record the game's next round through the API (everyone else holding a 5 unless told),
    which must take it; the round as answered."""
    cards = dict(leftovers) if leftovers is not None else {n: "5" for n in game.names if n != out}
    body = {"out": out, "cut_exact": cut_exact, "leftovers": cards}
    return _post_round(client, game, body)


def _post_round(client: Sender, game: Game, body: Mapping[str, Any]) -> dict[str, Any]:
    number = game.rounds + 1
    response = client.send_json("POST", game.rounds_path, body, game.write_headers)
    assert response.status == 201, (
        f"recording round {number} of game {game.id} answered {response.status}: "
        f"{response.body[:300]!r}"
    )
    answer = response.json()
    game.rounds = answer.get("number", number) if isinstance(answer, dict) else number
    return answer


def play(client: Sender, game: Game, rounds: Iterable[Round]) -> list[dict[str, Any]]:
    """Record these rounds in turn; their answers."""
    return [record(client, game, out, cards, cut) for out, cut, cards in rounds]


def play_rounds(client: Sender, game: Game, count: int | None = None, held: str = "K 5") -> None:
    """`count` ordinary rounds (all the game's deals when not given): players go out in seat
    order, the others hold `held`, the first round's cut is exact."""
    for number in range(game.last_round if count is None else count):
        out = game.names[number % len(game.names)]
        record(client, game, out, {n: held for n in game.names if n != out}, number == 0)


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
    """Record the game's next `count` rounds through the API, each a plausible one (`round_body`)."""
    for _ in range(count):
        _post_round(client, game, round_body(game.names, game.rounds + 1, salt))


def seed_game(
    client: Sender,
    rounds: int,
    names: Sequence[str] = NAMES,
    rules: Rules = None,
    salt: int = 0,
) -> Game:
    """A game with `rounds` rounds recorded (all its deals: a finished game)."""
    game = create_game(client, names, rules)
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
    held = {
        name: value for name, value in set_cookies(answer.cookies).items() if name in KEY_COOKIES
    }
    if keys_in(next(iter(held.values()), "")).get(game.id) != game.key:
        raise RuntimeError(f"the edit link of game {game.id} set no cookie holding its key")
    return held


# The cookie holding a tablet's game keys, on plain HTTP and on the score book's own HTTPS.
KEY_COOKIES = (keys.COOKIE, security.HOST_ONLY + keys.COOKIE)


def set_cookies(lines: Iterable[str]) -> dict[str, str]:
    """The cookies these `Set-Cookie` lines set: name and value."""
    jar = SimpleCookie()
    for line in lines:
        jar.load(line)
    return {name: morsel.value for name, morsel in jar.items()}


def keys_in(value: str) -> dict[int, str]:
    """The game ids and keys a key cookie's value holds, newest first (read, not checked: the
    app checks its signature)."""
    return keys.entries(value.rpartition(".")[0])


def handed_keys(lines: Iterable[str]) -> dict[int, str]:
    """The game ids and keys an answer's `Set-Cookie` lines hand the tablet, newest first."""
    cookies = set_cookies(lines)
    return next((keys_in(cookies[name]) for name in KEY_COOKIES if name in cookies), {})


def handed_key(lines: Iterable[str]) -> tuple[int, str] | None:
    """The game id and key an answer hands over (the newest its key cookie holds), if any."""
    return next(iter(handed_keys(lines).items()), None)


def held_key(client, game_id: int) -> str | None:
    """The key Flask's test client holds for the game in its key cookie, if any."""
    cookie = client.get_cookie(keys.COOKIE)
    return None if cookie is None else keys_in(cookie.value).get(game_id)


def cookie_header(cookies: Mapping[str, str]) -> dict[str, str]:
    if not cookies:
        return {}
    return {"Cookie": "; ".join(f"{name}={value}" for name, value in cookies.items())}
