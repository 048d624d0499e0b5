"""Reading the score book: load a game, and what its pages and the API show of it: its book, the
end of a finished game in a few lines (`game_summary`), and the JSON of a game, a round and a
refusal (`answer_errors`, on the score book's API and on every API built on it).

Totals, leaders, winners and the next round's setup all come from the engine in
`scorekeeper.rules`; nothing here writes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from flask import jsonify
from flask_babel import gettext as _
from sqlalchemy.orm import selectinload

from ..platform import cache, database, writeonce
from ..platform.database import db
from ..rules.ruleset import RuleSet
from ..rules.scoring import Winners, deals_won, leaders, places, totals, winners
from ..rules.seating import RoundSetup, next_in_play, round_setup
from . import buys
from .errors import NoSuchGame, RoundRefused, RulesRefused, ScorebookError
from .models import Game, Player, Rename, Round, RoundChange, RoundScore
from .roundvalues import RoundSnapshot


def _whole(scores: bool = True) -> tuple:
    """What loading a whole game loads with it: its players, rounds (with their scores, unless
    not), history and renames, each in one statement for every game loaded."""
    rounds = selectinload(Game.rounds)
    return (
        selectinload(Game.players),
        rounds.selectinload(Round.scores) if scores else rounds,
        selectinload(Game.history),
        selectinload(Game.renames),
    )


def game_query(game_id: int, scores: bool = True, for_update: bool = False):
    """The statement that loads a whole game in a fixed number of queries.

    Recording a round needs the rounds but not their scores (`scores=False`): one query fewer.
    `for_update` locks the game's row first (see `get_game`).
    """
    statement = db.select(Game).where(Game.id == game_id).options(*_whole(scores))
    if for_update:
        # Rows this session loaded earlier are read again, as they are once the lock is held.
        statement = statement.with_for_update(of=Game).execution_options(populate_existing=True)
    return statement


def games_of(ids: list[int]) -> list[Game]:
    """These games, each loaded whole as `game_query` loads one (a fixed number of statements
    for them all), in the order of `ids`; an id no game has is left out."""
    if not ids:
        return []
    statement = db.select(Game).where(Game.id.in_(ids)).options(*_whole())
    games = {game.id: game for game in db.session.scalars(statement)}
    return [games[game_id] for game_id in ids if game_id in games]


def get_game(game_id: int, scores: bool = True, *, for_update: bool = False) -> Game:
    """The game with its players, rounds, scores and history, or `NoSuchGame`.

    A request that will change the game passes `for_update`: the game's row is locked before
    its rounds are read, so every write to one game waits for the one before it, in any process
    (PostgreSQL's row lock; SQLite's whole-database write lock is already held, see `database`).
    """
    if game_id not in database.id_range():
        raise NoSuchGame(game_id)
    game = db.session.scalar(game_query(game_id, scores, for_update))
    if game is None:
        raise NoSuchGame(game_id)
    return game


# The rows a game page shows: a commit that writes any of them moves the game's stamp.
GAME_ROWS = (Game, Player, Round, RoundScore, RoundChange, Rename)


def stamp_name(game_id: int) -> str:
    return f"game {game_id}"


def stamped(row: object) -> tuple[str, ...]:
    """The stamp of the game a row belongs to, for a row a game page shows."""
    if isinstance(row, Game):
        return (stamp_name(row.id),)
    if not isinstance(row, GAME_ROWS):
        return ()
    game_id = row.round.game_id if isinstance(row, RoundScore) else row.game_id
    return (stamp_name(game_id),) if game_id is not None else ()


def game_stamp(game_id: int) -> tuple | None:
    """The key's hash and the game's stamp (`platform.cache`), which moves with every commit
    that changes what the game page shows, in this process or another, in one statement by
    primary keys; None: no such game."""
    if game_id not in database.id_range():
        return None
    name = stamp_name(game_id)
    found = db.session.execute(
        db.select(Game.key_hash, cache.Stamp.name, cache.Stamp.generation, cache.Stamp.changes)
        .outerjoin(cache.Stamp, cache.rows_for(name))
        .where(Game.id == game_id)
    ).all()
    if not found:
        return None
    return (found[0][0], cache.chosen((row[1:] for row in found), name))


def has_games() -> bool:
    """Whether any game was ever started: the home page greets a first evening differently."""
    return db.session.scalar(db.select(Game.id).limit(1)) is not None


def rules_of(game: Game) -> RuleSet:
    """The rule set the game is played under: its own stored copy (R11)."""
    return game.rule_set


def next_round(game: Game) -> int | None:
    """The number of the round to record next, or None once the game's last deal is in."""
    number = (game.rounds[-1].number if game.rounds else 0) + 1
    return None if game.finished or number > rules_of(game).last_deal else number


def setup_for(game: Game, number: int) -> RoundSetup:
    """Dealer, cutter, first player, deal and exact cut for a round of this game (R2, R3)."""
    return round_setup(game.first_dealer, number, len(game.players), rules_of(game))


def next_first_dealer(game: Game) -> int:
    """The seat after the last game's first dealer, the way its play went (R2, R12.3)."""
    return next_in_play(game.first_dealer, len(game.players), rules_of(game))


# --- The book ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """One line of the standings: place (ties share it), seat, name, total, and how far behind
    the leader's total it is (0 for a leader)."""

    place: int
    seat: int
    name: str
    total: int
    behind: int = 0


@dataclass(frozen=True)
class Book:
    """Everything the game page and the API show, computed once from the stored rounds."""

    game: Game
    rules: RuleSet
    names: list[str]
    totals: list[int]
    leaders: list[int]
    winners: list[int]
    next_round: int | None
    setup: RoundSetup | None
    standings: list[Standing]
    changes: list[Change] = field(default_factory=list)
    # Each seat's former names, oldest first (a misspelt name put right): "Bob (was Bbo)".
    former: list[list[str]] = field(default_factory=list)
    # How the win was decided when totals tied under `tie_break: deals_won` (R12.3).
    decided: Winners = Winners(())

    @property
    def last_round(self) -> int:
        """The number of the game's last deal: how many rounds the game has (R11)."""
        return self.rules.last_deal

    @property
    def leader_names(self) -> list[str]:
        return [self.names[seat] for seat in self.leaders]

    @property
    def winner_names(self) -> list[str]:
        return [self.names[seat] for seat in self.winners]

    def was(self, seat: int) -> str:
        """The seat's name with what it was before, if it was renamed: "Bob (was Bbo)"."""
        former = self.former[seat] if seat < len(self.former) else []
        if not former:
            return self.names[seat]
        return _("%(name)s (was %(former)s)", name=self.names[seat], former=", ".join(former))

    @property
    def ended_after(self) -> int | None:
        """The last round of a game the table ended before its last deal, else None."""
        return self.game.ended_after


@dataclass(frozen=True)
class Change:
    """A history entry in words: when, which round, what it was and what it became; a rename
    has no round (its one line says who became whom)."""

    when: datetime
    round_number: int | None
    action: str
    lines: list[str]

    @property
    def title(self) -> str:
        """What happened, in a few words: "round 3 corrected", "a player renamed"."""
        if self.round_number is None:
            return _("a player renamed")
        if self.action == "undone":
            return _("round %(number)s undone", number=self.round_number)
        return _("round %(number)s corrected", number=self.round_number)


def book(game: Game) -> Book:
    """Totals, leaders, winners (R10, and R12.3's tie-break) and the next round's setup (R2)
    for a loaded game."""
    names = game.names
    rules = rules_of(game)
    sums = totals(([line.score for line in r.scores] for r in game.rounds), len(names))
    ahead = leaders(sums) if game.rounds else []
    decided = (
        winners(sums, deals_won((r.out for r in game.rounds), len(names)), rules.tie_break)
        if game.finished and game.rounds
        else Winners(())
    )
    number = next_round(game)
    place = places(sums, decided.passed_over)
    order = sorted(range(len(names)), key=lambda seat: (place[seat], sums[seat], seat))
    standings = [
        Standing(
            place=place[seat],
            seat=seat,
            name=names[seat],
            total=sums[seat],
            behind=sums[seat] - sums[order[0]],
        )
        for seat in order
    ]
    return Book(
        game=game,
        rules=rules,
        names=names,
        totals=sums,
        leaders=ahead,
        winners=list(decided.seats),
        next_round=number,
        setup=setup_for(game, number) if number else None,
        standings=standings,
        changes=_changes(game, names),
        former=former_names(game),
        decided=decided,
    )


def former_names(game: Game) -> list[list[str]]:
    """Each seat's former names, oldest first, as the history of renames keeps them."""
    former: list[list[str]] = [[] for _ in game.players]
    for rename in game.renames:
        if rename.seat < len(former) and rename.before not in former[rename.seat]:
            former[rename.seat].append(rename.before)
    return former


def _changes(game: Game, names: list[str]) -> list[Change]:
    """Corrections, undos and renames in words, newest first."""
    changes = [describe(change, names) for change in game.history]
    changes += [
        Change(rename.renamed_at, None, "renamed", [f"{rename.before} → {rename.after}"])
        for rename in game.renames
    ]
    return sorted(changes, key=lambda change: change.when, reverse=True)


def describe(change: RoundChange, names: list[str]) -> Change:
    """A correction or undo in words: only what changed, before → after."""
    before = RoundSnapshot.from_dict(change.before)
    if change.after is None:
        return Change(
            change.changed_at, change.round_number, change.action, [summary(before, names)]
        )
    after = RoundSnapshot.from_dict(change.after)
    lines = []
    if before.out != after.out:
        lines.append(
            _(
                "went out: %(before)s → %(after)s",
                before=_out_name(before, names),
                after=_out_name(after, names),
            )
        )
    if before.cut_exact != after.cut_exact:
        lines.append(
            _(
                "exact cut: %(before)s → %(after)s",
                before=_yes(before.cut_exact),
                after=_yes(after.cut_exact),
            )
        )
    for seat, name in enumerate(names):
        was = _line(before, seat)
        now = _line(after, seat)
        if was != now:
            lines.append(_("%(name)s: %(before)s → %(after)s", name=name, before=was, after=now))
    return Change(change.changed_at, change.round_number, change.action, lines)


def summary(data: RoundSnapshot, names: list[str]) -> str:
    """A whole round in one line: who went out, the exact cut, each player's cards and score."""
    hands = ", ".join(
        _("%(name)s %(hand)s", name=name, hand=_line(data, seat)) for seat, name in enumerate(names)
    )
    if data.out is None:
        if data.cut_exact:
            return _("nobody went out, exact cut; %(hands)s", hands=hands)
        return _("nobody went out; %(hands)s", hands=hands)
    if data.cut_exact:
        return _("%(name)s went out, exact cut; %(hands)s", name=names[data.out], hands=hands)
    return _("%(name)s went out; %(hands)s", name=names[data.out], hands=hands)


def _out_name(data: RoundSnapshot, names: list[str]) -> str:
    return _("nobody") if data.out is None else names[data.out]


def _yes(said: bool) -> str:
    return _("yes") if said else _("no")


def _line(data: RoundSnapshot, seat: int) -> str:
    """One player's round: cards = penalty, the cut bonus if any, the bonus for going down and
    out in one turn if any, = score."""
    cards = _("counted") if data.counted[seat] else data.leftovers[seat] or _("out")
    penalty, bonus, score = data.penalties[seat], data.bonus[seat], data.scores[seat]
    one_turn = data.out_bonus[seat]
    if not bonus and not one_turn:
        return _("%(cards)s = %(score)s", cards=cards, score=signed(score))
    said = {"cards": cards, "penalty": signed(penalty), "score": signed(score)}
    if not one_turn:
        return _("%(cards)s = %(penalty)s, cut %(bonus)s = %(score)s", bonus=signed(bonus), **said)
    if not bonus:
        return _(
            "%(cards)s = %(penalty)s, down and out in one turn %(bonus)s = %(score)s",
            bonus=signed(one_turn),
            **said,
        )
    return _(
        "%(cards)s = %(penalty)s, cut %(cut)s, down and out in one turn %(bonus)s = %(score)s",
        cut=signed(bonus),
        bonus=signed(one_turn),
        **said,
    )


def signed(value: int) -> str:
    """A number with a real minus sign."""
    return f"−{-value}" if value < 0 else str(value)


# --- The end of a game in a few lines: the winners, the places, what the rounds were like


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
    # Tied totals under `tie_break: deals_won` (R12.3): the deals the winners went out in and
    # the most any other tied player did ("Ana wins on deals won: 4 to 3"); None otherwise.
    deals_won: tuple[int, int] | None = None

    @property
    def finish(self) -> str:
        """How the game ended, in words: "ended early after round 5 of 7" or "finished after
        round 7 of 7"."""
        if self.ended_after is not None:
            return _(
                "ended early after round %(after)s of %(last)s",
                after=self.ended_after,
                last=self.last_round,
            )
        return _("finished after round %(last)s of %(last)s", last=self.last_round)

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
        deals_won=_deals_won(book.decided),
    )


def _deals_won(decided: Winners) -> tuple[int, int] | None:
    """The winners' deals won and the best of the other tied players' (the winners' again when
    nobody else was tied), when the tie-break was asked; else None."""
    if not decided.deals_won:
        return None
    won = decided.deals_won[decided.seats[0]]
    passed_over = [n for seat, n in decided.deals_won.items() if seat not in decided.seats]
    return won, max(passed_over, default=won)


# --- JSON: a game, a round, and a refusal as the APIs answer it --------------------------


def _when(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat(timespec="seconds") + "Z"


def round_json(game: Game, played: Round) -> dict[str, Any]:
    """A recorded round with every player named (the API's round object)."""
    names = game.names
    return {
        "number": played.number,
        "dealer": names[played.dealer],
        "cutter": names[played.cutter],
        "cut_exact": played.cut_exact,
        "out": None if played.out is None else names[played.out],
        # The player out went down and out in one turn: their score holds the rules' bonus.
        "out_in_one_turn": played.out_in_one_turn,
        "leftovers": {
            names[line.seat]: line.leftovers.split() for line in played.scores if not line.counted
        },
        "points": {names[line.seat]: line.penalty for line in played.scores if line.counted},
        "penalties": {names[line.seat]: line.penalty for line in played.scores},
        "bonus": {names[line.seat]: line.bonus for line in played.scores},
        "scores": {names[line.seat]: line.score for line in played.scores},
        # Each player's buys this deal; null for a round stored before buys were counted.
        "buys": {names[line.seat]: line.buys for line in played.scores},
        "version": played.version,
        "recorded_at": _when(played.recorded_at),
        "corrected_at": _when(played.corrected_at),
    }


def game_json(game: Game) -> dict[str, Any]:
    """The whole game as the API returns it: seats, next round's setup, rounds, totals, winners."""
    state = book(game)
    names = state.names
    setup = state.setup
    return {
        "id": game.id,
        "rules": state.rules.to_json(),
        # The preset's key when the game's rules are exactly a preset, else null.
        "profile": state.rules.preset,
        "last_round": state.last_round,
        "players": names,
        "first_dealer": names[game.first_dealer],
        "round": state.next_round,
        "contract": setup.contract.short() if setup else None,
        "deal": setup.cards_dealt if setup else None,
        "dealer": names[setup.dealer] if setup else None,
        "cutter": names[setup.cutter] if setup else None,
        "first_player": names[setup.first_player] if setup else None,
        "exact_cut": setup.exact_cut if setup else None,
        "cut_bonus": setup.cut_bonus if setup else None,
        "out_in_one_turn_bonus": state.rules.out_in_one_turn_bonus,
        "stock_after_deal": setup.stock_after_deal if setup else None,
        "rounds": [round_json(game, played) for played in game.rounds],
        "buys": buys.game_json(game),
        "totals": dict(zip(names, state.totals, strict=True)),
        "leaders": [names[seat] for seat in state.leaders],
        "finished": game.finished,
        "ended_after": game.ended_after,
        "winners": [names[seat] for seat in state.winners],
        # Tied totals under `tie_break: deals_won`: each tied player's deals gone out in.
        "deals_won": (
            {names[seat]: count for seat, count in state.decided.deals_won.items()}
            if state.decided.deals_won
            else None
        ),
        "former_names": {names[seat]: former for seat, former in enumerate(state.former) if former},
        "created_at": _when(game.created_at),
        "finished_at": _when(game.finished_at),
        "archived_at": _when(game.archived_at),
    }


def answer_errors(blueprint) -> None:
    """Answer the score book's refusals in JSON on `blueprint` (`{"error": ...}` with the status
    the refusal carries): this API's, and every API built on the score book (the phones')."""
    blueprint.register_error_handler(writeonce.BadKey, _bad_key)
    blueprint.register_error_handler(ScorebookError, _scorebook_error)


def _bad_key(error: writeonce.BadKey):
    return jsonify(error=str(error)), 400


def _scorebook_error(error: ScorebookError):
    # A repeat of the DELETE that removed its game: the first answer, not this 404.
    if (first := writeonce.answer_of_gone(error)) is not None:
        return first
    body: dict[str, Any] = {"error": error.message}
    if isinstance(error, RulesRefused):
        body["problems"] = error.rule_problems
    if isinstance(error, RoundRefused):
        body["problems"] = error.places
    current = getattr(error, "current", None)
    if current is not None:
        body["round"] = round_json(current.game, current)
    return jsonify(body), error.status
