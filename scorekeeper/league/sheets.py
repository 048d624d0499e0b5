"""A league as the API and the sheet give it: JSON of a league, its table and a player's nights,
and the table as CSV in the request's language."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

from flask import url_for
from flask_babel import gettext as _

from ..games.transfer import safe_cell
from .models import PLACES, League, LeagueScoringChange
from .standings import NightSummary, Seat, Table, as_number, scoring_words, tie_words


def csv_rows(rows: Iterable[Iterable[object]]) -> str:
    """Rows as CSV text, as the score book's sheets are: text quoted and never a formula,
    numbers bare."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n", quoting=csv.QUOTE_NONNUMERIC)
    for cells in rows:
        writer.writerow([safe_cell(cell) for cell in cells])
    return out.getvalue()


def brief_json(league: League) -> dict[str, Any]:
    return {
        "id": league.id,
        "name": league.name,
        "scoring": league.scoring,
        "points": list(league.points),
        "nights": [link.night_id for link in league.nights],
        "created_at": league.created_at.isoformat(timespec="seconds") + "Z",
        "link": url_for("league_api.get_league", league_id=league.id),
    }


def table_json(standing: Table) -> dict[str, Any]:
    """The league with its table: each player's place, nights, score, wins and deals won."""
    league = standing.league
    return {
        **brief_json(league),
        "nights": [
            {"id": night.id, "held_on": night.held_on.isoformat(), "rules": night.rules_name}
            for night in standing.nights
        ],
        "changes": [change_json(change) for change in league.changes],
        "ties": standing.ties,
        "in_play": standing.in_play,
        "table": [
            {
                "place": line.place,
                "name": line.name,
                "nights": line.nights,
                "score": as_number(line.score),
                "wins": line.wins,
                "deals_won": line.deals_won,
            }
            for line in standing.lines
        ],
    }


def change_json(change: LeagueScoringChange) -> dict[str, Any]:
    """A change of the league's scoring: what it was, what it became, and when."""
    return {
        "before": {"scoring": change.before_scoring, "points": list(change.before_points)},
        "after": {"scoring": change.after_scoring, "points": list(change.after_points)},
        "changed_at": change.changed_at.isoformat(timespec="seconds") + "Z",
    }


def seat_json(league: League, seat: Seat) -> dict[str, Any]:
    return {
        "night": seat.night.id,
        "held_on": seat.night.held_on.isoformat(),
        "table": seat.table,
        "game": seat.game_id,
        "name": seat.name,
        "finished": seat.finished,
        "place": seat.place,
        "total": seat.total,
        "won": seat.won,
        "score": as_number(seat.score),
    }


def score_heading(league: League) -> str:
    return _("Points") if league.scoring == PLACES else _("Per deal against the table")


def table_csv(standing: Table) -> str:
    """`Place,Player,Nights,<score>,Wins,Deals won`, a row per player, then the scoring and the
    tie rule in words: headers and words in the request's language, no cell ever a formula."""
    league = standing.league
    return csv_rows(
        [
            [
                _("Place"),
                _("Player"),
                _("Nights"),
                score_heading(league),
                _("Wins"),
                _("Deals won"),
            ],
            *(
                [
                    line.place,
                    line.name,
                    line.nights,
                    as_number(line.score),
                    line.wins,
                    line.deals_won,
                ]
                for line in standing.lines
            ),
            [_("League"), league.name],
            [_("Scoring"), scoring_words(league)],
            [_("Ties"), tie_words(standing.ties)],
        ]
    )


def summary_json(summary: NightSummary) -> dict[str, Any]:
    """A night's summary: each table's winners (leaders while in play) and the best round."""
    return {
        "night": summary.night.id,
        "held_on": summary.night.held_on.isoformat(),
        "tables": [
            {
                "number": table.number,
                "game": table.game_id,
                "players": table.names,
                "finished": table.finished,
                "winners": table.ahead if table.finished else [],
                "leaders": [] if table.finished else table.ahead,
                "rounds": table.rounds,
            }
            for table in summary.tables
        ],
        "best_round": [
            {"name": best.name, "table": best.table, "round": best.number, "others": best.others}
            for best in summary.best
        ],
    }
