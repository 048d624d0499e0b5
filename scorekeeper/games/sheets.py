"""A game's sheet to take away: the ledger as CSV, and the game alone in the export format."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

from . import transfer
from .ledger import Book
from .models import Game, localtime

# A spreadsheet takes a cell starting with one of these for a formula (or, with a tab or a
# carriage return first, strips them and then does): OWASP's CSV injection list.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def ledger_csv(book: Book) -> str:
    """`Round,<names in seat order>`, a row per recorded round, then `Total`; plain integers.
    A last row says under which rules and of how many deals: `Rules,Shanghai,10 deals`.

    Every text cell is quoted and none is ever a formula (`safe_cell`); numbers are written
    bare, so a spreadsheet reads -20 as the number it is."""
    return _csv(
        [
            ["Round", *book.names],
            *(
                [played.number, *(line.score for line in played.scores)]
                for played in book.game.rounds
            ),
            ["Total", *book.totals],
            ["Rules", book.rules.name, f"{book.last_round} deals"],
        ]
    )


ROUNDS_HEADER = (
    "Round",
    "Player",
    "Dealer",
    "Cutter",
    "Went out",
    "Cut bonus",
    "Cards left",
    "Counted",
    "Penalty",
    "Score",
    "Running total",
    "Recorded date",
    "Recorded time",
)


def rounds_csv(book: Book) -> str:
    """The detailed sheet: a row per player and round, in round then seat order, with who
    dealt, cut and went out (a name, or "nobody" when the stock ran out), the player's cut
    bonus, the cards left (as written, empty for a hand the table counted or the player out),
    whether the table counted the hand itself, the penalty, the score, the running total and
    when the round was recorded (date and time on the serving machine's clock).

    Written as the ledger is (`safe_cell`, numbers bare), so a name cannot become a formula."""
    names = book.names
    running = [0] * len(names)
    rows: list[list[object]] = [list(ROUNDS_HEADER)]
    for played in book.game.rounds:
        out = "nobody" if played.out is None else names[played.out]
        for line in played.scores:
            running[line.seat] += line.score
            rows.append(
                [
                    played.number,
                    names[line.seat],
                    names[played.dealer],
                    names[played.cutter],
                    out,
                    line.bonus,
                    line.leftovers,
                    "yes" if line.counted else "no",
                    line.penalty,
                    line.score,
                    running[line.seat],
                    localtime(played.recorded_at, "%Y-%m-%d"),
                    localtime(played.recorded_at, "%H:%M:%S"),
                ]
            )
    return _csv(rows)


def _csv(rows: Iterable[Iterable[object]]) -> str:
    """Rows as CSV text: every text cell quoted and never a formula, numbers bare."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n", quoting=csv.QUOTE_NONNUMERIC)
    for cells in rows:
        writer.writerow([safe_cell(cell) for cell in cells])
    return out.getvalue()


def safe_cell(cell: object) -> object:
    """A text cell a spreadsheet would run as a formula (`=HYPERLINK(…)`, `-2+3`, `@SUM(…)`)
    behind a `'`, which shows it as the text it is (OWASP's advice); numbers as they are."""
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return cell


def game_export(game: Game) -> dict[str, Any]:
    """The game in the `export` command's format, which `import` takes, without its key hash.

    Whoever can see the game can download it: the hash of its edit key stays on this machine
    (imported elsewhere, the game gets a key with `flask --app scorekeeper game-key`).
    """
    document = transfer.export_document([game])
    document["games"][0]["key_hash"] = None
    return document


def export_filename(game: Game, suffix: str) -> str:
    """`liverpool-game-12.csv`: the download's file name."""
    return f"liverpool-game-{game.id}.{suffix}"
