"""R11 Profiles: the default `liverpool` rules and the house rules of the other sources.

Every number that differs between tables (players, packs, jokers, cards dealt, cut bonus, joker
penalty, meld sizes, natural cards needed, and the turn permissions) lives here, and nowhere else.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from .cards import JOKER, SUITS, Card, check_copies
from .errors import ProfileError, RoundError, SeatError

# A game is seven rounds, one per contract (R3).
LAST_ROUND = 7
ROUNDS = range(1, LAST_ROUND + 1)


@dataclass(frozen=True)
class Profile:
    """One table's rules: what R11 sets for it, everything else as in `liverpool`."""

    name: str
    title: str
    source: str
    min_players: int
    max_players: int
    deal: tuple[int, int, int, int, int, int, int]
    cut_bonus: int
    joker_penalty: int
    exact_opening: bool
    set_naturals: int
    run_naturals: int
    layoff_on_opening_turn: bool
    go_out_by_layoff: bool
    buying: bool
    freed_joker_to_hand: bool
    swap_on_opening_turn: bool
    # (most players, packs) in order: the packs for a table of up to that many players (R11).
    pack_steps: tuple[tuple[int, int], ...] = ((8, 2),)
    fixed_jokers: int = 3
    jokers_per_pack: int = 0
    default_players: int = 4

    @property
    def label(self) -> str:
        """The profile's short name for a sentence or a context line: `Liverpool`, `Family`."""
        return self.name.capitalize()

    @property
    def rules_name(self) -> str:
        """How a verdict names the house rules it applies: `family rules` (R11)."""
        return f"{self.name} rules"

    def house(self, setting: str) -> bool:
        """Whether this profile changes one of R11's settings from the default `liverpool`."""
        return getattr(self, setting) != getattr(LIVERPOOL, setting)

    def cite(self, setting: str, default_rule: str) -> str:
        """The rule a verdict that turns on `setting` rests on: R11 where this profile changes it."""
        return "R11" if self.house(setting) else default_rule

    def packs(self, players: int | None = None) -> int:
        """How many 52-card packs are shuffled together: the first step of `pack_steps` that seats
        the players."""
        players = self.check_players(players)
        return next(packs for most, packs in self.pack_steps if players <= most)

    def jokers(self, players: int | None = None) -> int:
        """How many jokers are in the game: a fixed number, or so many a pack."""
        return self.fixed_jokers + self.jokers_per_pack * self.packs(players)

    def packs_text(self) -> str:
        """`2 + 3`, or by table size: `2 packs for 3–5 players, 3 for 6–8; 2 jokers` (R11)."""
        steps, low = [], self.min_players
        for most, packs in self.pack_steps:
            if most >= low:
                steps.append((low, min(most, self.max_players), packs))
                low = most + 1
        if len(steps) == 1:
            return f"{steps[0][2]} + {self.jokers()}"
        sizes = ", ".join(
            f"{packs} for {first}–{last}" if index else f"{packs} packs for {first}–{last} players"
            for index, (first, last, packs) in enumerate(steps)
        )
        each = f"{self.jokers_per_pack} a pack" if self.jokers_per_pack else str(self.fixed_jokers)
        return f"{sizes}; jokers: {each}"

    def deck(self, players: int | None = None) -> list[Card]:
        """Every physical card shuffled together: the packs' naturals, then the jokers (R1)."""
        naturals = [
            Card(rank, suit)
            for _ in range(self.packs(players))
            for suit in SUITS
            for rank in range(1, 14)
        ]
        return naturals + [JOKER] * self.jokers(players)

    def pack_size(self, players: int | None = None) -> int:
        return 52 * self.packs(players) + self.jokers(players)

    def check_players(self, players: int | None) -> int:
        """The player count, checked against the profile (`None` means the usual four)."""
        if players is None:
            return self.default_players
        if isinstance(players, bool) or not isinstance(players, int):
            raise SeatError(f"the number of players must be a whole number, not {players!r}")
        if not self.min_players <= players <= self.max_players:
            allowed = (
                f"exactly {self.min_players}"
                if self.min_players == self.max_players
                else f"{self.min_players} to {self.max_players}"
            )
            raise SeatError(f"{players} players: the rules {self.title} are for {allowed} players")
        return players

    def cards_dealt(self, round_number: int) -> int:
        """Cards dealt to each player in a round (R2, R11)."""
        return self.deal[check_round(round_number) - 1]

    def exact_cut(self, round_number: int, players: int | None = None) -> int:
        """The packet that earns the exact-cut bonus: players × cards dealt + 1 (R2)."""
        return self.check_players(players) * self.cards_dealt(round_number) + 1

    def stock_after_deal(self, round_number: int, players: int | None = None) -> int:
        """Cards left in the stock once every hand is dealt and the upcard turned (R2)."""
        return self.pack_size(players) - self.exact_cut(round_number, players)

    def check_copies(self, cards: Iterable[Card], players: int | None = None) -> None:
        """Raise `CopyLimitError` when the cards need more copies than this game's packs hold (R1)."""
        check_copies(cards, self.packs(players), self.jokers(players))

    def naturals_needed(self, kind: str) -> int:
        """The fewest natural cards a meld of this kind must hold (R4, R11)."""
        return self.set_naturals if kind == "set" else self.run_naturals


def check_round(round_number: object) -> int:
    """The round number, or `RoundError` naming the bad value."""
    if isinstance(round_number, bool) or not isinstance(round_number, int):
        raise RoundError(f"the round must be a whole number from 1 to 7, not {round_number!r}")
    if round_number not in ROUNDS:
        raise RoundError(
            f"round {round_number} does not exist: a game has rounds 1 to {LAST_ROUND}"
        )
    return round_number


def setting(
    round_number: int, profile: Profile | str | None, players: int | None
) -> tuple[int, Profile, int]:
    """What a question about one turn assumes, each part checked in turn: the round (R3), the
    rules (R11) and the number of players (the profile's usual table when not given)."""
    round_number = check_round(round_number)
    rules = get_profile(profile)
    return round_number, rules, rules.check_players(players)


LIVERPOOL = Profile(
    name="liverpool",
    title="Liverpool (default)",
    source="seeds 000 and 001",
    min_players=4,
    max_players=4,
    deal=(10, 10, 10, 12, 12, 12, 12),
    cut_bonus=-50,
    joker_penalty=15,
    exact_opening=True,
    set_naturals=1,
    run_naturals=1,
    layoff_on_opening_turn=False,
    go_out_by_layoff=False,
    buying=True,
    freed_joker_to_hand=False,
    swap_on_opening_turn=False,
)

# Each house profile says only what R11 changes; the rest is as in liverpool.
PROFILES: dict[str, Profile] = {
    profile.name: profile
    for profile in (
        LIVERPOOL,
        replace(
            LIVERPOOL,
            name="contract",
            title="Contract (no cut bonus)",
            source="seed 001",
            cut_bonus=0,
        ),
        replace(
            LIVERPOOL,
            name="online",
            title="Online rules (3-8 players)",
            source="seed 002",
            min_players=3,
            max_players=8,
            deal=(7, 10, 10, 10, 12, 12, 14),
            cut_bonus=0,
            joker_penalty=25,
            exact_opening=False,
            layoff_on_opening_turn=True,
            go_out_by_layoff=True,
            buying=False,
            freed_joker_to_hand=True,
            swap_on_opening_turn=True,
            # A third pack once two cannot deal round 7's 14 cards and leave a real stock.
            pack_steps=((5, 2), (8, 3)),
            fixed_jokers=2,
        ),
        replace(
            LIVERPOOL,
            name="family",
            title="Family rules (3-8 players)",
            source="seed 003",
            min_players=3,
            max_players=8,
            deal=(10, 10, 10, 10, 12, 12, 12),
            exact_opening=False,
            set_naturals=2,
            run_naturals=3,
            layoff_on_opening_turn=True,
            go_out_by_layoff=True,
            swap_on_opening_turn=True,
            pack_steps=((4, 2), (8, 3)),
            fixed_jokers=0,
            jokers_per_pack=2,
        ),
    )
}
DEFAULT_PROFILE = LIVERPOOL


def get_profile(name: object = None) -> Profile:
    """The profile of that name (`None` or empty means `liverpool`), or `ProfileError`."""
    if name is None or name == "":
        return DEFAULT_PROFILE
    if isinstance(name, Profile):
        return name
    if isinstance(name, str) and name.strip().lower() in PROFILES:
        return PROFILES[name.strip().lower()]
    raise ProfileError(f"unknown profile {name!r}: choose one of {', '.join(PROFILES)}")
