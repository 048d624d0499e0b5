"""Each finished game's seats' hands (`players._seat_hands`), which the records read instead
of the half a million round lines of a season of 20,000 games: worked out in one pass over the
lines, the first round of the furthest fall behind, every round of the costliest hand."""

from __future__ import annotations

from datetime import datetime

from scorekeeper.season.players import NO_HANDS, Sitting, _seat_hands


def seated(game_id: int, seats: int) -> list[Sitting]:
    return [
        Sitting(game_id, seat, f"P{seat}", f"p{seat}", "Family", datetime(2026, 1, 1), True)
        for seat in range(seats)
    ]


def test_a_games_hands_from_its_round_lines():
    lines = [
        # game 1: seat 1 falls 20 behind after round 1, 30 after round 2 and again after round 3
        (1, 1, 0, 0, 0),
        (1, 1, 1, 20, 20),
        (1, 1, 2, 5, 5),
        (1, 2, 0, 0, 0),
        (1, 2, 1, 10, 20),
        (1, 2, 2, 0, 0),
        (1, 3, 0, 5, 5),
        (1, 3, 1, 5, 15),
        (1, 3, 2, 0, 0),
        # game 2: nobody holds a card; game 3 is not in the season (a line kept from another)
        (2, 1, 0, 0, 0),
        (2, 1, 1, 0, 0),
        (3, 1, 0, 40, 40),
    ]
    games = {1: seated(1, 3), 2: seated(2, 2), 4: seated(4, 2)}
    found = _seat_hands(lines, games)
    assert found == {
        1: {
            # (furthest behind, first round so far behind, costliest hand, its rounds)
            0: (0, 0, 5, (3,)),
            1: (30, 2, 20, (1, 2)),
            2: (5, 1, 5, (1,)),
        },
        2: {0: NO_HANDS, 1: NO_HANDS},
    }
