"""A page in every shipped language beside the same page in English: its time and its weight.

An in-process app (a private SQLite file made by the migrations) holds a finished 4-player game
and one in play. Each page is asked for in English and in each other language in turn
(`Accept-Language`), the order of the languages turned round every pass so the machine's load
weighs on all alike, with the page cache cleared before every request (the page drawn afresh);
the figures are each language's median time and the body's size as sent (gzip, as a browser is
answered). The target: every language within 5 % of English, in time and in bytes.
"""

from __future__ import annotations

import gzip
import statistics
import time
from typing import Any

from bench._game_pages import file_app
from scorekeeper.platform import cache
from tests.support.games import FlaskSender, create_game, round_body
from tests.support.names import NAMES

TITLE = "A page in each language beside English (in process, page cache cleared)"
LANGUAGES = ("en", "de", "es", "es-CL", "fi", "fr")
RENDERS = 30
QUICK_RENDERS = 5
TARGET = 1.05


def _games(client: FlaskSender) -> tuple[int, int]:
    finished = create_game(client, NAMES, "liverpool")
    for number in range(1, 8):
        client.send_json(
            "POST", finished.rounds_path, round_body(finished.names, number), finished.write_headers
        )
    playing = create_game(client, NAMES, "shanghai")
    for number in range(1, 4):
        client.send_json(
            "POST", playing.rounds_path, round_body(playing.names, number), playing.write_headers
        )
    return finished.id, playing.id


def _ask(app, client: FlaskSender, path: str, language: str) -> tuple[float, int]:
    cache.forget_all(app)
    headers = {"Accept": "text/html", "Accept-Language": language}
    start = time.perf_counter_ns()
    answer = client.request("GET", path, headers=headers)
    elapsed = (time.perf_counter_ns() - start) / 1e6
    if answer.status != 200:
        raise RuntimeError(f"GET {path} in {language} answered {answer.status}")
    return elapsed, len(gzip.compress(answer.body, 6))


def main(quick: bool = False) -> list[dict[str, Any]]:
    renders = QUICK_RENDERS if quick else RENDERS
    rows = []
    with file_app("languages") as app:
        client = FlaskSender(app.test_client())
        finished, playing = _games(client)
        pages = {
            "finished game": f"/games/{finished}",
            "game in play": f"/games/{playing}",
            "rulebook (shanghai)": "/rules/reference?rules=shanghai",
            "new game": "/games/new",
            "season": "/players/",
        }
        for name, path in pages.items():
            order = list(LANGUAGES)
            for language in order:  # warm: a language's catalog is read on its first request
                _ask(app, client, path, language)
            times: dict[str, list[float]] = {language: [] for language in LANGUAGES}
            sizes: dict[str, int] = {}
            for _ in range(renders):
                for language in order:
                    elapsed, size = _ask(app, client, path, language)
                    times[language].append(elapsed)
                    sizes[language] = size
                order.reverse()
            rows += _rows(name, times, sizes)
    return rows


def _rows(page: str, times: dict[str, list[float]], sizes: dict[str, int]) -> list[dict[str, Any]]:
    base_ms, base_bytes = statistics.median(times["en"]), sizes["en"]
    rows = []
    for language, samples in times.items():
        median = statistics.median(samples)
        row = {
            "page": page,
            "language": language,
            "runs": len(samples),
            "p50 ms": f"{median:.2f}",
            "vs English": f"{median / base_ms:.3f}",
            "gzip B": f"{sizes[language]:,}",
            "bytes vs English": f"{sizes[language] / base_bytes:.3f}",
        }
        if language != "en":
            met = median <= TARGET * base_ms and sizes[language] <= TARGET * base_bytes
            row["result (<= 1.05x English)"] = "met" if met else "MISSED"
        rows.append(row)
    return rows
