"""A night as the pages and the API read it: its players, its tables and each table's game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import url_for

from ..games.models import Game
from .models import Night, NightTable


@dataclass(frozen=True)
class TableView:
    """A drawn table: its number, its game (None once deleted) and who sits there."""

    number: int
    game: Game | None
    names: tuple[str, ...]
    started: bool

    @classmethod
    def of(cls, table: NightTable) -> TableView:
        game = table.game
        names = tuple(game.names) if game is not None else ()
        started = game is not None and (bool(game.rounds) or game.finished)
        return cls(table.number, game, names, started)


def tables(night: Night) -> list[TableView]:
    return [TableView.of(table) for table in night.tables]


def waiting(night: Night) -> list[Any]:
    """The players checked in and not yet at a table (every one of them before the draw)."""
    return [player for player in night.players if player.table_number is None]


def brief_json(night: Night) -> dict[str, Any]:
    return {
        "id": night.id,
        "held_on": night.held_on.isoformat(),
        "rules": night.rules_name,
        "state": night.state,
        "players": len(night.players),
        "tables": len(night.tables),
        "link": url_for("nights_api.get_night", night_id=night.id),
    }


def night_json(night: Night) -> dict[str, Any]:
    """The whole night: its rules, seed, players and tables, each table's game and links."""
    return {
        "id": night.id,
        "held_on": night.held_on.isoformat(),
        "rules": {"name": night.rules_name, "chosen": night.rules_choice, "document": night.rules},
        "seed": night.seed,
        "state": night.state,
        "drawn_at": night.drawn_at.isoformat() + "Z" if night.drawn_at else None,
        "repeats": night.repeats,
        "players": [
            {
                "name": player.name,
                "pinned_table": player.pinned_table,
                "table": player.table_number,
                "late": player.late,
                "checked_in_at": player.checked_in_at.isoformat() + "Z",
            }
            for player in night.players
        ],
        "tables": [_table_json(table) for table in tables(night)],
    }


def _table_json(table: TableView) -> dict[str, Any]:
    game_id = table.game.id if table.game is not None else None
    links = (
        {
            "game": url_for("api.get_game", game_id=game_id),
            "page": url_for("games.show_game", game_id=game_id),
        }
        if game_id is not None
        else None
    )
    return {
        "number": table.number,
        "game": game_id,
        "players": list(table.names),
        "started": table.started,
        "links": links,
    }
