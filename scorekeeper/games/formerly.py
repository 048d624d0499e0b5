"""What a profile's name meant in an export of format version 1, frozen.

Format 1 named each game's rules by a profile (`"profile": "family"`); format 2 carries the
whole document. An old export means the profile as the app that wrote it had it, so these are
the presets' documents as they were when format 2 began, never the app's presets of the day: a
preset changed in a later release must not change a game read from an old export (the same
copies as migration 0005's, which a test compares).
"""

from __future__ import annotations

import json
from typing import Any

PROFILES: dict[str, dict[str, Any]] = {
    key: json.loads(text)
    for key, text in (
        (
            "liverpool",
            '{"version":1,"name":"Liverpool","players":{"min":4,"max":4},"packs":[{"up_to":8,"packs":2}],"jokers":{"fixed":3,"per_pack":0},"deals":[{"cards":10,"contract":[{"kind":"set","size":3},{"kind":"set","size":3}],"whole_hand":false},{"cards":10,"contract":[{"kind":"set","size":3},{"kind":"run","size":4}],"whole_hand":false},{"cards":10,"contract":[{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":false},{"cards":12,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"set","size":3}],"whole_hand":false},{"cards":12,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"run","size":4}],"whole_hand":false},{"cards":12,"contract":[{"kind":"set","size":3},{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":false},{"cards":12,"contract":[{"kind":"run","size":4},{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":true}],"exact_sizes":true,"values":{"A":15,"2":2,"3":3,"4":4,"5":5,"6":6,"7":7,"8":8,"9":9,"10":10,"J":10,"Q":10,"K":10,"JK":15},"wild_deuces":false,"naturals":{"set":1,"run":1,"wild_at_most_natural":false},"cut_bonus":-50,"layoff_on_opening_turn":false,"go_out_by_layoff":false,"joker_swap":"runs","swap_on_opening_turn":false,"freed_joker":"lay_off","buying":{"allowed":true,"per_deal":null,"per_game":null,"penalty_cards":1}}',
        ),
        (
            "contract",
            '{"version":1,"name":"Contract","players":{"min":4,"max":4},"packs":[{"up_to":8,"packs":2}],"jokers":{"fixed":3,"per_pack":0},"deals":[{"cards":10,"contract":[{"kind":"set","size":3},{"kind":"set","size":3}],"whole_hand":false},{"cards":10,"contract":[{"kind":"set","size":3},{"kind":"run","size":4}],"whole_hand":false},{"cards":10,"contract":[{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":false},{"cards":12,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"set","size":3}],"whole_hand":false},{"cards":12,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"run","size":4}],"whole_hand":false},{"cards":12,"contract":[{"kind":"set","size":3},{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":false},{"cards":12,"contract":[{"kind":"run","size":4},{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":true}],"exact_sizes":true,"values":{"A":15,"2":2,"3":3,"4":4,"5":5,"6":6,"7":7,"8":8,"9":9,"10":10,"J":10,"Q":10,"K":10,"JK":15},"wild_deuces":false,"naturals":{"set":1,"run":1,"wild_at_most_natural":false},"cut_bonus":0,"layoff_on_opening_turn":false,"go_out_by_layoff":false,"joker_swap":"runs","swap_on_opening_turn":false,"freed_joker":"lay_off","buying":{"allowed":true,"per_deal":null,"per_game":null,"penalty_cards":1}}',
        ),
        (
            "online",
            '{"version":1,"name":"Online","players":{"min":3,"max":8},"packs":[{"up_to":5,"packs":2},{"up_to":8,"packs":3}],"jokers":{"fixed":2,"per_pack":0},"deals":[{"cards":7,"contract":[{"kind":"set","size":3},{"kind":"set","size":3}],"whole_hand":false},{"cards":10,"contract":[{"kind":"set","size":3},{"kind":"run","size":4}],"whole_hand":false},{"cards":10,"contract":[{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":false},{"cards":10,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"set","size":3}],"whole_hand":false},{"cards":12,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"run","size":4}],"whole_hand":false},{"cards":12,"contract":[{"kind":"set","size":3},{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":false},{"cards":14,"contract":[{"kind":"run","size":4},{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":true}],"exact_sizes":false,"values":{"A":15,"2":2,"3":3,"4":4,"5":5,"6":6,"7":7,"8":8,"9":9,"10":10,"J":10,"Q":10,"K":10,"JK":25},"wild_deuces":false,"naturals":{"set":1,"run":1,"wild_at_most_natural":false},"cut_bonus":0,"layoff_on_opening_turn":true,"go_out_by_layoff":true,"joker_swap":"runs","swap_on_opening_turn":true,"freed_joker":"hand","buying":{"allowed":false,"per_deal":null,"per_game":null,"penalty_cards":1}}',
        ),
        (
            "family",
            '{"version":1,"name":"Family","players":{"min":3,"max":8},"packs":[{"up_to":4,"packs":2},{"up_to":8,"packs":3}],"jokers":{"fixed":0,"per_pack":2},"deals":[{"cards":10,"contract":[{"kind":"set","size":3},{"kind":"set","size":3}],"whole_hand":false},{"cards":10,"contract":[{"kind":"set","size":3},{"kind":"run","size":4}],"whole_hand":false},{"cards":10,"contract":[{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":false},{"cards":10,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"set","size":3}],"whole_hand":false},{"cards":12,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"run","size":4}],"whole_hand":false},{"cards":12,"contract":[{"kind":"set","size":3},{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":false},{"cards":12,"contract":[{"kind":"run","size":4},{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":true}],"exact_sizes":false,"values":{"A":15,"2":2,"3":3,"4":4,"5":5,"6":6,"7":7,"8":8,"9":9,"10":10,"J":10,"Q":10,"K":10,"JK":15},"wild_deuces":false,"naturals":{"set":2,"run":3,"wild_at_most_natural":false},"cut_bonus":-50,"layoff_on_opening_turn":true,"go_out_by_layoff":true,"joker_swap":"runs","swap_on_opening_turn":true,"freed_joker":"lay_off","buying":{"allowed":true,"per_deal":null,"per_game":null,"penalty_cards":1}}',
        ),
        (
            "shanghai",
            '{"version":1,"name":"Shanghai","players":{"min":3,"max":8},"packs":[{"up_to":4,"packs":2},{"up_to":6,"packs":3},{"up_to":8,"packs":4}],"jokers":{"fixed":0,"per_pack":1},"deals":[{"cards":11,"contract":[{"kind":"set","size":3},{"kind":"set","size":3}],"whole_hand":false},{"cards":11,"contract":[{"kind":"set","size":3},{"kind":"run","size":4}],"whole_hand":false},{"cards":11,"contract":[{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":false},{"cards":11,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"set","size":3}],"whole_hand":false},{"cards":11,"contract":[{"kind":"set","size":3},{"kind":"run","size":7}],"whole_hand":false},{"cards":11,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"run","size":5}],"whole_hand":false},{"cards":11,"contract":[{"kind":"run","size":4},{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":false},{"cards":11,"contract":[{"kind":"set","size":3},{"kind":"run","size":10}],"whole_hand":false},{"cards":11,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"run","size":5}],"whole_hand":false},{"cards":11,"contract":[{"kind":"run","size":5},{"kind":"run","size":5},{"kind":"run","size":5}],"whole_hand":false}],"exact_sizes":false,"values":{"A":15,"2":20,"3":5,"4":5,"5":5,"6":5,"7":5,"8":5,"9":5,"10":10,"J":10,"Q":10,"K":10,"JK":20},"wild_deuces":true,"naturals":{"set":1,"run":1,"wild_at_most_natural":true},"cut_bonus":0,"layoff_on_opening_turn":true,"go_out_by_layoff":true,"joker_swap":"any","swap_on_opening_turn":false,"freed_joker":"hand","buying":{"allowed":true,"per_deal":null,"per_game":null,"penalty_cards":1}}',
        ),
    )
}


def game_of_format_1(game: Any) -> Any:
    """A format 1 export's game with its profile's name turned into that profile's document,
    as the app of that format had it; `ValueError` for a name it never wrote. Anything else
    wrong with the game is left for the import's own checks to name."""
    if not isinstance(game, dict) or "profile" not in game or "rules" in game:
        return game
    profile = game["profile"]
    if not isinstance(profile, str) or profile not in PROFILES:
        raise ValueError(f"must be one of {', '.join(PROFILES)}, not {str(profile)[:40]!r}")
    rest = {key: value for key, value in game.items() if key != "profile"}
    return {"rules": PROFILES[profile], **rest}
