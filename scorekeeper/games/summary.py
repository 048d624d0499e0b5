"""The end of a game in a few lines: the winners, the places, and what the rounds were like."""

from __future__ import annotations

from dataclasses import dataclass

from .ledger import Book, Standing
from .service import next_first_dealer


@dataclass(frozen=True)
class RoundMark:
    """One round of one player: its number and the player's score in it."""

    number: int
    score: int


@dataclass(frozen=True)
class PlayerRounds:
    """A player's lowest round (the best one) and costliest round; the earlier one on a tie."""

    name: str
    lowest: RoundMark
    costliest: RoundMark


@dataclass(frozen=True)
class Summary:
    """What the finished game's page opens on."""

    winners: list[str]
    standings: list[Standing]
    # Who went out most often, with how many times; empty when nobody ever went out.
    most_out: list[str]
    most_out_count: int
    # (name, how many exact-cut bonuses, their sum), for every player who got one.
    cut_bonuses: list[tuple[str, int, int]]
    rounds: list[PlayerRounds]
    # Rounds that ended with the stock run out and nobody out.
    stock_ran_out: list[int]
    # Who deals first if this table plays again.
    next_dealer: str
    # The rules the game was played under, and how many deals they have (R11).
    rules_name: str = ""
    last_round: int = 0
    # The last round played when the table ended the game early, else None (played to the end).
    ended_after: int | None = None

    @property
    def finish(self) -> str:
        """How the game ended, in words: "ended early after round 5 of 7" or "finished after
        round 7 of 7"."""
        if self.ended_after is not None:
            return f"ended early after round {self.ended_after} of {self.last_round}"
        return f"finished after round {self.last_round} of {self.last_round}"

    @property
    def shared(self) -> bool:
        return len(self.winners) > 1


def game_summary(book: Book) -> Summary | None:
    """The summary of a finished game, computed from its rounds; None while it is being played."""
    if not book.game.finished:
        return None
    names = book.names
    rounds = book.game.rounds
    outs = [0] * len(names)
    bonuses = [[0, 0] for _ in names]
    marks: list[list[RoundMark]] = [[] for _ in names]
    for played in rounds:
        if played.out is not None:
            outs[played.out] += 1
        for line in played.scores:
            marks[line.seat].append(RoundMark(played.number, line.score))
            if line.bonus:
                bonuses[line.seat][0] += 1
                bonuses[line.seat][1] += line.bonus
    most = max(outs, default=0)
    return Summary(
        winners=book.winner_names,
        standings=book.standings,
        most_out=[names[seat] for seat, count in enumerate(outs) if most and count == most],
        most_out_count=most,
        cut_bonuses=[
            (names[seat], count, total) for seat, (count, total) in enumerate(bonuses) if count
        ],
        rounds=[
            PlayerRounds(
                name,
                min(marks[seat], key=lambda mark: (mark.score, mark.number)),
                max(marks[seat], key=lambda mark: (mark.score, -mark.number)),
            )
            for seat, name in enumerate(names)
        ],
        stock_ran_out=[played.number for played in rounds if played.out is None],
        next_dealer=names[next_first_dealer(book.game)],
        rules_name=book.rules.name,
        last_round=book.last_round,
        ended_after=book.ended_after,
    )
