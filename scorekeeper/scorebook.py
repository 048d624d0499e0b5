"""The score book: create games, record, correct and undo rounds, and read the ledger.

The pages and the JSON API both call these functions, so the two can never disagree. Every rule
(seats, deal, cut bonus, penalties, copy limits, winners) comes from the engine in
`scorekeeper.rules`; this module only stores what the engine decides.
"""

from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from flask import abort
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload
from sqlalchemy.orm.exc import StaleDataError

from . import database, keys
from .extensions import db
from .models import NAME_MAX, Game, Player, Round, RoundChange, RoundScore, utcnow
from .names import clean_name, invisible_character, name_key
from .rules import RulesError, format_cards, get_profile
from .rules.cards import JOKER, RANKS, Card, rank_name, sort_key
from .rules.profiles import Profile
from .rules.scoring import (
    LeftoverError,
    RoundResult,
    card_penalty,
    leaders,
    parse_leftovers,
    score_round,
    totals,
)
from .rules.seating import RoundSetup, round_setup

LAST_ROUND = 7
# What a correction compares: the same, and nothing is stored.
CHANGES = ("out", "cut_exact", "leftovers", "scores", "counted")
# Called with a write's result before its commit (see `create_game`); `writeonce` keeps tokens.
Keep = Callable[[Any], None]
# A name must show on the ledger as written: no bidi overrides, not only invisible characters.
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
INVISIBLE = frozenset({"Cf", "Mn", "Me", "Zs", "Zl", "Zp"})


class ScorebookError(Exception):
    """Input or a request the score book refuses; `problems` says where (a seat, or None)."""

    status = 400

    def __init__(
        self,
        message: str,
        *,
        problems: Mapping[int | None, str] | None = None,
        field: str | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.problems: dict[int | None, str] = dict(problems) if problems else {None: message}
        self.field = field


class Conflict(ScorebookError):
    """The request does not fit the game's state; `current` is the round concerned, as it is now."""

    status = 409

    def __init__(self, message: str, *, current: Round | None = None):
        super().__init__(message)
        self.current = current


class Missing(ScorebookError):
    """No such round in this game."""

    status = 404


# --- Players -------------------------------------------------------------------------------


def name_problems(raw: Sequence[str]) -> dict[int, str]:
    """What is wrong with each entered name (by its index): too long, unprintable, or a repeat.

    Blank names are not judged here: the form ignores them and `clean_names` refuses them.
    """
    problems: dict[int, str] = {}
    seen: dict[str, int] = {}
    for index, text in enumerate(raw):
        name = clean_name(text)
        if not name:
            continue
        if len(name) > NAME_MAX:
            problems[index] = f"'{name[:NAME_MAX]}…' is too long: at most {NAME_MAX} characters"
        elif any(unicodedata.category(char) in ("Cc", "Cs") for char in name):
            problems[index] = f"{name!r} holds a control character"
        elif any(char in BIDI_CONTROLS for char in name):
            problems[index] = f"{name!r} holds a character that reverses the text around it"
        elif all(unicodedata.category(char) in INVISIBLE for char in name):
            problems[index] = f"{name!r} shows nothing on screen: use letters, digits or emoji"
        elif (hidden := invisible_character(name)) is not None:
            problems[index] = (
                f"{name!r} holds an invisible character (U+{ord(hidden):04X}): type it again"
            )
        key = name_key(name)
        if key in seen and index not in problems:
            first = clean_name(raw[seen[key]])
            problems[index] = (
                f"'{name}' is already at the table: every name must differ"
                if first == name
                else f"'{name}' looks like '{first}', already at the table: every name must differ"
                " by more than case, accents or look-alike letters"
            )
        seen.setdefault(key, index)
    return problems


def clean_names(raw: Sequence[str]) -> list[str]:
    """The names as stored, or `ScorebookError` for an empty, too long or repeated name."""
    for index, text in enumerate(raw):
        if not clean_name(text):
            raise ScorebookError(
                f"the name of player {index + 1} is empty", problems={index: "empty"}, field="names"
            )
    problems = name_problems(raw)
    if problems:
        index, message = next(iter(problems.items()))
        raise ScorebookError(
            f"player {index + 1}: {message}", problems=problems, field="names"
        ) from None
    return [clean_name(text) for text in raw]


def seat_of(game: Game, name: str, what: str = "player") -> int:
    """The seat of a player named `name` (as written, else anything that looks like it)."""
    written = clean_name(name)
    for player in game.players:
        if player.name == written:
            return player.seat
    key = name_key(written)
    for player in game.players:
        if player.name_key == key:
            return player.seat
    raise ScorebookError(
        f"unknown {what} {name!r}: the players are {', '.join(game.names)}", field=what
    )


# --- Games ---------------------------------------------------------------------------------


def create_game(
    names: Sequence[str],
    profile: str | None = None,
    first_dealer: str | int | None = None,
    *,
    keep: Keep | None = None,
) -> tuple[Game, str]:
    """Seat the players (R11, first dealer drawn if not given); the key is returned, never stored.

    `keep`, when given, is called with what is returned, after the game's rows are written and
    before they are committed: what it adds to the session is committed with them or not at all.
    """
    try:
        rules = get_profile(profile)
    except RulesError as error:
        raise ScorebookError(str(error), field="profile") from None
    cleaned = clean_names(names)
    try:
        rules.check_players(len(cleaned))
    except RulesError as error:
        raise ScorebookError(str(error), field="names") from None
    key, key_hash = keys.new_key()
    game = Game(
        profile=rules.name, first_dealer=_first_dealer(cleaned, first_dealer), key_hash=key_hash
    )
    game.players = [
        Player(seat=seat, name=name, name_key=name_key(name)) for seat, name in enumerate(cleaned)
    ]
    db.session.add(game)
    try:
        if keep is not None:
            db.session.flush()
            keep((game, key))
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise Conflict("the game could not be saved: nothing was stored, try again") from None
    return game, key


def can_edit(game: Game, key: str | None) -> bool:
    """True when `key` is this game's edit key: without it a device only watches."""
    return keys.matches(game.key_hash, key)


def _first_dealer(names: list[str], chosen: str | int | None) -> int:
    """The chosen first dealer's seat, or one drawn at random (R2)."""
    if chosen is None or chosen == "":
        return secrets.randbelow(len(names))
    if isinstance(chosen, int) and not isinstance(chosen, bool):
        if 0 <= chosen < len(names):
            return chosen
        raise ScorebookError(f"there is no seat {chosen + 1}", field="first_dealer")
    written = clean_name(str(chosen))
    if written in names:
        return names.index(written)
    key = name_key(written)
    for seat, name in enumerate(names):
        if name_key(name) == key:
            return seat
    raise ScorebookError(
        f"the first dealer {chosen!r} is not one of the players: {', '.join(names)}",
        field="first_dealer",
    )


def game_query(game_id: int, scores: bool = True, for_update: bool = False):
    """The statement that loads a whole game in a fixed number of queries.

    Recording a round needs the rounds but not their scores (`scores=False`): one query fewer.
    `for_update` locks the game's row first (see `get_game`).
    """
    rounds = selectinload(Game.rounds)
    statement = (
        db.select(Game)
        .where(Game.id == game_id)
        .options(
            selectinload(Game.players),
            rounds.selectinload(Round.scores) if scores else rounds,
            selectinload(Game.history),
        )
    )
    if for_update:
        # Rows this session loaded earlier are read again, as they are once the lock is held.
        statement = statement.with_for_update(of=Game).execution_options(populate_existing=True)
    return statement


def get_game(game_id: int, scores: bool = True, *, for_update: bool = False) -> Game:
    """The game with its players, rounds, scores and history, or 404.

    A request that will change the game passes `for_update`: the game's row is locked before
    its rounds are read, so every write to one game waits for the one before it, in any process
    (PostgreSQL's row lock; SQLite's whole-database write lock is already held, see `database`).
    """
    if game_id not in database.id_range():
        abort(404, description=f"game {game_id} does not exist")
    return db.first_or_404(
        game_query(game_id, scores, for_update), description=f"game {game_id} does not exist"
    )


_STAMP = db.text(
    "SELECT g.key_hash, g.finished_at,"
    " (SELECT count(*) FROM rounds r WHERE r.game_id = g.id),"
    " (SELECT coalesce(sum(r.version), 0) FROM rounds r WHERE r.game_id = g.id),"
    " (SELECT count(*) FROM round_changes c WHERE c.game_id = g.id),"
    " g.archived_at"
    " FROM games g WHERE g.id = :id"
)


def game_stamp(game_id: int) -> tuple | None:
    """What the game page shows changes exactly when this row does (None: no such game).

    One cheap statement on its own connection, outside the ORM session, that sees every
    writer, in this process or another: the key, the finish, the rounds' and history's
    counts and versions, and whether the game is archived.
    """
    if game_id not in database.id_range():
        return None
    with db.engine.connect() as connection:
        row = connection.execute(_STAMP, {"id": game_id}).first()
    return tuple(row) if row is not None else None


def list_games() -> list[Game]:
    """Every game, newest first, loaded in a fixed number of queries."""
    statement = (
        db.select(Game)
        .order_by(Game.created_at.desc(), Game.id.desc())
        .options(selectinload(Game.players), selectinload(Game.rounds).selectinload(Round.scores))
    )
    return list(db.session.scalars(statement))


def has_games() -> bool:
    """Whether any game was ever started: the home page greets a first evening differently."""
    return db.session.scalar(db.select(Game.id).limit(1)) is not None


def profile_of(game: Game) -> Profile:
    return get_profile(game.profile)


def next_round(game: Game) -> int | None:
    """The number of the round to record next, or None once round 7 is in."""
    number = (game.rounds[-1].number if game.rounds else 0) + 1
    return None if game.finished or number > LAST_ROUND else number


def setup_for(game: Game, number: int) -> RoundSetup:
    """Dealer, cutter, first player, deal and exact cut for a round of this game (R2, R3)."""
    return round_setup(game.first_dealer, number, len(game.players), profile_of(game))


def penalty_table(profile: Profile | str) -> dict[str, int]:
    """The penalty of each rank and the joker, from the engine, for the tap card pad (R10)."""
    table = {rank_name(rank): card_penalty(Card(rank, None), profile) for rank in RANKS}
    table["JK"] = card_penalty(JOKER, profile)
    return table


# --- Rounds --------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundEntry:
    """What the table reports after a round: who went out, the cut, the cards left per seat,
    or for a hand the table counted itself, its points (a seat is in one or the other)."""

    out: int | None
    leftovers: Mapping[int, str | Sequence[str]] = field(default_factory=dict)
    cut_exact: bool = False
    points: Mapping[int, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ScoredRound:
    """A round scored by the engine but not yet stored."""

    setup: RoundSetup
    result: RoundResult
    leftovers: tuple[str, ...]
    counted: tuple[bool, ...]


def score_entry(game: Game, number: int, entry: RoundEntry) -> ScoredRound:
    """Score a round with the engine, or `ScorebookError` naming every player whose entry is wrong."""
    names = game.names
    setup = setup_for(game, number)
    problems: dict[int | None, str] = {}
    hands: dict[int, tuple[Card, ...]] = {}
    for seat, text in entry.leftovers.items():
        try:
            hands[seat] = parse_leftovers(text)
        except RulesError as error:
            problems[seat] = str(error)
    # The player out counted at 0 simply went out: nothing to mark as counted.
    counted = {
        seat: points
        for seat, points in entry.points.items()
        if not (seat == entry.out and points == 0 and not isinstance(points, bool))
    }
    try:
        # Even with a card misread, every other hand is judged, so every problem is named at once.
        result = score_round(
            len(names), entry.out, hands, setup.cutter, entry.cut_exact, profile_of(game), counted
        )
    except LeftoverError as error:
        for seat, text in error.problems.items():
            problems.setdefault(seat, text)
    except RulesError as error:
        problems.setdefault(None, str(error))
    if problems:
        problems = dict(sorted(problems.items(), key=lambda item: (item[0] is None, item[0] or 0)))
        message = "; ".join(
            f"{names[seat]}: {text}" if seat is not None and seat < len(names) else text
            for seat, text in problems.items()
        )
        raise ScorebookError(message, problems=problems, field="leftovers")
    canonical = tuple(
        format_cards(sorted(hands.get(seat, ()), key=sort_key)) for seat in range(len(names))
    )
    return ScoredRound(
        setup, result, canonical, tuple(seat in counted for seat in range(len(names)))
    )


def record_round(
    game: Game, entry: RoundEntry, number: int | None = None, *, keep: Keep | None = None
) -> Round:
    """Store the next round whole; with `number`, `Conflict` if another device recorded it first."""
    expected = next_round(game)
    if number is not None:
        _check_next(game, number, expected)
    if expected is None:
        raise Conflict(f"game {game.id} is finished: all {LAST_ROUND} rounds are recorded")
    number = expected
    scored = score_entry(game, number, entry)
    now = utcnow()  # the last round is recorded the moment the game finishes
    played = Round(
        number=number,
        recorded_at=now,
        version=_first_version(game, number),
        dealer=scored.setup.dealer,
        cutter=scored.setup.cutter,
        cut_exact=entry.cut_exact,
        out=entry.out,
        scores=[
            RoundScore(
                seat=seat, leftovers=text, penalty=penalty, bonus=bonus, score=score, counted=hand
            )
            for seat, (text, penalty, bonus, score, hand) in enumerate(
                zip(
                    scored.leftovers,
                    scored.result.penalties,
                    scored.result.bonus,
                    scored.result.scores,
                    scored.counted,
                    strict=True,
                )
            )
        ],
    )
    with db.session.no_autoflush:
        game.rounds.append(played)
        if number == LAST_ROUND:
            game.finished_at = now
    _commit(
        game, number, "was recorded meanwhile on another device", keep and (lambda: keep(played))
    )
    return played


def _check_next(game: Game, number: int, expected: int | None) -> None:
    """Refuse to record round `number` when it is not the next one, saying what is there now."""
    if number == expected:
        return
    if not 1 <= number <= LAST_ROUND:
        raise ScorebookError(f"there is no round {number}: rounds go from 1 to {LAST_ROUND}")
    if expected is None or number < expected:
        raise Conflict(
            f"round {number} was recorded meanwhile on another device; "
            + (f"the next round is {expected}" if expected else f"game {game.id} is finished")
            + ": reload and try again",
            current=find_round(game, number),
        )
    raise Conflict(
        f"round {number} cannot be recorded yet: the next round is {expected}; reload and try again"
    )


def _first_version(game: Game, number: int) -> int:
    """1 for a new round; past any version an undone round of that number had, so none recurs."""
    seen = [
        version
        for change in game.history
        if change.round_number == number
        for version in (change.before.get("version"), (change.after or {}).get("version"))
        if isinstance(version, int)
    ]
    return max(seen, default=0) + 1


def find_round(game: Game, number: int) -> Round:
    """Round `number` of the game, or `Missing`."""
    for played in game.rounds:
        if played.number == number:
            return played
    raise Missing(f"round {number} of game {game.id} has not been recorded")


def correct_round(
    game: Game,
    number: int,
    entry: RoundEntry,
    version: int | None = None,
    *,
    keep: Keep | None = None,
) -> Round:
    """Replace a round's entry, history kept; `Conflict` if it changed since the caller's version."""
    played = find_round(game, number)
    if version is not None and version != played.version:
        raise stale(played)
    scored = score_entry(game, number, entry)
    before = snapshot(played)
    after = {
        "out": entry.out,
        "cut_exact": entry.cut_exact,
        "leftovers": list(scored.leftovers),
        "penalties": list(scored.result.penalties),
        "bonus": list(scored.result.bonus),
        "scores": list(scored.result.scores),
        "version": played.version + 1,
    }
    if any(scored.counted):
        after["counted"] = list(scored.counted)
    if all(before.get(key) == after.get(key) for key in CHANGES):
        return played  # nothing changed: no new version, nothing in the history
    # No flush before `_commit`: it alone turns a refused write into `Conflict`.
    with db.session.no_autoflush:
        played.cut_exact = entry.cut_exact
        played.out = entry.out
        for line in played.scores:
            line.leftovers = scored.leftovers[line.seat]
            line.penalty = scored.result.penalties[line.seat]
            line.bonus = scored.result.bonus[line.seat]
            line.score = scored.result.scores[line.seat]
            line.counted = scored.counted[line.seat]
        # The UPDATE says `WHERE version = <as loaded>`: a change slipped in is refused whole.
        played.version += 1
        played.corrected_at = utcnow()
        game.history.append(
            RoundChange(round_number=number, action="corrected", before=before, after=after)
        )
    _commit(
        game, number, "was changed meanwhile on another device", keep and (lambda: keep(played))
    )
    return played


def undo_round(
    game: Game, number: int | None = None, version: int | None = None, *, keep: Keep | None = None
) -> dict[str, Any]:
    """Remove the latest round into the history; `Conflict` if it changed since `version`."""
    if not game.rounds:
        raise Missing(f"game {game.id} has no round to undo")
    latest = game.rounds[-1]
    if number is not None and number != latest.number:
        find_round(game, number)
        raise Conflict(
            f"only the latest round ({latest.number}) can be undone; correct round {number} instead"
        )
    if version is not None and version != latest.version:
        raise stale(latest)
    before = snapshot(latest)
    with db.session.no_autoflush:
        game.rounds.remove(latest)
        db.session.delete(latest)
        game.finished_at = None
        game.history.append(
            RoundChange(round_number=latest.number, action="undone", before=before, after=None)
        )
    _commit(
        game,
        latest.number,
        "was changed meanwhile on another device",
        keep and (lambda: keep(before)),
    )
    return before


def snapshot(played: Round) -> dict[str, Any]:
    """A round as plain data, for the history; `counted` only when a hand was counted in points,
    so a round entered by cards reads as it always has."""
    data = {
        "out": played.out,
        "cut_exact": played.cut_exact,
        "leftovers": [line.leftovers for line in played.scores],
        "penalties": [line.penalty for line in played.scores],
        "bonus": [line.bonus for line in played.scores],
        "scores": [line.score for line in played.scores],
        "version": played.version,
    }
    if any(line.counted for line in played.scores):
        data["counted"] = [line.counted for line in played.scores]
    return data


def counted_seats(data: dict[str, Any]) -> list[int]:
    """The seats whose hand a snapshot holds as points counted at the table, not as cards."""
    return [seat for seat, hand in enumerate(data.get("counted") or []) if hand]


def stale(played: Round) -> Conflict:
    """The refusal for a caller who saw an older version of the round than the one stored."""
    return Conflict(
        f"round {played.number} was changed on another device (now version {played.version}); "
        "reload and try again",
        current=played,
    )


def _commit(
    game: Game, number: int, what_happened: str, then: Callable[[], None] | None = None
) -> None:
    """Commit all or nothing; a lost race with another device becomes `Conflict`, nothing stored.

    `then` runs once the write is flushed, before the commit (see `create_game`'s `keep`).
    """
    # On SQLite the whole request is one BEGIN IMMEDIATE transaction, so races queue up and the
    # checks before this catch them; elsewhere the unique (game, number) constraint and the
    # versioned UPDATE/DELETE catch them here.
    try:
        if then is not None:
            db.session.flush()
            then()
        db.session.commit()
    except (IntegrityError, StaleDataError):
        db.session.rollback()
        db.session.expire_all()
        current = next((r for r in game.rounds if r.number == number), None)
        if current is None:
            raise Conflict(
                f"the database refused round {number}: nothing was saved; reload and try again"
            ) from None
        raise Conflict(
            f"round {number} {what_happened} (now version {current.version}); "
            "nothing was saved: reload and try again",
            current=current,
        ) from None


# --- Reading the book ----------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """One line of the standings: place (ties share it), seat, name and total."""

    place: int
    seat: int
    name: str
    total: int


@dataclass(frozen=True)
class Book:
    """Everything the game page and the API show, computed once from the stored rounds."""

    game: Game
    profile: Profile
    names: list[str]
    totals: list[int]
    leaders: list[int]
    winners: list[int]
    next_round: int | None
    setup: RoundSetup | None
    standings: list[Standing]
    changes: list[Change] = field(default_factory=list)

    @property
    def leader_names(self) -> list[str]:
        return [self.names[seat] for seat in self.leaders]

    @property
    def winner_names(self) -> list[str]:
        return [self.names[seat] for seat in self.winners]


@dataclass(frozen=True)
class Change:
    """A history entry in words: when, which round, what it was and what it became."""

    when: datetime
    round_number: int
    action: str
    lines: list[str]


def book(game: Game) -> Book:
    """Totals, leaders, winners (R10) and the next round's setup (R2) for a loaded game."""
    names = game.names
    sums = totals(([line.score for line in r.scores] for r in game.rounds), len(names))
    ahead = leaders(sums) if game.rounds else []
    number = next_round(game)
    order = sorted(range(len(names)), key=lambda seat: (sums[seat], seat))
    standings = [
        Standing(
            place=1 + sum(1 for other in sums if other < sums[seat]),
            seat=seat,
            name=names[seat],
            total=sums[seat],
        )
        for seat in order
    ]
    return Book(
        game=game,
        profile=profile_of(game),
        names=names,
        totals=sums,
        leaders=ahead,
        winners=ahead if game.finished else [],
        next_round=number,
        setup=setup_for(game, number) if number else None,
        standings=standings,
        changes=[describe(change, names) for change in reversed(game.history)],
    )


def describe(change: RoundChange, names: list[str]) -> Change:
    """A correction or undo in words: only what changed, before → after."""
    before, after = change.before, change.after
    if after is None:
        return Change(
            change.changed_at, change.round_number, change.action, [summary(before, names)]
        )
    lines = []
    if before["out"] != after["out"]:
        lines.append(f"went out: {_out_name(before, names)} → {_out_name(after, names)}")
    if before["cut_exact"] != after["cut_exact"]:
        lines.append(
            f"exact cut: {'yes' if before['cut_exact'] else 'no'} → "
            f"{'yes' if after['cut_exact'] else 'no'}"
        )
    for seat, name in enumerate(names):
        was = _line(before, seat)
        now = _line(after, seat)
        if was != now:
            lines.append(f"{name}: {was} → {now}")
    return Change(change.changed_at, change.round_number, change.action, lines)


def summary(data: dict[str, Any], names: list[str]) -> str:
    """A whole round in one line: who went out, the exact cut, each player's cards and score."""
    head = "nobody went out" if data["out"] is None else f"{names[data['out']]} went out"
    if data["cut_exact"]:
        head += ", exact cut"
    return head + "; " + ", ".join(f"{name} {_line(data, seat)}" for seat, name in enumerate(names))


def _out_name(data: dict[str, Any], names: list[str]) -> str:
    return "nobody" if data["out"] is None else names[data["out"]]


def _line(data: dict[str, Any], seat: int) -> str:
    """One player's round: cards = penalty, the cut bonus if any, = score."""
    cards = "counted" if seat in counted_seats(data) else data["leftovers"][seat] or "out"
    penalty, bonus, score = data["penalties"][seat], data["bonus"][seat], data["scores"][seat]
    if not bonus:
        return f"{cards} = {_signed(score)}"
    return f"{cards} = {_signed(penalty)}, cut {_signed(bonus)} = {_signed(score)}"


def _signed(value: int) -> str:
    """A number with a real minus sign."""
    return f"−{-value}" if value < 0 else str(value)


# --- JSON ----------------------------------------------------------------------------------


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
        "leftovers": {
            names[line.seat]: line.leftovers.split() for line in played.scores if not line.counted
        },
        "points": {names[line.seat]: line.penalty for line in played.scores if line.counted},
        "penalties": {names[line.seat]: line.penalty for line in played.scores},
        "bonus": {names[line.seat]: line.bonus for line in played.scores},
        "scores": {names[line.seat]: line.score for line in played.scores},
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
        "profile": game.profile,
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
        "stock_after_deal": setup.stock_after_deal if setup else None,
        "rounds": [round_json(game, played) for played in game.rounds],
        "totals": dict(zip(names, state.totals, strict=True)),
        "leaders": [names[seat] for seat in state.leaders],
        "finished": game.finished,
        "winners": [names[seat] for seat in state.winners],
        "created_at": _when(game.created_at),
        "finished_at": _when(game.finished_at),
        "archived_at": _when(game.archived_at),
    }
