"""Hands sent by phone: open a round to phones, seat a phone, take its hand, say each seat's state.

A phone holds nothing but a seat token for one seat of one opened round: it can send that
seat's hand while the round is open, and read back its own hand. The score is still written
once, by the score book (`games.service.record_round`), when the scorekeeper saves the
round form these hands fill; every check of the round (copy limits across all hands, who went
out, the cut) happens there. Here each hand is checked alone, with the game's rules, so a phone
hears at once of a card it misread.

A write is flushed here, never committed: the route commits it with its answer
(`writeonce.write_once`). Every route that writes locks first (`access.phone_required`): a
phone's send shares the game's row with the other sends and locks its own seat's row, so phones
never wait for each other and the tablet's save waits for them; taking a seat locks the game's.

A round is opened under a round code: four characters a player reads off the tablet and types on
a phone. Only letters and digits that cannot be taken for another are used (no I/1/L, O/0/Q, S/5,
Z/2, B/8, G/6, U/V), in capitals; a code is read case-insensitively, with spaces and dashes
ignored. Twenty characters, four of them: 160,000 codes, against at most `RATELIMIT_JOINS` tries
a minute from one address.

A round opened to phones is open while it is not closed by the tablet, its round is still the
one to play, and it is not recorded (and undone) since it was opened: judged from a few facts
read with the opening in one statement (`openings`), since every phone's request asks.

What a phone or the tablet is refused here (`PhoneError` and its kin) is a score book error with
its HTTP status, so the pages and the JSON API answer it as they answer the score book's.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from flask_babel import gettext as _
from sqlalchemy import func
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import joinedload

from ..games import ledger, names
from ..games.errors import Conflict, HandRefused, Missing, ScorebookError
from ..games.models import Game, Round, RoundChange, utcnow
from ..games.roundvalues import Hand, check_hand
from ..platform.database import db
from ..platform.language import say
from ..rules.scoring import one_turn_problem
from .models import PhoneHand, RoundOpening

# How a phone's write locks its game's row (`phone_game`): for update, shared, or not at all.
Lock = Literal["update", "share"] | None
# Tries at a free code before giving up (20^4 codes: a clash is rare, two in a row rarer).
CODE_TRIES = 12
# A hand's kind when its player went out and went down in the same turn (R12.3): "out" else.
ONE_TURN = "one_turn"
# The round codes' characters and length.
ALPHABET = "ACDEFHJKMNPRTWXY3479"
LENGTH = 4
_IGNORED = re.compile(r"[\s\-_.]+")


def new_code() -> str:
    """A random code (the caller makes sure no open round holds it)."""
    return "".join(secrets.choice(ALPHABET) for _char in range(LENGTH))


def normal_code(code: str) -> str | None:
    """The code as stored (`acde` and `A-C D E` read `ACDE`), or None for what cannot be one."""
    written = _IGNORED.sub("", code or "").upper()
    if len(written) != LENGTH or any(char not in ALPHABET for char in written):
        return None
    return written


class PhoneError(ScorebookError):
    """The root of the phones' refusals (400 unless a subclass says otherwise)."""


class NoSuchCode(Missing):
    """A code no open round has: wrong, closed or expired alike, so a guess learns nothing."""

    def __init__(self, code: str):
        shown = code if len(code) <= 12 else code[:12] + "…"
        super().__init__(
            _(
                "no round is open under the code %(code)s: check the code on the scorekeeper's "
                "tablet (it changes for every round)",
                code=repr(shown),
            )
        )


class BadSeatToken(PhoneError):
    """A send without this seat's token, or with one released or of another code."""

    status = 403


class SeatTaken(Conflict):
    """A seat another phone holds: only the tablet can release it."""


class RoundClosed(Conflict):
    """The round's code was closed by the tablet, or the round is no longer the one to play."""


class RoundSaved(Conflict):
    """The round was saved in the ledger: no phone can change it any more."""


def token_hash(token: str) -> str:
    """The stored form of a seat token: sha256, in hex (the token itself is never stored)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    """A seat token: 128 random bits."""
    return secrets.token_urlsafe(16)


# --- Whether a round opened to phones is still open ------------------------------------------


@dataclass(frozen=True)
class RoundFacts:
    """What an opening's state rests on, read in one statement: the game's last recorded round
    (0 for none) and how many history entries (corrections, undos) the opening's round has."""

    last: int
    history: int


def round_facts(game_id: int, number: int) -> RoundFacts:
    last = db.select(func.coalesce(func.max(Round.number), 0)).where(Round.game_id == game_id)
    history = db.select(func.count(RoundChange.id)).where(
        RoundChange.game_id == game_id, RoundChange.round_number == number
    )
    row = db.session.execute(db.select(last.scalar_subquery(), history.scalar_subquery())).one()
    return RoundFacts(int(row[0]), int(row[1]))


def openings(
    *where, hands: bool = False, limit: int | None = None, again: bool = False
) -> list[RoundOpening]:
    """The openings `where` says, newest first, each with its facts read in the same statement
    (and with `hands`, its seats too). With `again`, an opening this session holds already is
    read again as it is now (its seats and facts too), not kept as it was first read."""
    last = (
        db.select(func.coalesce(func.max(Round.number), 0))
        .where(Round.game_id == RoundOpening.game_id)
        .correlate(RoundOpening)
        .scalar_subquery()
    )
    history = (
        db.select(func.count(RoundChange.id))
        .where(
            RoundChange.game_id == RoundOpening.game_id,
            RoundChange.round_number == RoundOpening.number,
        )
        .correlate(RoundOpening)
        .scalar_subquery()
    )
    statement = (
        db.select(RoundOpening, last, history).where(*where).order_by(RoundOpening.id.desc())
    )
    if hands:
        statement = statement.options(joinedload(RoundOpening.hands))
    if limit is not None:
        statement = statement.limit(limit)
    if again:
        statement = statement.execution_options(populate_existing=True)
    found = []
    for opening, last_round, entries in db.session.execute(statement).unique():
        opening.__dict__["_facts"] = RoundFacts(int(last_round), int(entries))
        found.append(opening)
    return found


def _facts(opening: RoundOpening) -> RoundFacts:
    """The opening's facts, read once per opening loaded (a phone's request never changes them)."""
    held = opening.__dict__.get("_facts")
    if held is None:
        held = opening.__dict__["_facts"] = round_facts(opening.game_id, opening.number)
    return held


def is_live(opening: RoundOpening, game: Game | None = None) -> bool:
    """Open: not closed by the tablet, its round still the one to play (`ledger.next_round`:
    the game not finished, the round after its last), and not recorded (and undone) since it
    was opened."""
    game = game or opening.game
    facts = _facts(opening)
    return (
        opening.closed_at is None
        and not game.finished
        and facts.last + 1 == opening.number
        and facts.history == opening.history_mark
    )


def saved_round(opening: RoundOpening, game: Game | None = None):
    """The round as the ledger holds it, once saved from this opening; else None."""
    game = game or opening.game
    facts = _facts(opening)
    if facts.last < opening.number or facts.history != opening.history_mark:
        return None
    return next((r for r in game.rounds if r.number == opening.number), None)


# --- The tablet: open, close, release, see ---------------------------------------------------


def live_opening(game: Game, number: int) -> RoundOpening | None:
    """The opening of round `number` of the game that is still open, if any."""
    rows = openings(
        RoundOpening.game_id == game.id,
        RoundOpening.number == number,
        RoundOpening.closed_at.is_(None),
    )
    return next((row for row in rows if is_live(row, game)), None)


def open_round(game: Game, number: int) -> tuple[RoundOpening, bool]:
    """Open round `number` to phones → (the opening, whether it is new); the one already open
    again when there is one. Only the round to play next can be opened."""
    expected = ledger.next_round(game)
    if expected is None:
        from ..games.service import finished

        raise finished(game)
    if number != expected:
        last = ledger.rules_of(game).last_deal
        if not 1 <= number <= last:
            raise ScorebookError(
                _(
                    "there is no round %(number)s: this game has rounds 1 to %(last)s",
                    number=number,
                    last=last,
                )
            )
        raise Conflict(
            _(
                "round %(number)s is not the round to play: the next round is %(expected)s, "
                "open that one to phones",
                number=number,
                expected=expected,
            )
        )
    current = live_opening(game, number)
    if current is not None:
        return current, False
    opening = RoundOpening(
        game_id=game.id,
        number=number,
        code=_free_code(),
        history_mark=round_facts(game.id, number).history,
    )
    opening.game = game
    opening.hands = [PhoneHand(seat=seat) for seat in range(len(game.players))]
    db.session.add(opening)
    try:
        db.session.flush()
    except IntegrityError:
        db.session.rollback()
        raise Conflict(
            "the round could not be opened to phones: nothing changed, try again"
        ) from None
    return opening, True


def _free_code() -> str:
    """A code no open round holds; an opening whose round is over gives its code back here."""
    for _try in range(CODE_TRIES):
        code = new_code()
        holders = db.session.scalars(
            db.select(RoundOpening).where(
                RoundOpening.code == code, RoundOpening.closed_at.is_(None)
            )
        ).all()
        if any(is_live(row) for row in holders):
            continue
        for row in holders:
            row.closed_at = utcnow()  # over already (its round saved): the code is free again
        return code
    raise Conflict(
        "no free round code was found: close a round left open to phones, then try again"
    )


def close_round(game: Game, number: int) -> bool:
    """Close round `number` to phones: every seat token of it stops working. Whether it was open."""
    opening = live_opening(game, number)
    if opening is None:
        return False
    opening.closed_at = utcnow()
    db.session.flush()
    return True


def release_seat(game: Game, number: int, seat: int) -> PhoneHand:
    """The tablet frees a seat a phone holds (a phone lost, the wrong player picked): that
    phone's token stops working; a hand it sent stays until another phone sends one."""
    opening = live_opening(game, number)
    if opening is None:
        raise RoundClosed(_("round %(number)s is not open to phones", number=number))
    row = _row(opening, seat)
    row.token_hash = None
    row.claimed_at = None
    db.session.flush()
    return row


@dataclass(frozen=True)
class SeatState:
    """One seat as the tablet sees it: "waiting" (no phone), "joined" (a phone, no hand yet) or
    "received" (a hand sent), with the hand."""

    seat: int
    name: str
    state: str
    kind: str | None
    cards: str
    points: int | None
    penalty: int | None
    sent_at: datetime | None
    sends: int

    def hand_json(self) -> dict[str, Any] | None:
        return hand_json(self.kind, self.cards, self.points)

    def as_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "state": self.state,
            "hand": self.hand_json(),
            "penalty": self.penalty,
            "sent_at": ledger_when(self.sent_at),
            "sends": self.sends,
        }


def hand_json(kind: str | None, cards: str, points: int | None) -> dict[str, Any] | None:
    """A hand as the API says it: `{"cards": "K Q 5"}`, `{"points": 25}`, `{"out": true}`,
    `{"out": true, "out_in_one_turn": true}`."""
    if kind == "cards":
        return {"cards": cards}
    if kind == "points":
        return {"points": points}
    if kind == "out":
        return {"out": True}
    if kind == ONE_TURN:
        return {"out": True, "out_in_one_turn": True}
    return None


def went_out(kind: str | None) -> bool:
    """Whether a hand sent says its player went out (in one turn or not)."""
    return kind in ("out", ONE_TURN)


def ledger_when(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat(timespec="seconds") + "Z"


def seats(opening: RoundOpening) -> list[SeatState]:
    """Every seat of the opened round, in seat order."""
    return _states(opening.game, opening.hands)


def waiting(game: Game) -> list[SeatState]:
    """Every seat of a round not open to phones: all waiting."""
    return _states(game, [])


def _states(game: Game, rows: list[PhoneHand]) -> list[SeatState]:
    by_seat = {row.seat: row for row in rows}
    states = []
    for seat, name in enumerate(game.names):
        row = by_seat.get(seat)
        if row is None or (row.kind is None and row.token_hash is None):
            state = "waiting"
        else:
            state = "received" if row.kind is not None else "joined"
        states.append(
            SeatState(
                seat,
                name,
                state,
                row.kind if row else None,
                row.cards if row else "",
                row.points if row else None,
                row.penalty if row else None,
                row.sent_at if row else None,
                row.sends if row else 0,
            )
        )
    return states


# --- The phone: find the round, take a seat, send a hand -------------------------------------


def opening_for(
    code: str, token: str | None = None, load: Callable[[int], Game] | None = None
) -> RoundOpening:
    """The round open under `code`; for a phone whose seat token is of an opening now over (its
    round saved, or closed) that opening, so it can be told; `NoSuchCode` otherwise, one answer
    for a wrong, a closed and an expired code. `load` reads an opening's game (locked, for a
    write) before its state is judged."""
    written = normal_code(code)
    if written is None:
        raise NoSuchCode(code)
    load = load or (lambda game_id: ledger.get_game(game_id, scores=False))
    # With its seats in the same statement: a phone's request always looks for its own.
    for row in openings(RoundOpening.code == written, RoundOpening.closed_at.is_(None), hands=True):
        if is_live(row, load(row.game_id)):
            return row
    if token:
        mine = db.select(PhoneHand.opening_id).where(PhoneHand.token_hash == token_hash(token))
        held = openings(RoundOpening.code == written, RoundOpening.id.in_(mine), limit=1)
        if held:
            load(held[0].game_id)
            return held[0]
    raise NoSuchCode(code)


def claim_seat(
    opening: RoundOpening, seat_name: str | int, token: str | None = None
) -> tuple[PhoneHand, str]:
    """Seat a phone → (the seat, its token). `token` is the phone's own (a page's cookie), or
    None for a new one (the API gives it once). The phone that already holds the seat holds it
    again; a phone moving to another seat leaves its first one; a seat another phone holds is
    `SeatTaken`."""
    _check_open(opening)
    game = opening.game
    seat = seat_name if isinstance(seat_name, int) else names.seat_of(game, seat_name)
    if not 0 <= seat < len(game.players):
        raise PhoneError(
            _(
                "there is no seat %(seat)s: the players are %(players)s",
                seat=seat + 1,
                players=", ".join(game.names),
            )
        )
    token = token or new_token()
    hashed = token_hash(token)
    row = _row(opening, seat)
    if row.token_hash is not None and not hmac.compare_digest(row.token_hash, hashed):
        name = game.names[seat]
        raise SeatTaken(
            _(
                "Are you %(name)s? %(name)s's hand is already being entered on another phone: if "
                "that was a mistake, the scorekeeper can release the seat on the tablet",
                name=name,
            )
        )
    for other in opening.hands:
        if other is not row and other.token_hash == hashed:
            other.token_hash = None  # this phone now enters another seat's hand
            other.claimed_at = None
    if row.token_hash is None:
        row.token_hash = hashed
        row.claimed_at = utcnow()
    db.session.flush()
    return row, token


def phone_game(game_id: int, lock: Lock = None) -> Game:
    """The game a phone's request needs: its row and its seats; its rounds are not read
    (`round_facts` says what the phones need of them). `lock` (see `access.phone_required`):
    "update" for a write that looks at every seat (taking one), "share" for a send: sends hold
    it together, while the tablet's writes (saving the round, closing it, releasing a seat),
    which lock the row for update, wait for them and they for it."""
    statement = db.select(Game).where(Game.id == game_id).options(joinedload(Game.players))
    if lock is not None:
        statement = statement.with_for_update(of=Game, read=lock == "share")
        statement = statement.execution_options(populate_existing=True)
    return db.session.scalars(statement).unique().one()


def read_again(opening: RoundOpening) -> RoundOpening:
    """The opening as it is now, once its game's row is locked: its seats and its facts read
    again, since another process may have taken a seat, or saved the round, before the lock was
    held (PostgreSQL reads what was committed when each statement starts)."""
    return openings(RoundOpening.id == opening.id, hands=True, again=True)[0]


def lock_seat(row: PhoneHand) -> PhoneHand:
    """Lock a seat's row for this transaction, reading it again as it is once the lock is held
    (on PostgreSQL; SQLite's writers queue for the whole database already)."""
    if db.session.get_bind().dialect.name == "sqlite":
        return row
    db.session.execute(
        db.select(PhoneHand)
        .where(PhoneHand.id == row.id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    return row


def held_seat(opening: RoundOpening, token: str | None) -> PhoneHand | None:
    """The seat this token holds in the opening, if any."""
    if token:
        hashed = token_hash(token)
        for row in opening.hands:
            if row.token_hash is not None and hmac.compare_digest(row.token_hash, hashed):
                return row
    return None


def seat_for_token(opening: RoundOpening, token: str | None) -> PhoneHand:
    """The seat this token holds in the opening, or `BadSeatToken`."""
    row = held_seat(opening, token)
    if row is not None:
        return row
    raise BadSeatToken(
        "this phone holds no seat of this round: pick your name again"
        if opening.closed_at is None
        else "this phone holds no seat of this round"
    )


def send_hand(row: PhoneHand, sent: Hand, number: int | None = None) -> PhoneHand:
    """Keep the hand a phone sent for its seat, checked alone with the game's rules
    (`check_hand`, refused with its `HandRefused`); the same hand sent again changes nothing.
    `number`: the round the phone thinks it is on."""
    opening = row.opening
    if number is not None and number != opening.number:
        raise RoundClosed(
            _(
                "this phone is on round %(number)s, but the code is for round %(opening)s: open "
                "the code the tablet shows now",
                number=number,
                opening=opening.number,
            )
        )
    _check_open(opening, row.seat)
    game = opening.game
    rules = ledger.rules_of(game)
    hand = check_hand(sent, rules, len(game.players), alone=True)
    kind = hand.kind
    if kind == "out" and sent.one_turn:
        if (problem := one_turn_problem(row.seat, rules)) is not None:
            raise HandRefused(HandRefused.KIND, say(problem, sentence=False))
        kind = ONE_TURN
    if (row.kind, row.cards, row.points) != (kind, hand.text, hand.points):
        row.kind, row.cards, row.points = kind, hand.text, hand.points
        row.penalty = hand.penalty
        row.sends += 1
        row.sent_at = utcnow()
        db.session.flush()
    return row


def _check_open(opening: RoundOpening, seat: int | None = None) -> None:
    """Refuse a phone's write once the round is saved (saying what the ledger holds for its
    seat) or closed to phones."""
    game = opening.game
    if is_live(opening, game):
        return
    played = saved_round(opening, game)
    if played is not None:
        if seat is None:
            raise RoundSaved(
                _(
                    "round %(number)s is already in the ledger; nothing was changed",
                    number=opening.number,
                )
            )
        line = next(line for line in played.scores if line.seat == seat)
        what = _("counted") if line.counted else line.leftovers or _("went out")
        raise RoundSaved(
            _(
                "round %(number)s is already in the ledger: %(name)s %(what)s = %(score)s; "
                "nothing was changed",
                number=opening.number,
                name=game.names[seat],
                what=what,
                score=ledger.signed(line.score),
            )
        )
    raise RoundClosed(
        _(
            "round %(number)s is no longer open to phones: nothing was changed; the tablet shows "
            "the code of the round to play",
            number=opening.number,
        )
    )


def _row(opening: RoundOpening, seat: int) -> PhoneHand:
    row = next((row for row in opening.hands if row.seat == seat), None)
    if row is None:
        row = PhoneHand(seat=seat)
        opening.hands.append(row)
    return row


def phone_state(opening: RoundOpening, row: PhoneHand) -> dict[str, Any]:
    """What a phone may read: its own seat, its hand, the round's setup and whether it is still
    open; once saved, what the ledger holds for its seat (as a spectator sees it)."""
    game = opening.game
    setup = ledger.setup_for(game, opening.number)
    answer: dict[str, Any] = {
        "game": game.id,
        "round": opening.number,
        "contract": setup.contract,
        "cards_dealt": setup.cards_dealt,
        "seat": game.names[row.seat],
        "open": is_live(opening, game),
        "hand": hand_json(row.kind, row.cards, row.points),
        "penalty": row.penalty,
        "sent_at": ledger_when(row.sent_at),
    }
    played = saved_round(opening, game)
    if played is not None:
        line = next(line for line in played.scores if line.seat == row.seat)
        answer["saved"] = {
            "cards": None if line.counted else line.leftovers,
            "penalty": line.penalty,
            "score": line.score,
        }
    return answer


def sent_message(row: PhoneHand) -> str:
    """What a phone is told once its hand is kept: "Sent: 23 — the scorekeeper's tablet has it"."""
    return _("Sent: %(penalty)s — the scorekeeper's tablet has it", penalty=row.penalty)
