"""A hand-made season for the records and rivals: five short games whose every total is known,
made through the JSON API (games ended early after their last round written here).

The answers it should give are worked out in the comments, and written in the tests.
"""

from __future__ import annotations

from tests.support import games
from tests.support.games import Sender

THREE = ["Ann", "Bob", "Cat"]
FOUR = ["Ann", "Bob", "Cat", "Dan"]
FIVES = {"Bob": "5", "Cat": "5", "Dan": "5"}

# Family rules, Ann dealing round 1: the cutter is the dealer's right (R2), so with four seats
# Dan cuts rounds 1 and 5; an exact cut is −50 to the cutter. Card values (R10): 5 is 5, K Q J
# 10 are 10. Each game: (players, rounds, played in this order).
GAMES = [
    # G1: Ann 0, Bob 15, Cat 10: Ann wins by 10; Ann out twice.
    (THREE, [("Ann", False, {"Bob": "K", "Cat": "5"}), ("Ann", False, {"Bob": "5", "Cat": "5"})]),
    # G2: Bob 40 behind after round 1 (Ann 0, Bob 40, Cat 5), then Ann 50, Bob 40, Cat 55: Bob
    # wins by 10, from 40 behind. Ann's and Cat's hands of round 2 cost 50 each.
    (
        THREE,
        [
            ("Ann", False, {"Bob": "K Q J 10", "Cat": "5"}),
            ("Bob", False, {"Ann": "K K K K Q", "Cat": "Q Q Q J J"}),
        ],
    ),
    # G3: Dan out in rounds 1, 2, 3 and 5, cutting exactly in 1 and 5: Ann 30, Bob 25, Cat 20,
    # Dan −95; Dan wins by 115.
    (
        FOUR,
        [
            ("Dan", True, {"Ann": "K", "Bob": "5", "Cat": "5"}),
            ("Dan", False, {"Ann": "5", "Bob": "5", "Cat": "5"}),
            ("Dan", False, {"Ann": "5", "Bob": "5", "Cat": "5"}),
            ("Cat", False, {"Ann": "5", "Bob": "5", "Dan": "5"}),
            ("Dan", True, {"Ann": "5", "Bob": "5", "Cat": "5"}),
        ],
    ),
    # G4: Ann 5, Bob 10, Cat 5: Ann and Cat share the win (Cat 5 behind after round 1).
    (THREE, [("Ann", False, {"Bob": "5", "Cat": "5"}), ("Cat", False, {"Ann": "5", "Bob": "5"})]),
    # G5: Ann 0, Bob 5, Cat 5: Ann wins by 5.
    (THREE, [("Ann", False, {"Bob": "5", "Cat": "5"})]),
]


def hand_made_season(sender: Sender) -> list[games.Game]:
    """The five games above, each ended after its last round written: G1 to G5."""
    made = []
    for names, rounds in GAMES:
        game = games.create_game(sender, names, "family", "Ann")
        games.play(sender, game, rounds)
        ended = sender.send_json(
            "POST", f"/api/games/{game.id}/end", {"after": len(rounds)}, game.write_headers
        )
        assert ended.status == 200, ended.body[:300]
        made.append(game)
    return made
