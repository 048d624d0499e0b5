"""A season made through the score book's service, quickly: games of counted hands ("points"),
so each total is chosen, ties included."""

from __future__ import annotations

import random
from collections.abc import Sequence

from scorekeeper.games import gamelist, service
from scorekeeper.games.models import Game
from scorekeeper.games.roundvalues import RoundEntry
from scorekeeper.platform.database import db

PLAYERS = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lee")


def entry(points: Sequence[int]) -> RoundEntry:
    """A round where the seat with 0 went out and every other seat counted its points."""
    out = list(points).index(0)
    return RoundEntry.typed(
        out=out, points={seat: value for seat, value in enumerate(points) if seat != out}
    )


def round_points(rng: random.Random, seats: int) -> list[int]:
    """One round's points: one seat out (0), the others 5-60 in fives (ties come often)."""
    points = [rng.randrange(5, 65, 5) for _ in range(seats)]
    points[rng.randrange(seats)] = 0
    return points


def play_game(names: Sequence[str], rounds: Sequence[Sequence[int]], end_early=False) -> int:
    """A game under the online rules (3-8 players), these rounds recorded, then ended early
    if asked (or played to its last deal when `rounds` has them all); committed; its id."""
    game, _ = service.create_game(list(names), "online", first_dealer=0)
    for points in rounds:
        service.record_round(game, entry(points))
    if end_early:
        service.end_early(game)
    db.session.commit()
    return game.id


def seed_season(games: int = 200, seed: int = 27) -> list[int]:
    """`games` finished games among the 12 players: 3 to 6 at a table, most ended early after
    1-3 rounds, one in ten played to its last deal, a few with tied totals on purpose, a few
    archived, and round 1 of ten of them corrected afterwards (inside an app context)."""
    rng = random.Random(seed)
    made = []
    for number in range(games):
        names = rng.sample(PLAYERS, rng.randint(3, 6))
        last = rng.random() < 0.1
        count = 7 if last else rng.randint(1, 3)
        rounds = [round_points(rng, len(names)) for _ in range(count)]
        if number % 7 == 0 and count == 1:
            rounds[0] = [0] + [30] * (len(names) - 1)  # everyone but the first tied
        if number % 5 == 0 and count == 2:  # the first two seats tie for the win at 20
            others = [40] * (len(names) - 2)
            rounds = [[0, 20, *others], [20, 0, *others]]
        made.append(play_game(names, rounds, end_early=not last))
    for game_id in rng.sample(made, 10):
        game = db.session.get(Game, game_id)
        seats = len(game.players)
        service.correct_round(game, 1, entry(round_points(rng, seats)))
        db.session.commit()
    for game_id in rng.sample(made, 5):
        gamelist.archive(db.session.get(Game, game_id))
        db.session.commit()
    return made
