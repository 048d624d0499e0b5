"""A game's sheet to take away: the ledger as CSV, and the game alone in the export format."""

from __future__ import annotations

import csv
import io
from typing import Any

from . import transfer
from .ledger import Book
from .models import Game


def ledger_csv(book: Book) -> str:
    """`Round,<names in seat order>`, a row per recorded round, then `Total`; plain integers.
    A last row says under which rules and of how many deals: `Rules,Shanghai,10 deals`."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["Round", *book.names])
    for played in book.game.rounds:
        writer.writerow([played.number, *(line.score for line in played.scores)])
    writer.writerow(["Total", *book.totals])
    writer.writerow(["Rules", book.rules.name, f"{book.last_round} deals"])
    return out.getvalue()


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
