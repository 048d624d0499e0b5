"""The score book's writes: create games and play them again with the same table, record,
correct and undo rounds, and the table's corrections to a game itself (a misspelt name put
right, a game ended after any round and that end taken back).

The pages and the JSON API both call these functions, so the two can never disagree. Every rule
(seats, deal, cut bonus, penalties, copy limits, winners) comes from the engine in
`scorekeeper.rules`; this module only stores what the engine decides.

A write is flushed here, never committed: the route that asked for it commits it together with
its answer (`writeonce.write_once`), and any other caller commits it itself.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from ..platform import database
from ..platform.database import db
from ..platform.language import spoken
from ..rules import RulesError
from ..rules.errors import RuleSetError
from ..rules.ruleset import DEFAULT_RULES, RuleSet
from ..rules.scoring import LeftoverError, Where, copy_problems, score_round
from . import buys, keys
from .errors import Conflict, HandRefused, Missing, RulesRefused, ScorebookError
from .ledger import next_first_dealer, next_round, rules_of, setup_for
from .models import Game, Player, Rename, Round, RoundChange, RoundScore, utcnow
from .names import (
    clean_name,
    clean_names,
    name_key,
    name_problems,
    rename_problems,
    seat_keys,
    seat_of,
)
from .roundvalues import CheckedHand, RoundEntry, RoundSnapshot, ScoredRound, check_hand


def create_game(
    names: Sequence[str],
    rules: RuleSet | str | Mapping[str, Any] | None = None,
    first_dealer: str | int | None = None,
    *,
    as_played: bool = False,
) -> tuple[Game, str]:
    """Seat the players under a rule set (R11: a `RuleSet`, a preset's name or a document;
    `liverpool` when none) and draw the first dealer if not given (R2). The game keeps its own
    copy of the rules. The key is returned, never stored. With `as_played` (playing again)
    names kept from before the name rules stay as they were played (`names.clean_names`)."""
    rules = read_rules(rules)
    cleaned = clean_names(names, as_played=as_played)
    try:
        rules.check_players(len(cleaned))
    except RulesError as error:
        raise ScorebookError(str(error)) from None
    key, key_hash = keys.new_key()
    game = Game(first_dealer=_first_dealer(cleaned, first_dealer), key_hash=key_hash)
    game.rule_set = rules
    game.players = [
        Player(seat=seat, name=name, name_key=key)
        for seat, (name, key) in enumerate(zip(cleaned, seat_keys(cleaned), strict=True))
    ]
    db.session.add(game)
    try:
        db.session.flush()
    except IntegrityError:
        db.session.rollback()
        raise Conflict(_("the game could not be saved: nothing was stored, try again")) from None
    except DBAPIError as error:
        if not database.ids_used_up(error):
            raise
        db.session.rollback()
        raise Conflict(
            _(
                "no new game can be numbered: game %(game)s, the highest number this database "
                "holds, is taken (it came in with an import); nothing was stored",
                game=database.id_range()[-1],
            )
        ) from None
    return game, key


def add_seat(game: Game, name: str) -> Player:
    """Seat a player who arrives before the game's first round is recorded, after the last seat
    (clockwise, R2: the first dealer stays): refused once a round is in, at the rule set's most
    players, or for a name the table already has (look-alikes too). The game is locked by the
    caller (`ledger.get_game(..., for_update=True)`)."""
    if game.rounds or game.finished:
        raise Conflict(
            _("game %(game)s has started: a new player joins only before round 1", game=game.id)
        )
    try:
        rules_of(game).check_players(len(game.players) + 1)
    except RulesError as error:
        raise Conflict(str(error)) from None
    problems = name_problems([*game.names, name])
    if problems:
        raise ScorebookError(next(iter(problems.values())))
    cleaned = clean_name(name)
    keys_now = seat_keys([*game.names, cleaned])
    player = Player(seat=len(game.players), name=cleaned, name_key=keys_now[-1])
    game.players.append(player)
    db.session.flush()
    return player


def read_rules(rules: RuleSet | str | Mapping[str, Any] | None) -> RuleSet:
    """The rule set asked for (a `RuleSet`, a preset's name or a document; `liverpool` when
    none), or `ScorebookError` naming every problem of a bad one (R11)."""
    if rules is None or rules == "":
        return DEFAULT_RULES
    try:
        return RuleSet.parse(rules)
    except RuleSetError as error:
        raise RulesRefused(str(error), error.problems) from None
    except RulesError as error:
        raise RulesRefused(str(error), {"rules": str(error)}) from None


def _first_dealer(names: list[str], chosen: str | int | None) -> int:
    """The chosen first dealer's seat, or one drawn at random (R2)."""
    if chosen is None or chosen == "":
        return secrets.randbelow(len(names))
    if isinstance(chosen, int) and not isinstance(chosen, bool):
        if 0 <= chosen < len(names):
            return chosen
        raise ScorebookError(_("there is no seat %(seat)s", seat=chosen + 1))
    written = clean_name(str(chosen))
    if written in names:
        return names.index(written)
    key = name_key(written)
    for seat, name in enumerate(names):
        if name_key(name) == key:
            return seat
    raise ScorebookError(
        _(
            "the first dealer %(chosen)s is not one of the players: %(players)s",
            chosen=repr(chosen),
            players=", ".join(names),
        ),
    )


# --- Rounds --------------------------------------------------------------------------------


def score_entry(
    game: Game, number: int, entry: RoundEntry, kept: Sequence[int | None] = ()
) -> ScoredRound:
    """Score a round with the engine, or `ScorebookError` naming every problem of it at once,
    each by the player (or players) whose hand it concerns (and each seat's wrong buys).

    `kept`: the round's buys as stored, for an entry that gives none (a correction)."""
    names = game.names
    setup = setup_for(game, number)
    hands, problems = _read_hands(game, entry, judge_points=True)
    # The player out counted at 0 simply went out: nothing to mark as counted.
    counted = {
        seat: points
        for seat, points in entry.counted.items()
        if not (seat == entry.out and points == 0 and not isinstance(points, bool))
    }
    try:
        # Even with a card misread, every other hand is judged, so every problem is named at once.
        result = score_round(
            len(names),
            entry.out,
            {seat: hand.cards for seat, hand in hands.items()},
            setup.cutter,
            entry.cut_exact,
            rules_of(game),
            counted,
            entry.out_in_one_turn,
        )
    except LeftoverError as error:
        for where, text in error.problems.items():
            problems.setdefault(where, text)
    except RulesError as error:
        problems.setdefault(None, str(error))
    _refuse(names, problems, buys.problems(game, number, entry.buys or {}))
    seats = range(len(names))
    canonical = tuple(hands[seat].text if seat in hands else "" for seat in seats)
    given = entry.buys if entry.buys is not None else dict(enumerate(kept))
    return ScoredRound(
        setup,
        result,
        canonical,
        tuple(seat in counted for seat in seats),
        tuple(given.get(seat, 0) for seat in seats),
    )


def _refuse(names: Sequence[str], problems: dict[Where, str], bought: dict[int, str]) -> None:
    """Refuse the round naming every problem of its hands, and each seat's wrong buys."""
    if bought:
        refused = round_refused(names, problems) if problems else None
        said = [refused.message] if refused is not None else []
        said += [
            _("%(name)s's buys: %(problem)s", name=names[seat], problem=text)
            for seat, text in bought.items()
        ]
        raise buys.BuysRefused(
            "; ".join(said), problems=refused.problems if refused else {}, buys=bought
        )
    if problems:
        raise round_refused(names, problems)


def check_hands(game: Game, entry: RoundEntry) -> None:
    """What can be judged of the hands before anyone is named as out: each hand's cards read
    (R1) and the copies the packs hold, across the hands (R1); `ScorebookError` naming every
    problem, each by the player (or players) whose hand it concerns."""
    hands, problems = _read_hands(game, entry, judge_points=False)
    cards = {seat: hand.cards for seat, hand in hands.items()}
    for where, text in copy_problems(cards, rules_of(game), len(game.players)).items():
        problems.setdefault(where, text)
    if problems:
        raise round_refused(game.names, problems)


def _read_hands(
    game: Game, entry: RoundEntry, *, judge_points: bool
) -> tuple[dict[int, CheckedHand], dict[Where, str]]:
    """Each hand typed by its cards, read by `check_hand` (and each counted in points, judged
    with who went out, when `judge_points`), and the problem of each hand refused."""
    rules = rules_of(game)
    problems: dict[Where, str] = {}
    hands: dict[int, CheckedHand] = {}
    for seat, hand in entry.hands.items():
        if hand.kind == "points" and not judge_points:
            continue
        try:
            checked = check_hand(hand, rules, len(game.players), went_out=seat == entry.out)
        except HandRefused as error:
            problems[seat] = spoken(error.message)
            continue
        if checked.kind == "cards":
            hands[seat] = checked
    return hands, problems


def round_refused(names: Sequence[str], problems: Mapping[Where, str]) -> ScorebookError:
    """The refusal of a round naming every problem, in seat order, the round's own last."""
    ordered = dict(sorted(problems.items(), key=lambda item: _problem_order(item[0], len(names))))
    message = "; ".join(problem_line(names, where, text) for where, text in ordered.items())
    return ScorebookError(message, problems=ordered)


def _problem_order(where: Where, seats: int) -> tuple[int, int, int]:
    if isinstance(where, tuple):
        return (0, where[0], 1)
    if where is not None and 0 <= where < seats:
        return (0, where, 0)
    return (1, 0, 0)


def problem_line(names: Sequence[str], where: Where, text: str) -> str:
    """A problem of a round said with whose hand it concerns: `Bob: …`, or for cards that only
    several hands together hold too many of, `Ann and Bob between them: …`."""
    if isinstance(where, tuple):
        who = [names[seat] for seat in where]
        return _(
            "%(names)s and %(last)s between them: %(problem)s",
            names=", ".join(who[:-1]),
            last=who[-1],
            problem=text,
        )
    if where is not None and 0 <= where < len(names):
        return _("%(name)s: %(problem)s", name=names[where], problem=text)
    return text


def record_round(game: Game, entry: RoundEntry, number: int | None = None) -> Round:
    """Store the next round whole; with `number`, `Conflict` if another device recorded it first."""
    expected = next_round(game)
    if number is not None:
        _check_next(game, number, expected)
    if expected is None:
        raise finished(game)
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
        out_in_one_turn=entry.out_in_one_turn,
        scores=[
            RoundScore(
                seat=seat,
                leftovers=text,
                penalty=penalty,
                bonus=bonus,
                score=score,
                counted=hand,
                buys=bought,
            )
            for seat, (text, penalty, bonus, score, hand, bought) in enumerate(
                zip(
                    scored.leftovers,
                    scored.result.penalties,
                    scored.result.bonus,
                    scored.result.scores,
                    scored.counted,
                    scored.buys,
                    strict=True,
                )
            )
        ],
    )
    with db.session.no_autoflush:
        game.rounds.append(played)
        if number == rules_of(game).last_deal:
            game.finished_at = now
    _flush(game, number, recorded=True)
    return played


def _check_next(game: Game, number: int, expected: int | None) -> None:
    """Refuse to record round `number` when it is not the next one, saying what is there now."""
    if number == expected:
        return
    last = rules_of(game).last_deal
    if not 1 <= number <= last:
        raise ScorebookError(
            _(
                "there is no round %(number)s: %(rules)s have rounds 1 to %(last)s",
                number=number,
                rules=rules_of(game).rules_name,
                last=last,
            )
        )
    if expected is None or number < expected:
        raise Conflict(
            _(
                "round %(number)s was recorded meanwhile on another device; the next round is "
                "%(expected)s: reload and try again",
                number=number,
                expected=expected,
            )
            if expected
            else _(
                "round %(number)s was recorded meanwhile on another device; game %(game)s is "
                "finished: reload and try again",
                number=number,
                game=game.id,
            ),
            current=find_round(game, number),
        )
    raise Conflict(
        _(
            "round %(number)s cannot be recorded yet: the next round is %(expected)s; reload and "
            "try again",
            number=number,
            expected=expected,
        )
    )


def finished(game: Game) -> Conflict:
    """The refusal of a round for a game whose last deal is recorded, or that was ended early."""
    if game.ended_early:
        return Conflict(
            _(
                "game %(game)s was ended after round %(last)s: take the early end back first to "
                "play on",
                game=game.id,
                last=game.ended_after,
            )
        )
    last = rules_of(game).last_deal
    return Conflict(
        _("game %(game)s is finished: all %(last)s rounds are recorded", game=game.id, last=last)
    )


def _first_version(game: Game, number: int) -> int:
    """1 for a new round; past any version an undone round of that number had, so none recurs."""
    seen = [
        RoundSnapshot.from_dict(data).version
        for change in game.history
        if change.round_number == number
        for data in (change.before, change.after)
        if data is not None
    ]
    return max(seen, default=0) + 1


def find_round(game: Game, number: int) -> Round:
    """Round `number` of the game, or `Missing`."""
    for played in game.rounds:
        if played.number == number:
            return played
    raise Missing(
        _("round %(number)s of game %(game)s has not been recorded", number=number, game=game.id)
    )


def correct_round(
    game: Game,
    number: int,
    entry: RoundEntry,
    version: int | None = None,
) -> Round:
    """Replace a round's entry, history kept; `Conflict` if it changed since the caller's version."""
    played = find_round(game, number)
    if version is not None and version != played.version:
        raise stale(played)
    scored = score_entry(game, number, entry, [line.buys for line in played.scores])
    was = RoundSnapshot.of_round(played)
    now = RoundSnapshot.of_scored(entry, scored, played.version + 1)
    if now.same_entry(was):
        return played  # nothing changed: no new version, nothing in the history
    before, after = was.to_dict(), now.to_dict()
    # No flush before `_flush`: it alone turns a refused write into `Conflict`.
    with db.session.no_autoflush:
        played.cut_exact = entry.cut_exact
        played.out = entry.out
        played.out_in_one_turn = entry.out_in_one_turn
        for line in played.scores:
            line.leftovers = scored.leftovers[line.seat]
            line.penalty = scored.result.penalties[line.seat]
            line.bonus = scored.result.bonus[line.seat]
            line.score = scored.result.scores[line.seat]
            line.counted = scored.counted[line.seat]
            line.buys = scored.buys[line.seat]
        # The UPDATE says `WHERE version = <as loaded>`: a change slipped in is refused whole.
        played.version += 1
        played.corrected_at = utcnow()
        game.history.append(
            RoundChange(round_number=number, action="corrected", before=before, after=after)
        )
    _flush(game, number, recorded=False)
    return played


def undo_round(game: Game, number: int | None = None, version: int | None = None) -> dict[str, Any]:
    """Remove the latest round into the history; `Conflict` if it changed since `version`.

    Returns the round as the history keeps it (`RoundSnapshot.to_dict`).
    """
    if not game.rounds:
        raise Missing(_("game %(game)s has no round to undo", game=game.id))
    latest = game.rounds[-1]
    if number is not None and number != latest.number:
        find_round(game, number)
        raise Conflict(
            _(
                "only the latest round (%(latest)s) can be undone; correct round %(number)s instead",
                latest=latest.number,
                number=number,
            )
        )
    if version is not None and version != latest.version:
        raise stale(latest)
    if game.ended_early:
        raise finished(game)  # the early end names its last round: it is taken back first
    before = RoundSnapshot.of_round(latest).to_dict()
    with db.session.no_autoflush:
        game.rounds.remove(latest)
        db.session.delete(latest)
        game.finished_at = None
        game.history.append(
            RoundChange(round_number=latest.number, action="undone", before=before, after=None)
        )
    _flush(game, latest.number, recorded=False)
    return before


def stale(played: Round) -> Conflict:
    """The refusal for a caller who saw an older version of the round than the one stored."""
    return Conflict(
        _(
            "round %(number)s was changed on another device (now version %(version)s); reload "
            "and try again",
            number=played.number,
            version=played.version,
        ),
        current=played,
    )


def _flush(game: Game, number: int, *, recorded: bool) -> None:
    """Write all or nothing; a lost race with another device becomes `Conflict`, nothing stored
    (said as the round `recorded` meanwhile, else changed meanwhile)."""
    # On SQLite the whole request is one BEGIN IMMEDIATE transaction, so races queue up and the
    # checks before this catch them; elsewhere the unique (game, number) constraint and the
    # versioned UPDATE/DELETE catch them here.
    try:
        db.session.flush()
    except (IntegrityError, StaleDataError):
        db.session.rollback()
        db.session.expire_all()
        current = next((r for r in game.rounds if r.number == number), None)
        if current is None:
            raise Conflict(
                _(
                    "the database refused round %(number)s: nothing was saved; reload and try "
                    "again",
                    number=number,
                )
            ) from None
        said = (
            _(
                "round %(number)s was recorded meanwhile on another device (now version "
                "%(version)s); nothing was saved: reload and try again",
                number=number,
                version=current.version,
            )
            if recorded
            else _(
                "round %(number)s was changed meanwhile on another device (now version "
                "%(version)s); nothing was saved: reload and try again",
                number=number,
                version=current.version,
            )
        )
        raise Conflict(said, current=current) from None


class Coming(NamedTuple):
    """The game that playing again starts: who deals its first round, under which rules."""

    first_dealer: int
    rules: RuleSet


def coming(game: Game) -> Coming:
    """What playing `game` again starts."""
    return Coming(next_first_dealer(game), rules_of(game))


def rematch(game: Game) -> tuple[Game, str]:
    """A new game of the same players in the same seats under the same rules (its own copy of
    this game's, so even a table's own rules carry over); `Conflict` while this one is unfinished.
    The names carry over as they were played, kept from before the name rules or not."""
    rules = rules_of(game)
    if not game.finished:
        raise Conflict(
            _(
                "game %(game)s is not finished: play again once round %(last)s is recorded",
                game=game.id,
                last=rules.last_deal,
            )
        )
    made = create_game(game.names, rules, next_first_dealer(game), as_played=True)
    # From now on this game's result is where the new one started: its early end stays.
    game.played_again_at = game.played_again_at or utcnow()
    return made


# --- The game itself: a misspelt name put right, an early end and taking it back -----------


def rename_players(
    game: Game, renamed: Mapping[int, str], seen: Mapping[int, str] | None = None
) -> list[Rename]:
    """Give seats new names under the name rules of a new game (each shows as written and
    differs from every other seat's by more than case, accents or look-alike letters); the
    history keeps each former name (`Rename`). `seen` is each seat's name as the caller read
    it: a seat renamed meanwhile on another device is `Conflict`, nothing stored. Every
    problem is named at once (`ScorebookError.problems`, by seat). A name written as it
    already is changes nothing; the renames made are returned."""
    current = game.names
    beyond = sorted(seat for seat in {*renamed, *(seen or {})} if not 0 <= seat < len(current))
    if beyond:
        raise ScorebookError(
            ngettext(
                "there is no seat %(seat)s: the game has %(num)s",
                "there is no seat %(seat)s: the game has %(num)s",
                len(current),
                seat=beyond[0] + 1,
            )
        )
    for seat, name in (seen or {}).items():
        if current[seat] != name:
            raise Conflict(
                _(
                    "%(name)s was renamed %(now)s meanwhile on another device; nothing was "
                    "saved: reload and try again",
                    name=name,
                    now=current[seat],
                )
            )
    problems = _rename_problems(game, renamed)
    if problems:
        message = "; ".join(
            _("%(name)s: %(problem)s", name=current[seat], problem=text)
            for seat, text in problems.items()
        )
        raise ScorebookError(message, problems=problems)
    changes = {
        seat: clean_name(name)
        for seat, name in renamed.items()
        if clean_name(name) != current[seat]
    }
    players = [player for player in game.players if player.seat in changes]
    made = []
    with db.session.no_autoflush:
        for player in players:  # keys freed first: two seats may swap names
            player.name_key = f"#renaming {player.seat}"
    _flush_game(game)
    with db.session.no_autoflush:
        for player in players:
            made.append(Rename(seat=player.seat, before=player.name, after=changes[player.seat]))
            player.name, player.name_key = changes[player.seat], name_key(changes[player.seat])
        game.renames.extend(made)
    _flush_game(game)
    return made


def _rename_problems(game: Game, renamed: Mapping[int, str]) -> dict[int, str]:
    """What the name rules say against each new name, by seat."""
    return rename_problems(game.names, [player.name_key for player in game.players], renamed)


def rename_by_name(game: Game, renamed: Mapping[str, Any]) -> list[Rename]:
    """`{"Bbo": "Bob"}`: each player named as they are now (any spelling that looks alike)
    gets the new name (`rename_players`). Every problem is named at once: an unknown player, a
    seat given twice, a new name that is not text or breaks the name rules. A player named as
    they were before a rename made meanwhile on another device is `Conflict`."""
    seats: dict[int, str] = {}
    problems: list[str] = []
    moved: list[str] = []
    for old, new in renamed.items():
        try:
            seat = seat_of(game, old)
        except ScorebookError as error:
            if (now := _renamed_from(game, old)) is None:
                problems.append(error.message)
            else:
                moved.append(
                    _("%(name)s was renamed %(now)s meanwhile on another device", name=old, now=now)
                )
            continue
        if not isinstance(new, str):
            problems.append(_("the new name of %(name)s must be text", name=game.names[seat]))
        elif seat in seats:
            problems.append(_("%(name)s is given twice", name=game.names[seat]))
        else:
            seats[seat] = new
    problems += [
        _("%(name)s: %(problem)s", name=game.names[seat], problem=text)
        for seat, text in _rename_problems(game, seats).items()
    ]
    if problems:
        raise ScorebookError("; ".join(problems))
    if moved:
        raise Conflict(
            _(
                "%(problems)s; nothing was saved: reload and try again",
                problems="; ".join(moved),
            )
        )
    return rename_players(game, seats)


def _renamed_from(game: Game, name: str) -> str | None:
    """The name now of the seat that was called `name` before a rename, if one was."""
    for rename in reversed(game.renames):
        if rename.before == clean_name(name) or name_key(rename.before) == name_key(name):
            return game.names[rename.seat]
    return None


def end_early(game: Game, after: int | None = None) -> Game:
    """End the game after the rounds played (at least one): its leaders win, ties sharing
    (R10). `after` is the last round as the caller saw it: `Conflict` when another round was
    recorded or undone meanwhile, or the game is over already."""
    played = len(game.rounds)
    if after is not None and after < 1:
        raise ScorebookError(
            _("a game ends after round 1 at the earliest, not after round %(after)s", after=after)
        )
    if game.finished:
        raise finished(game)
    if not played:
        raise ScorebookError(
            _("game %(game)s has no round yet: record round 1 before ending it", game=game.id)
        )
    if after is not None and after != played:
        raise Conflict(
            _(
                "round %(played)s is the last one recorded now, not round %(after)s (it changed "
                "meanwhile on another device); nothing was saved: reload and try again",
                played=played,
                after=after,
            )
        )
    game.ended_after, game.finished_at = played, utcnow()
    _flush_game(game)
    return game


def resume_game(game: Game) -> Game:
    """Take back an early end: the game goes on from the next round. `Conflict` for a game
    not ended early, or one a new game was played from (that game started from this result)."""
    if not game.ended_early:
        raise Conflict(
            _("game %(game)s was not ended early: there is no early end to take back", game=game.id)
        )
    if game.played_again_at is not None:
        raise Conflict(
            _(
                "game %(game)s stays ended after round %(last)s: the table played again from it, "
                "and that game started from this result",
                game=game.id,
                last=game.ended_after,
            )
        )
    game.ended_after, game.finished_at = None, None
    _flush_game(game)
    return game


def _flush_game(game: Game) -> None:
    """Write a change to the game itself; a lost race with another device becomes `Conflict`."""
    try:
        db.session.flush()
    except (IntegrityError, StaleDataError):
        db.session.rollback()
        raise Conflict(
            _(
                "game %(game)s was changed meanwhile on another device; nothing was saved: reload "
                "and try again",
                game=game.id,
            )
        ) from None
