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

A row's first word is English (`game`, `round`, `total`) or the word of any language the score
book speaks (`peli`, `kierros`, `yhteensä`): the template is written in the reader's language,
and a sheet is read whatever language it was downloaded or is read in (`row_kinds`).

A game with fewer rounds than the rules' deals is stored as ended early after its last round
(its leaders win), and the preview says so; more rounds than deals is a problem.

The file: a spreadsheet saves CSV with commas, or semicolons where the comma is the decimal
sign, and a range of cells pasted as text is separated by tabs: the separator is the one the
first row that is not a note uses most (a note's words, in any language, say nothing of it). Rows are padded with empty cells to the widest row of the file, so empty
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

from flask import has_app_context
from flask_babel import force_locale, ngettext
from flask_babel import gettext as _
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import selectinload

from ..platform.database import db
from ..platform.language import offered
from ..rules import RulesError, seating
from ..rules.ruleset import PRESETS, Direction, RuleSet
from ..rules.scoring import least_points, most_points
from ..rulesets import service as rulesets
from . import keys, ledger, service
from .errors import NoSuchRuleSet, ScorebookError
from .importer import EARLIEST, engine_words
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
        """ "row 5, column F (Cat)", "row 5", or "the sheet", in the reader's language."""
        if self.row is None:
            return _("the sheet")
        if self.column is None:
            return _("row %(row)s", row=self.row)
        column = column_name(self.column)
        if self.player:
            return _(
                "row %(row)s, column %(column)s (%(player)s)",
                row=self.row,
                column=column,
                player=self.player,
            )
        return _("row %(row)s, column %(column)s", row=self.row, column=column)

    def __str__(self) -> str:
        return _("%(place)s: %(problem)s", place=self.place, problem=self.message)


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
    text = _text(raw)
    if isinstance(text, Problem):
        return [], [text]
    rows = []
    notes = 0
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_separator(text))
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
        said = _("cannot be read as CSV (%(reason)s)", reason=error)
        return rows, [Problem(reader.line_num, None, said)]
    if not rows and not notes:
        return [], [_whole(_empty_file())]
    return rows, []


def _text(raw: bytes | str) -> str | Problem:
    """The sheet's text, or the problem that stops it being read as text (too big, not UTF-8,
    not text, empty)."""
    if isinstance(raw, bytes):
        if len(raw) > MAX_SHEET_BYTES:
            return _whole(
                _(
                    "the file is %(size)s KiB, and a sheet may be at most %(most)s KiB: "
                    "split it into several",
                    size=len(raw) // 1024,
                    most=MAX_SHEET_BYTES // 1024,
                )
            )
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            return _whole(
                _(
                    "the file is not UTF-8 text (byte %(byte)s): save it from the "
                    'spreadsheet as "CSV UTF-8"',
                    byte=error.start + 1,
                )
            )
    else:
        text = raw.removeprefix("\ufeff")
    if len(text) > MAX_SHEET_BYTES:
        return _whole(
            _(
                "the file may be at most %(most)s KiB: split it into several",
                most=MAX_SHEET_BYTES // 1024,
            )
        )
    if "\x00" in text:
        return _whole(_("the file is not a text file (it holds a NUL character): save it as CSV"))
    if not text.strip():
        return _whole(_empty_file())
    return text


def _separator(text: str) -> str:
    """The separator the sheet's first row that is not a note uses most (its first row, when
    all are notes)."""
    lines = [line for line in text.splitlines() if line.strip()]
    first = next((line for line in lines if not _NOTE.match(line)), lines[0])
    return max(SEPARATORS, key=first.count)


# A note's line: its first cell starts with #, quoted or not.
_NOTE = re.compile(r'\s*"?\s*#')


def _whole(message: str) -> Problem:
    """A problem of the whole file."""
    return Problem(None, None, message)


def _empty_file() -> str:
    return _("the file is empty: fill in the template, one game row and its round rows")


# --- The rows' words ------------------------------------------------------------------------

# The kinds of row, by the English word that starts one: a sheet in any language may use these.
GAME, ROUND, TOTAL = "game", "round", "total"


def row_words() -> dict[str, str]:
    """The word starting each kind of row in the reader's language (`{"game": "peli", …}` in
    Finnish), as the template writes it."""
    return {GAME: _("game"), ROUND: _("round"), TOTAL: _("total")}


def row_kinds() -> dict[str, str]:
    """Each word a row may start with (casefolded) and the kind of row it starts: the English
    words, and those of every language the score book speaks (a template downloaded in Finnish
    writes `peli`, `kierros`, `yhteensä`), so a sheet is read whatever language the page was in
    as it was downloaded, or as it is read. A word two languages give to different kinds starts
    the first's: English's, then in the language switch's order."""
    kinds = {kind: kind for kind in (GAME, ROUND, TOTAL)}
    for code in [language.code for language in offered()] if has_app_context() else []:
        with force_locale(code):
            said = row_words()
        for kind, word in said.items():
            kinds.setdefault(word.strip().casefold(), kind)
    return kinds


# --- The template --------------------------------------------------------------------------

# Two evenings as a family writes them: four players over the seven deals with a total row and
# an exact cut (Ann cuts for Bob in round 2), and four who stopped after four deals; each row
# starts with its kind.
_GAMES = (
    (
        (GAME, "2019-12-24", "Ann", "Ann", "Bob", "Cat", "Dan"),
        (ROUND, "1", "", "25", "0", "40", "15"),
        (ROUND, "2", "", "-35", "0", "60", "20"),
        (ROUND, "3", "", "10", "35", "0", "45"),
        (ROUND, "4", "", "0", "55", "30", "25"),
        (ROUND, "5", "", "40", "20", "65", "0"),
        (ROUND, "6", "", "30", "0", "25", "70"),
        (ROUND, "7", "", "0", "85", "45", "60"),
        (TOTAL, "", "", "70", "195", "265", "235"),
    ),
    (
        (GAME, "2020-01-01", "", "Bob", "Cat", "Dan", "Eve"),
        (ROUND, "1", "", "15", "30", "0", "35"),
        (ROUND, "2", "", "0", "45", "20", "10"),
        (ROUND, "3", "", "35", "0", "50", "25"),
        (ROUND, "4", "", "20", "40", "0", "55"),
    ),
)


def _notes(words: dict[str, str]) -> list[str]:
    """The template's notes on the format, in the reader's language, naming the rows' words."""
    return [
        _(
            "A paper score sheet for Liverpool Scorekeeper: one game row per game, then its "
            "round rows."
        ),
        _(
            "Game row: %(game)s, the date (year-month-day), who dealt round 1 (may be left "
            "empty), then the players in seat order, clockwise.",
            game=words[GAME],
        ),
        _(
            "Round row: %(round)s, its number, who dealt it (may be left empty), then each "
            "player's score for the round, in the game row's order.",
            round=words[ROUND],
        ),
        _(
            "The player who went out scores 0; the exact-cut bonus goes in the cutter's score "
            "(15 - 50 is -35). A total row (optional) is checked against the sums."
        ),
        _(
            "Fewer rounds than the rules' deals: the game ended early. Rows starting with # "
            "are notes."
        ),
    ]


def template_text() -> str:
    """The template to download: notes, then two example games as a family writes them, under
    liverpool (the default rules, the page's first choice); its words in the reader's language
    (the rows' first words too, which `read_sheet` reads in every language and in English)."""
    words = row_words()
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for note in _notes(words):
        writer.writerow([f"# {note}"])
    for game in _GAMES:
        writer.writerow([])
        writer.writerows((words[row[0]], *row[1:]) for row in game)
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
            ngettext(
                "the sheet has %(num)s problem: nothing was imported",
                "the sheet has %(num)s problems: nothing was imported",
                count,
            )
        )
        self.sheet = sheet


class SheetAlreadyStored(ScorebookError):
    """A sheet whose every game is in the score book already (imported before, or by another
    import at the same moment): nothing was stored again; `game_ids` are the games it made."""

    def __init__(self, game_ids: list[int]):
        super().__init__(
            _(
                "this sheet is already in the score book (%(games)s): nothing was imported again",
                games=game_list(game_ids),
            )
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
                    _("this game is already in the score book (game %(game)s)", game=twin),
                    game_id=twin,
                )
            )
        elif key in seen:
            said = _("this game is the one of row %(row)s again", row=seen[key])
            sheet.problems.append(Problem(found.row, None, said))
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
        raise ScorebookError(_("the database refused the games, nothing was imported")) from None
    except SQLAlchemyError as error:
        db.session.rollback()
        reason = getattr(error, "orig", None) or error
        raise ScorebookError(
            _("the database refused the games, nothing was imported: %(reason)s", reason=reason)
        ) from None
    return games


def game_list(game_ids: list[int]) -> str:
    """ "game 12", "games 12 and 13", "games 12, 13 and 15", in the reader's language."""
    if len(game_ids) == 1:
        return _("game %(game)s", game=game_ids[0])
    listed = ", ".join(map(str, game_ids[:-1]))
    return _("games %(listed)s and %(last)s", listed=listed, last=game_ids[-1])


# --- The sheet's games, read and checked ---------------------------------------------------


# A row read, with its kind (`GAME`, `ROUND`, `TOTAL`) whatever language its first word is in.
Kinded = tuple[str, Row]

_SCORE = re.compile(r"[+\-\u2212]?\d{1,12}")
_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2}))?")


def read_sheet(raw: bytes | str, rules: RuleSet, *, today: date | None = None) -> Sheet:
    """Every game of the sheet under `rules`, checked, with every problem named; stores nothing."""
    rows, problems = read_rows(raw)
    sheet = Sheet(rules, problems=problems, rows=rows[-1].number if rows else 0)
    today = today or datetime.now(UTC).date()
    kinds = row_kinds()
    block: list[Kinded] = []
    blocks: list[list[Kinded]] = []
    for row in rows:
        kind = kinds.get(row.cells[0].casefold())
        if kind == GAME:
            block = [(kind, row)]
            blocks.append(block)
        elif kind in (ROUND, TOTAL) and block:
            block.append((kind, row))
        elif kind == ROUND:
            sheet.problems.append(row.at(0, _("a round row must follow its game's game row")))
        elif kind == TOTAL:
            sheet.problems.append(row.at(0, _("a total row must follow its game's game row")))
        else:
            said = _(
                "must be %(game)s, %(round)s or %(total)s, not %(cell)s",
                **row_words(),
                cell=repr(row.cells[0][:30]),
            )
            sheet.problems.append(row.at(0, said))
    if not blocks and not sheet.problems:
        said = _("the sheet has no game row: see the template")
        sheet.problems.append(Problem(None, None, said))
    for block in blocks:
        found = _GameReader(block, rules, today, sheet.problems).read()
        if found is not None:
            sheet.games.append(found)
    already_stored(sheet)
    sheet.problems.sort(key=lambda problem: (problem.row or 0, problem.column or -1))
    return sheet


class _GameReader:
    """One game's block of rows: its game row, its round rows, its total row."""

    def __init__(self, rows: list[Kinded], rules: RuleSet, today: date, problems: list[Problem]):
        self.head, self.body = rows[0][1], rows[1:]
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
            notes.append(
                _("ended early after round %(after)s of %(last)s", after=len(rounds), last=last)
            )
        return SheetGame(self.head.number, game, notes)

    def _layout(self) -> tuple[list[Row], Row | None]:
        """The game's round rows, as many as the rules deal, and its total row; each extra or
        misplaced row named."""
        rounds = [row for kind, row in self.body if kind == ROUND]
        totals = [row for kind, row in self.body if kind == TOTAL]
        for extra in totals[1:]:
            self.fail(extra, 0, _("a game has one total row at most"))
        if totals and self.body[-1][1] is not totals[0]:
            self.fail(totals[0], 0, _("the total row comes after the game's last round"))
        if not rounds:
            self.fail(self.head, 0, _("this game has no round rows"))
        last = self.rules.last_deal
        for row in rounds[last : last + 1]:
            said = ngettext(
                "is one round too many: %(rules)s have %(num)s deal",
                "is one round too many: %(rules)s have %(num)s deals",
                last,
                rules=self.rules.rules_name,
            )
            self.fail(row, 1, said)
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
            said = (
                _(
                    "must be the game's date as year-month-day (2019-12-24), not %(text)s",
                    text=repr(text[:30]),
                )
                if text
                else _("must be the game's date as year-month-day (2019-12-24), not empty")
            )
            self.fail(self.head, 1, said)
            return None
        # A sheet's dates lie in the years an export can carry back, up to today.
        if moment < EARLIEST or moment.date() > self.today:
            said = _(
                "must be a date from %(first)s to today, not %(text)s",
                first=EARLIEST.year,
                text=text,
            )
            self.fail(self.head, 1, said)
            return None
        return moment

    def _names(self) -> list[str] | None:
        raw = self.head.cells[NAMES_FROM:]
        if not raw:
            self.fail(self.head, NAMES_FROM, _("the players' names go here, in seat order"))
            return None
        empty = [index for index, text in enumerate(raw) if not text]
        for index in empty:
            self.fail(self.head, NAMES_FROM + index, _("a player's name is empty"))
        try:
            self.rules.check_players(len(raw))
        except RulesError as error:
            self.fail(self.head, NAMES_FROM, engine_words(error))
            return None
        if empty:
            return None
        try:
            return clean_names(raw)
        except ScorebookError as error:
            for index, text in error.problems.items():
                said = _("%(name)s: %(problem)s", name=repr(raw[index or 0]), problem=text)
                self.fail(self.head, NAMES_FROM + (index or 0), said)
            return None

    def _seat(self, row: Row, text: str) -> int | None:
        """The seat of the player a dealer cell names (any spelling that names them)."""
        for seat, name in enumerate(self.names):
            if name_key(name) == name_key(text):
                return seat
        said = _(
            "%(name)s is not one of the players: %(players)s",
            name=repr(text[:30]),
            players=", ".join(self.names),
        )
        self.fail(row, 2, said)
        return None

    def _scores(self, row: Row, number: int) -> list[int] | None:
        """The round's scores, one per seat, or None with every bad cell named."""
        before = len(self.problems)
        if row.cell(1) != str(number):
            said = _("must be %(number)s: rounds are numbered 1, 2, 3… in order", number=number)
            self.fail(row, 1, said)
        cells = row.cells[NAMES_FROM:]
        players = len(self.names)
        if len(cells) > players:
            self.fail(
                row,
                NAMES_FROM + players,
                ngettext(
                    "has a score past the last player's column: %(num)s player",
                    "has a score past the last player's column: %(num)s players",
                    players,
                ),
            )
        values = []
        for seat in range(players):
            text = cells[seat] if seat < len(cells) else ""
            if not text:
                said = _("has no score: every player scores each round")
                self.fail(row, NAMES_FROM + seat, said)
            elif not _SCORE.fullmatch(text):
                said = _("must be a whole number, not %(text)s", text=repr(text[:30]))
                self.fail(row, NAMES_FROM + seat, said)
            else:
                values.append(int(text.replace("\u2212", "-")))
        return values if len(self.problems) == before else None

    def _first_dealer(
        self, rounds: list[Row], scores: list[list[int] | None]
    ) -> tuple[int, list[str]]:
        """Who dealt round 1: the game row's dealer, else a round row's (the deal passes the way
        play goes), else the one an exact cut shows (the cutter sits before the dealer in
        play), else the first player; every dealer named must agree with it (R2, R12.3)."""
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
            first = seating.first_dealer_of(seat, number, players, self.rules)
            for row, number, seat in said[1:]:
                expected = seating.seat_on(first, number - 1, players, self.rules)
                if seat != expected:
                    self.fail(
                        row, 2, _dealt_out_of_turn(self.rules, self.names, expected, number, first)
                    )
            return first, []
        for number, values in enumerate(scores, start=1):
            cutters = [seat for seat, value in enumerate(values or ()) if value < 0]
            if len(cutters) == 1 and self.rules.cut_bonus:
                dealer = seating.dealer_cut_by(cutters[0], players, self.rules)
                first = seating.first_dealer_of(dealer, number, players, self.rules)
                return first, [
                    _(
                        "%(first)s dealt round 1, as the exact cut of round %(number)s shows",
                        first=self.names[first],
                        number=number,
                    )
                ]
        return 0, [
            _(
                "%(first)s is taken to have dealt round 1 (no dealer on the sheet)",
                first=self.names[0],
            )
        ]

    def _round(self, game: Game, row: Row, number: int, values: list[int]) -> Round | None:
        """The round stored as the table counted it in points, or None with its problems named."""
        setup = ledger.setup_for(game, number)
        before = len(self.problems)
        one_turn = self._one_turn(values, setup.cutter)
        if one_turn is not None:  # their score is the bonus, on a hand of 0
            values = list(values)
            values[one_turn] -= self.rules.out_in_one_turn_bonus
        penalties = [
            self._penalty(row, number, seat, value, setup.cutter)
            for seat, value in enumerate(values)
        ]
        zeros = [seat for seat, penalty in enumerate(penalties) if penalty == 0]
        if len(zeros) > 1 and least_points(self.rules) > 0:
            who = _(" and ").join(self.names[seat] for seat in zeros)
            self.fail(
                row,
                NAMES_FROM + zeros[1],
                _(
                    "%(players)s score 0, and only the player who went out can: every other "
                    "hand holds a card (R10)",
                    players=who,
                ),
            )
        if len(self.problems) > before:
            return None
        cut = any(value < 0 for value in values)
        out = one_turn if one_turn is not None else zeros[0] if zeros else None
        entry = RoundEntry.typed(
            out,
            points=dict(enumerate(penalties)),
            cut_exact=cut,
            out_in_one_turn=one_turn is not None,
        )
        try:
            scored = service.score_entry(game, number, entry)
        except ScorebookError as error:
            for seat, text in error.problems.items():
                self.fail(row, None if seat is None else NAMES_FROM + seat, text)
            return None
        result = scored.result
        return Round(
            number=number, version=1, dealer=setup.dealer, cutter=setup.cutter,
            cut_exact=cut, out=out, out_in_one_turn=one_turn is not None,
            scores=[
                RoundScore(seat=seat, leftovers="", penalty=result.penalties[seat],
                           bonus=result.bonus[seat], score=result.scores[seat],
                           counted=scored.counted[seat])
                for seat in range(len(values))
            ],
        )  # fmt: skip

    def _one_turn(self, values: list[int], cutter: int) -> int | None:
        """The seat that went down and out in one turn, as the scores say (R12.3): under rules
        with a bonus for it, nobody scored 0 and one seat scored the bonus (the cutter: with
        the exact-cut bonus too, when the rules have one); else None."""
        bonus = self.rules.out_in_one_turn_bonus
        if not bonus or 0 in values:
            return None
        cut = self.rules.cut_bonus
        seats = [
            seat
            for seat, value in enumerate(values)
            if value == bonus or (cut and seat == cutter and value == bonus + cut)
        ]
        return seats[0] if len(seats) == 1 else None

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
                _(
                    "%(value)s is below 0, and %(rules)s have no exact-cut bonus",
                    value=value,
                    rules=self.rules.rules_name,
                ),
            )
        elif value < 0 and seat != cutter:
            self.fail(
                row,
                column,
                _(
                    "%(value)s is below 0: only the cutter, %(cutter)s in round %(number)s, "
                    "takes the exact-cut bonus (%(bonus)s)",
                    value=value,
                    cutter=self.names[cutter],
                    number=number,
                    bonus=bonus,
                ),
            )
        elif value < 0:
            penalty = value - bonus
            if penalty < 0:
                self.fail(
                    row,
                    column,
                    _(
                        "%(value)s cannot be: the cutter's score is a hand of 0 or more plus "
                        "the exact-cut bonus (%(bonus)s)",
                        value=value,
                        bonus=bonus,
                    ),
                )
        limit = most_points(self.rules, len(self.names))
        if penalty > limit:
            self.fail(
                row,
                column,
                _(
                    "%(value)s cannot be: a hand counts 0 to %(limit)s with %(rules)s",
                    value=value,
                    limit=limit,
                    rules=self.rules.rules_name,
                ),
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
                    _(
                        "is %(text)s, and the rounds add up to %(total)s for %(player)s",
                        text=repr(text[:30]),
                        total=total,
                        player=self.names[seat],
                    ),
                )


def _dealt_out_of_turn(
    rules: RuleSet, names: list[str], dealer: int, number: int, first: int
) -> str:
    """A dealer named out of turn: who deals that round, the way the deal passes (R2, R12.3)."""
    said = {"dealer": names[dealer], "number": number, "first": names[first]}
    if rules.direction is Direction.RIGHT:
        return _(
            "%(dealer)s deals round %(number)s when %(first)s deals round 1: "
            "the deal passes right (R12.3)",
            **said,
        )
    return _(
        "%(dealer)s deals round %(number)s when %(first)s deals round 1: the deal passes left (R2)",
        **said,
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
        presets = ", ".join(PRESETS)
        raise ScorebookError(
            _(
                "no rules are called %(name)s: the presets are %(presets)s; the saved rule "
                "sets %(saved)s",
                name=repr(name),
                presets=presets,
                saved=", ".join(map(repr, saved)),
            )
            if saved
            else _(
                "no rules are called %(name)s: the presets are %(presets)s",
                name=repr(name),
                presets=presets,
            )
        ) from None


def in_words(found: SheetGame) -> str:
    """One game of a sheet in a line: "2019-12-24 · Ann, Bob, Cat, Dan · 7 rounds · Ann 70,
    Bob 195, Cat 265, Dan 235 · Ann wins", in the reader's language."""
    book = found.book
    game = found.game
    rounds = len(game.rounds)
    played = (
        ngettext(
            "%(num)s round (ended early, of %(last)s)",
            "%(num)s rounds (ended early, of %(last)s)",
            rounds,
            last=book.last_round,
        )
        if game.ended_early
        else ngettext("%(num)s round", "%(num)s rounds", rounds)
    )
    totals = ", ".join(
        f"{name} {ledger.signed(total)}"
        for name, total in zip(book.names, book.totals, strict=True)
    )
    winners = book.winner_names
    if len(winners) > 1:
        won = _("%(names)s share the win", names=_(" and ").join(winners))
    elif book.decided.by_deals_won:
        won = _("%(name)s wins on deals won", name=winners[0])
    else:
        won = _("%(name)s wins", name=winners[0])
    day = game.finished_at.strftime("%Y-%m-%d") if game.finished_at else "?"
    return f"{day} · {', '.join(book.names)} · {played} · {totals} · {won}"
