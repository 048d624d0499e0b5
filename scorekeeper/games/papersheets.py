"""Old paper score sheets, typed into a spreadsheet and saved as CSV, read into finished games.

A paper sheet holds each round's score per player and little else: no cards, often no dealer,
an exact cut only as a score below 0. So a sheet is checked wherever the rules are certain (the
seats, the deal passing left, what a hand can cost, who may take the cut bonus, that only the
player who went out scores 0, the totals written under it) and every problem is named by its
row and column, as a spreadsheet numbers them, before anything is stored; then `store` writes
the games of a sheet with no problem, all of them or none, each game once.

The format, one block per game (the template, `template_text`, shows it):

    game,2019-12-24,Ann,Ann,Bob,Cat,Dan      date, who dealt round 1 (may be empty), the seats
    round,1,,25,0,40,15                      the round, who dealt it (may be empty), the scores
    total,,,…                                optional: checked against the rounds' sums

A game with fewer rounds than the rules' deals is stored as ended early after its last round
(its leaders win), and the preview says so; more rounds than deals is a problem.

The file: a spreadsheet saves CSV with commas, or semicolons where the comma is the decimal
sign, and a range of cells pasted as text is separated by tabs: the separator is the one the
first row uses most. Rows are padded with empty cells to the widest row of the file, so empty
cells at a row's end are dropped; blank rows, and rows whose first cell starts with #, are notes
and skipped. Each cell is placed as a spreadsheet places it (row 5, column D).

Each game once: a game of a sheet is known by its fingerprint (`fingerprint`: its date, its
seats, every round's scores). Read, a sheet names each of its games already in the score book
(`already_stored`); stored, each game keeps its fingerprint in `SheetImport`, whose unique key
makes the check and the insert one step: of two imports of one sheet at the same moment, the
second waits for the first and is then told the sheet is already there (`SheetAlreadyStored`).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time

from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import selectinload

from ..platform.database import db
from ..rules import RulesError
from ..rules.ruleset import PRESETS, RuleSet
from ..rules.scoring import least_points, most_points
from ..rulesets import service as rulesets
from . import keys, ledger, service
from .errors import NoSuchRuleSet, ScorebookError
from .importer import EARLIEST
from .models import Game, Player, Round, RoundScore, SheetImport
from .names import clean_names, name_key, seat_keys
from .roundvalues import RoundEntry

# --- The file, read into rows --------------------------------------------------------------

# The largest sheet read: well past a family's every paper sheet (a 1,000-round sheet of eight
# players is about 40 KiB). The pages' own limit on a request is `MAX_CONTENT_LENGTH`.
MAX_SHEET_BYTES = 1024 * 1024
# The players' names (on a game row) and scores (on a round or total row) start in column D.
NAMES_FROM = 3
SEPARATORS = (",", ";", "\t")


def column_name(index: int) -> str:
    """A spreadsheet's name for the 0-based column `index`: A … Z, AA, AB …"""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


@dataclass(frozen=True)
class Problem:
    """What is wrong, and where: a row and column as the spreadsheet numbers them (1-based row,
    0-based column shown as its letter), with the player whose column it is."""

    row: int | None
    column: int | None
    message: str
    player: str = ""
    # The game in the score book this problem is about (a game of the sheet stored before).
    game_id: int | None = None

    @property
    def place(self) -> str:
        """ "row 5, column F (Cat)", "row 5", or "the sheet"."""
        if self.row is None:
            return "the sheet"
        if self.column is None:
            return f"row {self.row}"
        who = f" ({self.player})" if self.player else ""
        return f"row {self.row}, column {column_name(self.column)}{who}"

    def __str__(self) -> str:
        return f"{self.place}: {self.message}"


@dataclass(frozen=True)
class Row:
    """One row of the sheet: its number as the spreadsheet shows it, its cells trimmed."""

    number: int
    cells: tuple[str, ...]

    def cell(self, index: int) -> str:
        return self.cells[index] if index < len(self.cells) else ""

    def at(
        self, column: int | None, message: str, names: list[str] | tuple[str, ...] = ()
    ) -> Problem:
        """A problem in this row, at `column`, naming the player whose column it is."""
        seat = -1 if column is None else column - NAMES_FROM
        player = names[seat] if 0 <= seat < len(names) else ""
        return Problem(self.number, column, message, player)


def read_rows(raw: bytes | str) -> tuple[list[Row], list[Problem]]:
    """The sheet's rows that hold something, or the problem that stops it being read at all
    (too big, not UTF-8 text, empty, not CSV)."""
    if isinstance(raw, bytes):
        if len(raw) > MAX_SHEET_BYTES:
            return [], [
                _whole(
                    f"is {len(raw) // 1024} KiB, and a sheet may be at most "
                    f"{MAX_SHEET_BYTES // 1024} KiB: split it into several"
                )
            ]
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            return [], [
                _whole(
                    f"is not UTF-8 text (byte {error.start + 1}): save it from the "
                    'spreadsheet as "CSV UTF-8"'
                )
            ]
    else:
        text = raw.removeprefix("\ufeff")
    if len(text) > MAX_SHEET_BYTES:
        return [], [_whole(f"may be at most {MAX_SHEET_BYTES // 1024} KiB: split it into several")]
    if "\x00" in text:
        return [], [_whole("is not a text file (it holds a NUL character): save it as CSV")]
    if not text.strip():
        return [], [_whole("is empty: fill in the template, one game row and its round rows")]
    first = next(line for line in text.splitlines() if line.strip())
    separator = max(SEPARATORS, key=first.count)
    rows = []
    notes = 0
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=separator)
    try:
        for number, cells in enumerate(reader, start=1):
            kept = [cell.strip() for cell in cells]
            while kept and not kept[-1]:
                kept.pop()
            if kept and kept[0].startswith("#"):
                notes += 1
            elif kept:
                rows.append(Row(number, tuple(kept)))
    except csv.Error as error:
        return rows, [Problem(reader.line_num, None, f"cannot be read as CSV ({error})")]
    if not rows and not notes:
        return [], [_whole("is empty: fill in the template, one game row and its round rows")]
    return rows, []


def _whole(message: str) -> Problem:
    return Problem(None, None, f"the file {message}")


# --- The template --------------------------------------------------------------------------

_NOTES = (
    "# A paper score sheet for Liverpool Scorekeeper: one game row per game, then its round rows.",
    "# Game row: game, the date (year-month-day), who dealt round 1 (may be left empty), then the"
    " players in seat order, clockwise.",
    "# Round row: round, its number, who dealt it (may be left empty), then each player's score"
    " for the round, in the game row's order.",
    "# The player who went out scores 0; the exact-cut bonus goes in the cutter's score (15 - 50"
    " is -35). A total row (optional) is checked against the sums.",
    "# Fewer rounds than the rules' deals: the game ended early. Rows starting with # are notes.",
)
# Two evenings as a family writes them: four players over the seven deals with a total row and
# an exact cut (Ann cuts for Bob in round 2), and four who stopped after four deals.
_GAMES = (
    (
        ("game", "2019-12-24", "Ann", "Ann", "Bob", "Cat", "Dan"),
        ("round", "1", "", "25", "0", "40", "15"),
        ("round", "2", "", "-35", "0", "60", "20"),
        ("round", "3", "", "10", "35", "0", "45"),
        ("round", "4", "", "0", "55", "30", "25"),
        ("round", "5", "", "40", "20", "65", "0"),
        ("round", "6", "", "30", "0", "25", "70"),
        ("round", "7", "", "0", "85", "45", "60"),
        ("total", "", "", "70", "195", "265", "235"),
    ),
    (
        ("game", "2020-01-01", "", "Bob", "Cat", "Dan", "Eve"),
        ("round", "1", "", "15", "30", "0", "35"),
        ("round", "2", "", "0", "45", "20", "10"),
        ("round", "3", "", "35", "0", "50", "25"),
        ("round", "4", "", "20", "40", "0", "55"),
    ),
)


def template_text() -> str:
    """The template to download: notes, then two example games as a family writes them, under
    liverpool (the default rules, the page's first choice)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for note in _NOTES:
        writer.writerow([note])
    for game in _GAMES:
        writer.writerow([])
        writer.writerows(game)
    return out.getvalue()


# --- The sheet's games, stored once --------------------------------------------------------


@dataclass
class SheetGame:
    """One game of the sheet, built (its players, rounds and scores) but not stored."""

    row: int
    game: Game
    notes: list[str] = field(default_factory=list)

    @property
    def book(self) -> ledger.Book:
        return ledger.book(self.game)


@dataclass
class Sheet:
    """What a sheet makes under a rule set: its games, and every problem found in it."""

    rules: RuleSet
    games: list[SheetGame] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    rows: int = 0

    @property
    def ready(self) -> bool:
        return bool(self.games) and not self.problems

    @property
    def stored_before(self) -> list[int]:
        """The games the sheet made when it was imported before, when that is its only problem
        (every game of it is in the score book); else []."""
        twins = [problem.game_id for problem in self.problems]
        if not self.games or len(twins) != len(self.games) or None in twins:
            return []
        return twins  # type: ignore[return-value]


class SheetRefused(ScorebookError):
    """A sheet with problems: nothing of it was stored (`sheet.problems` names each)."""

    def __init__(self, sheet: Sheet):
        count = len(sheet.problems)
        super().__init__(
            f"the sheet has {count} problem{'s' if count != 1 else ''}: nothing was imported"
        )
        self.sheet = sheet


class SheetAlreadyStored(ScorebookError):
    """A sheet whose every game is in the score book already (imported before, or by another
    import at the same moment): nothing was stored again; `game_ids` are the games it made."""

    def __init__(self, game_ids: list[int]):
        which = game_list(game_ids)
        super().__init__(
            f"this sheet is already in the score book ({which}): nothing was imported again"
        )
        self.game_ids = game_ids


def already_stored(sheet: Sheet) -> None:
    """A game of the sheet stored before (same date, seats and every score), or twice in the
    sheet, is a problem: a sheet imported twice would count every game twice."""
    if not sheet.games:
        return
    days = {found.game.finished_at for found in sheet.games}
    statement = (
        db.select(Game)
        .where(Game.from_sheet.is_(True), Game.finished_at.in_(days))
        .options(selectinload(Game.players), selectinload(Game.rounds).selectinload(Round.scores))
    )
    stored: dict[str, int] = {}
    for game in db.session.scalars(statement.order_by(Game.id)):
        stored.setdefault(fingerprint(game), game.id)  # a game stored twice: its first copy
    seen: dict[str, int] = {}
    for found in sheet.games:
        key = fingerprint(found.game)
        if (twin := stored.get(key)) is not None:
            sheet.problems.append(
                Problem(
                    found.row,
                    None,
                    f"this game is already in the score book (game {twin})",
                    game_id=twin,
                )
            )
        elif key in seen:
            sheet.problems.append(
                Problem(found.row, None, f"this game is the one of row {seen[key]} again")
            )
        seen.setdefault(key, found.row)


def fingerprint(game: Game) -> str:
    """What a paper sheet says of a game, as sha256 hex: its date (to the minute), its seats'
    names, every round's scores, each in seat order. Two sheets giving a game the same
    fingerprint hold the same game (`SheetImport` keeps it, to store each game once)."""
    rounds = sorted(game.rounds, key=lambda played: played.number)
    said = [
        game.finished_at.strftime("%Y-%m-%d %H:%M") if game.finished_at else "",
        game.names,
        [[line.score for line in sorted(r.scores, key=lambda line: line.seat)] for r in rounds],
    ]
    text = json.dumps(said, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def store(sheet: Sheet) -> list[Game]:
    """Add every game of a sheet with no problem, in one flush (the caller commits): all of
    them, or `SheetRefused` / `ScorebookError` and none; `SheetAlreadyStored` when every game
    of it is in the score book already. Each gets an edit key nobody holds:
    `flask --app scorekeeper game-key <id>` gives one, to correct a round.

    Each game is stored with its fingerprint (`SheetImport`), a unique key: an import of the
    same sheet at the same moment, which found none of its games stored either, waits for this
    one and is refused by the key, then finds the games this one stored."""
    if sheet.stored_before:
        raise SheetAlreadyStored(sheet.stored_before)
    if not sheet.ready:
        raise SheetRefused(sheet)
    games = [found.game for found in sheet.games]
    for game in games:
        game.key_hash = keys.new_key()[1]
    try:
        db.session.add_all(games)
        db.session.flush()
        db.session.add_all(SheetImport(fingerprint=fingerprint(g), game_id=g.id) for g in games)
        db.session.flush()
    except IntegrityError:
        db.session.rollback()
        already_stored(sheet)  # stored meanwhile by another import of the same sheet
        if sheet.stored_before:
            raise SheetAlreadyStored(sheet.stored_before) from None
        if sheet.problems:
            raise SheetRefused(sheet) from None
        raise ScorebookError("the database refused the games, nothing was imported") from None
    except SQLAlchemyError as error:
        db.session.rollback()
        reason = getattr(error, "orig", None) or error
        raise ScorebookError(
            f"the database refused the games, nothing was imported: {reason}"
        ) from None
    return games


def game_list(game_ids: list[int]) -> str:
    """ "game 12", "games 12 and 13", "games 12, 13 and 15"."""
    if len(game_ids) == 1:
        return f"game {game_ids[0]}"
    listed = ", ".join(map(str, game_ids[:-1]))
    return f"games {listed} and {game_ids[-1]}"


# --- The sheet's games, read and checked ---------------------------------------------------


_SCORE = re.compile(r"[+\-\u2212]?\d{1,12}")
_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2}))?")


def read_sheet(raw: bytes | str, rules: RuleSet, *, today: date | None = None) -> Sheet:
    """Every game of the sheet under `rules`, checked, with every problem named; stores nothing."""
    rows, problems = read_rows(raw)
    sheet = Sheet(rules, problems=problems, rows=rows[-1].number if rows else 0)
    today = today or datetime.now(UTC).date()
    block: list[Row] = []
    blocks: list[list[Row]] = []
    for row in rows:
        kind = row.cells[0].casefold()
        if kind == "game":
            block = [row]
            blocks.append(block)
        elif kind in ("round", "total") and block:
            block.append(row)
        elif kind in ("round", "total"):
            sheet.problems.append(row.at(0, f"a {kind} row must follow its game's game row"))
        else:
            sheet.problems.append(
                row.at(0, f"must be game, round or total, not {row.cells[0][:30]!r}")
            )
    if not blocks and not sheet.problems:
        sheet.problems.append(Problem(None, None, "the sheet has no game row: see the template"))
    for block in blocks:
        found = _GameReader(block, rules, today, sheet.problems).read()
        if found is not None:
            sheet.games.append(found)
    already_stored(sheet)
    sheet.problems.sort(key=lambda problem: (problem.row or 0, problem.column or -1))
    return sheet


class _GameReader:
    """One game's block of rows: its game row, its round rows, its total row."""

    def __init__(self, rows: list[Row], rules: RuleSet, today: date, problems: list[Problem]):
        self.head, self.body = rows[0], rows[1:]
        self.rules, self.today, self.problems = rules, today, problems
        self.names: list[str] = []

    def fail(self, row: Row, column: int | None, message: str) -> None:
        self.problems.append(row.at(column, message, self.names))

    def read(self) -> SheetGame | None:
        before = len(self.problems)
        when = self._date()
        names = self._names()
        if names is None:
            return None  # without its seats nothing else of the game can be judged
        self.names = names
        rounds, total = self._layout()
        scores = [self._scores(row, index + 1) for index, row in enumerate(rounds)]
        first, notes = self._first_dealer(rounds, scores)
        game = self._game(first, rounds, scores)
        if (
            total is not None and len(self.problems) == before
        ):  # else a wrong round's sum is named wrong
            self._totals(total, game)
        if len(self.problems) > before or when is None:
            return None
        game.created_at = game.finished_at = when
        for played in game.rounds:
            played.recorded_at = when
        last = self.rules.last_deal
        if len(rounds) < last:
            game.ended_after = len(rounds)
            notes.append(f"ended early after round {len(rounds)} of {last}")
        return SheetGame(self.head.number, game, notes)

    def _layout(self) -> tuple[list[Row], Row | None]:
        """The game's round rows, as many as the rules deal, and its total row; each extra or
        misplaced row named."""
        rounds = [row for row in self.body if row.cells[0].casefold() == "round"]
        totals = [row for row in self.body if row.cells[0].casefold() == "total"]
        for extra in totals[1:]:
            self.fail(extra, 0, "a game has one total row at most")
        if totals and self.body[-1] is not totals[0]:
            self.fail(totals[0], 0, "the total row comes after the game's last round")
        if not rounds:
            self.fail(self.head, 0, "this game has no round rows")
        last = self.rules.last_deal
        for row in rounds[last : last + 1]:
            self.fail(row, 1, f"is one round too many: {self.rules.rules_name} have {last} deals")
        return rounds[:last], totals[0] if totals else None

    def _game(self, first: int, rounds: list[Row], scores: list[list[int] | None]) -> Game:
        """The game of these seats, with every round whose scores can be stored."""
        game = Game(first_dealer=first, from_sheet=True, rules=self.rules.to_json())
        game.players = [
            Player(seat=seat, name=name, name_key=key)
            for seat, (name, key) in enumerate(zip(self.names, seat_keys(self.names), strict=True))
        ]
        for number, (row, values) in enumerate(zip(rounds, scores, strict=True), start=1):
            if values is not None and (played := self._round(game, row, number, values)):
                game.rounds.append(played)
        return game

    def _date(self) -> datetime | None:
        text = self.head.cell(1)
        match = _DATE.fullmatch(text)
        try:
            day = date(*map(int, match.groups()[:3])) if match else None
            hour, minute = (int(match[4]), int(match[5])) if match and match[4] else (0, 0)
            moment = datetime.combine(day, time(hour, minute)) if day else None
        except ValueError:
            moment = None
        if moment is None:
            shown = repr(text[:30]) if text else "empty"
            self.fail(
                self.head, 1, f"must be the game's date as year-month-day (2019-12-24), not {shown}"
            )
            return None
        # A sheet's dates lie in the years an export can carry back, up to today.
        if moment < EARLIEST or moment.date() > self.today:
            self.fail(self.head, 1, f"must be a date from {EARLIEST.year} to today, not {text}")
            return None
        return moment

    def _names(self) -> list[str] | None:
        raw = self.head.cells[NAMES_FROM:]
        if not raw:
            self.fail(self.head, NAMES_FROM, "the players' names go here, in seat order")
            return None
        empty = [index for index, text in enumerate(raw) if not text]
        for index in empty:
            self.fail(self.head, NAMES_FROM + index, "a player's name is empty")
        try:
            self.rules.check_players(len(raw))
        except RulesError as error:
            self.fail(self.head, NAMES_FROM, str(error))
            return None
        if empty:
            return None
        try:
            return clean_names(raw)
        except ScorebookError as error:
            for index, text in error.problems.items():
                self.fail(self.head, NAMES_FROM + (index or 0), f"{raw[index or 0]!r}: {text}")
            return None

    def _seat(self, row: Row, text: str) -> int | None:
        """The seat of the player a dealer cell names (any spelling that names them)."""
        for seat, name in enumerate(self.names):
            if name_key(name) == name_key(text):
                return seat
        self.fail(row, 2, f"{text[:30]!r} is not one of the players: {', '.join(self.names)}")
        return None

    def _scores(self, row: Row, number: int) -> list[int] | None:
        """The round's scores, one per seat, or None with every bad cell named."""
        before = len(self.problems)
        if row.cell(1) != str(number):
            self.fail(row, 1, f"must be {number}: rounds are numbered 1, 2, 3… in order")
        cells = row.cells[NAMES_FROM:]
        players = len(self.names)
        if len(cells) > players:
            self.fail(
                row,
                NAMES_FROM + players,
                f"has a score past the last player's column: {players} players",
            )
        values = []
        for seat in range(players):
            text = cells[seat] if seat < len(cells) else ""
            if not text:
                self.fail(row, NAMES_FROM + seat, "has no score: every player scores each round")
            elif not _SCORE.fullmatch(text):
                self.fail(row, NAMES_FROM + seat, f"must be a whole number, not {text[:30]!r}")
            else:
                values.append(int(text.replace("\u2212", "-")))
        return values if len(self.problems) == before else None

    def _first_dealer(
        self, rounds: list[Row], scores: list[list[int] | None]
    ) -> tuple[int, list[str]]:
        """Who dealt round 1: the game row's dealer, else a round row's (the deal passes left),
        else the one an exact cut shows (the cutter sits on the dealer's right), else the
        first player; every dealer named must agree with it (R2)."""
        players = len(self.names)
        said: list[tuple[Row, int, int]] = []  # (row, the round, its dealer's seat)
        if self.head.cell(2):
            seat = self._seat(self.head, self.head.cell(2))
            if seat is not None:
                said.append((self.head, 1, seat))
        for number, row in enumerate(rounds, start=1):
            if row.cell(2) and (seat := self._seat(row, row.cell(2))) is not None:
                said.append((row, number, seat))
        if said:
            row, number, seat = said[0]
            first = (seat - number + 1) % players
            for row, number, seat in said[1:]:
                expected = (first + number - 1) % players
                if seat != expected:
                    self.fail(
                        row,
                        2,
                        f"{self.names[expected]} deals round {number} when "
                        f"{self.names[first]} deals round 1: the deal passes left (R2)",
                    )
            return first, []
        for number, values in enumerate(scores, start=1):
            cutters = [seat for seat, value in enumerate(values or ()) if value < 0]
            if len(cutters) == 1 and self.rules.cut_bonus:
                dealer = (cutters[0] + 1) % players
                first = (dealer - number + 1) % players
                return first, [
                    f"{self.names[first]} dealt round 1, as the exact cut of round {number} shows"
                ]
        return 0, [f"{self.names[0]} is taken to have dealt round 1 (no dealer on the sheet)"]

    def _round(self, game: Game, row: Row, number: int, values: list[int]) -> Round | None:
        """The round stored as the table counted it in points, or None with its problems named."""
        setup = ledger.setup_for(game, number)
        before = len(self.problems)
        penalties = [
            self._penalty(row, number, seat, value, setup.cutter)
            for seat, value in enumerate(values)
        ]
        zeros = [seat for seat, penalty in enumerate(penalties) if penalty == 0]
        if len(zeros) > 1 and least_points(self.rules) > 0:
            who = " and ".join(self.names[seat] for seat in zeros)
            self.fail(
                row,
                NAMES_FROM + zeros[1],
                f"{who} score 0, and only the player who went "
                "out can: every other hand holds a card (R10)",
            )
        if len(self.problems) > before:
            return None
        cut = any(value < 0 for value in values)
        out = zeros[0] if zeros else None
        entry = RoundEntry.typed(out, points=dict(enumerate(penalties)), cut_exact=cut)
        try:
            scored = service.score_entry(game, number, entry)
        except ScorebookError as error:
            for seat, text in error.problems.items():
                self.fail(row, None if seat is None else NAMES_FROM + seat, text)
            return None
        result = scored.result
        return Round(
            number=number, version=1, dealer=setup.dealer, cutter=setup.cutter,
            cut_exact=cut, out=out,
            scores=[
                RoundScore(seat=seat, leftovers="", penalty=result.penalties[seat],
                           bonus=result.bonus[seat], score=result.scores[seat],
                           counted=scored.counted[seat])
                for seat in range(len(values))
            ],
        )  # fmt: skip

    def _penalty(self, row: Row, number: int, seat: int, value: int, cutter: int) -> int:
        """The hand's penalty a seat's score says (the cutter's below 0 takes the exact-cut
        bonus back off), each way it cannot be named."""
        bonus = self.rules.cut_bonus
        column = NAMES_FROM + seat
        penalty = value
        if value < 0 and not bonus:
            self.fail(
                row,
                column,
                f"{value} is below 0, and {self.rules.rules_name} have no exact-cut bonus",
            )
        elif value < 0 and seat != cutter:
            self.fail(
                row,
                column,
                f"{value} is below 0: only the cutter, "
                f"{self.names[cutter]} in round {number}, takes the exact-cut "
                f"bonus ({bonus})",
            )
        elif value < 0:
            penalty = value - bonus
            if penalty < 0:
                self.fail(
                    row,
                    column,
                    f"{value} cannot be: the cutter's score "
                    f"is a hand of 0 or more plus the exact-cut bonus ({bonus})",
                )
        limit = most_points(self.rules, len(self.names))
        if penalty > limit:
            self.fail(
                row,
                column,
                f"{value} cannot be: a hand counts 0 to {limit} with {self.rules.rules_name}",
            )
        return penalty

    def _totals(self, row: Row, game: Game) -> None:
        """A total row, when the sheet has one, must be each player's sum of the rounds."""
        sums = ledger.book(game).totals
        cells = row.cells[NAMES_FROM:]
        for seat, total in enumerate(sums):
            text = cells[seat] if seat < len(cells) else ""
            if text and (not _SCORE.fullmatch(text) or int(text.replace("\u2212", "-")) != total):
                self.fail(
                    row,
                    NAMES_FROM + seat,
                    f"is {text[:30]!r}, and the rounds add up to {total} for {self.names[seat]}",
                )


def rules_named(name: str) -> RuleSet:
    """The rules a sheet is read under, by a preset's key or a saved rule set's name (any case
    or look-alike spelling), or `ScorebookError` naming what there is."""
    if name.strip().lower() in PRESETS:
        return PRESETS[name.strip().lower()]
    try:
        return rulesets.named(name).rule_set
    except NoSuchRuleSet:
        saved = [row.name for row in rulesets.saved()]
        raise ScorebookError(
            f"no rules are called {name!r}: the presets are {', '.join(PRESETS)}"
            + (f"; the saved rule sets {', '.join(map(repr, saved))}" if saved else "")
        ) from None


def in_words(found: SheetGame) -> str:
    """One game of a sheet in a line: "2019-12-24 · Ann, Bob, Cat, Dan · 7 rounds · Ann 70,
    Bob 195, Cat 265, Dan 235 · Ann wins"."""
    book = found.book
    game = found.game
    rounds = len(game.rounds)
    played = f"{rounds} round{'s' if rounds != 1 else ''}"
    if game.ended_early:
        played += f" (ended early, of {book.last_round})"
    totals = ", ".join(
        f"{name} {ledger.signed(total)}"
        for name, total in zip(book.names, book.totals, strict=True)
    )
    winners = book.winner_names
    won = f"{winners[0]} wins" if len(winners) == 1 else f"{' and '.join(winners)} share the win"
    day = game.finished_at.strftime("%Y-%m-%d") if game.finished_at else "?"
    return f"{day} · {', '.join(book.names)} · {played} · {totals} · {won}"
