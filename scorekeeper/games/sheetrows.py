"""A paper sheet's file read into rows, each cell placed as a spreadsheet places it (row 5,
column D), and the template a family fills in (`papersheets` checks the games the rows hold).

A spreadsheet saves CSV with commas, or semicolons where the comma is the decimal sign, and a
range of cells pasted as text is separated by tabs: the separator is the one the first row uses
most. Rows are padded with empty cells to the widest row of the file, so empty cells at a row's
end are dropped; blank rows, and rows whose first cell starts with #, are notes and skipped.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

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


# --- The template ------------------------------------------------------------------------

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
