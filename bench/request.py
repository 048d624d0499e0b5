"""The referee's request around its solver: what `POST /api/rules/solve` costs beyond the search.

The same realistic hands as the solver benchmark (`bench/solver.py`, each preset's own pack), each
timed four ways in one process, the ways interleaved round by round so the machine's load weighs
on all alike:

- **direct**: `solve_opening` on the parsed hand, the search by itself;
- **WSGI**: the app called as a server calls it, with the request's environ built beforehand and
  the answer's body read to its end: everything the score book does for a request;
- **test client**: Flask's test client posting the same body, which also builds the environ from
  the arguments and wraps the answer (what `_solver_worker.py` times);
- **bare Flask, WSGI** and **bare Flask, test client**: an app with one route that answers the
  body it was sent, the floor any Flask app stands on;
- **without its hooks, WSGI**: the score book with every hook and teardown taken away (its
  security headers, body limit, CSRF check, compression, limits, the language's `Vary`, the
  database session's and the writer's teardowns): the same view on Flask's own request, the floor
  under the score book's answer while it keeps Flask and this view.

Each hand's figure is the median of its rounds (CPU time of the thread), each row's the p50 over
the hands; the ratios are to the direct call's p50. Issue 38's target: the API within 3x.
"""

from __future__ import annotations

import gc
import io
import json
import statistics
import sys
import time
from collections.abc import Callable

from flask import Flask, jsonify, request

from scorekeeper import create_app
from scorekeeper.rules.ruleset import PRESETS

from .solver import _solve, _time_all, api_body, realistic_hands

TITLE = "The referee's request around the solver"
HANDS = 1000
ROUNDS = 5
QUICK_HANDS = 50
QUICK_ROUNDS = 2
TARGET = 3.0
PATH = "/api/rules/solve"


def _score_book() -> Flask:
    """The app as a server runs it, its forms' CSRF check on (`_solver_worker.py` turns it off)."""
    return create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": "sqlite://",
            "UPGRADE_ON_START": True,
            "SECRET_KEY": "bench",
        }
    )


def _without_hooks() -> Flask:
    """The score book with every request hook and teardown taken away, its view as it is."""
    app = _score_book()
    for hooks in (app.before_request_funcs, app.after_request_funcs, app.teardown_request_funcs):
        hooks.clear()
    app.teardown_appcontext_funcs.clear()
    return app


def _bare_flask() -> Flask:
    echo = Flask("echo")

    @echo.post(PATH)
    def answer():
        return jsonify(request.get_json())

    return echo


def _environ(body: bytes) -> dict:
    """What a server hands the app for a tablet's question over HTTPS."""
    return {
        "REQUEST_METHOD": "POST",
        "SCRIPT_NAME": "",
        "PATH_INFO": PATH,
        "QUERY_STRING": "",
        "SERVER_NAME": "scorekeeper.lan",
        "SERVER_PORT": "443",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "192.168.1.20",
        "HTTP_HOST": "scorekeeper.lan",
        "HTTP_ACCEPT_LANGUAGE": "en",
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "https",
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
    }


def _served(app: Flask) -> Callable[[dict], bytes]:
    """One request to `app` as a WSGI server makes it: the environ in, the answer's body out."""

    def start_response(status, headers, exc_info=None):
        return None

    def call(environ: dict) -> bytes:
        answer = app(environ, start_response)
        try:
            return b"".join(answer)
        finally:
            getattr(answer, "close", lambda: None)()

    return call


def _timed_rounds(ways: dict[str, tuple[Callable, list]], rounds: int) -> dict[str, float]:
    """{way: p50 over the hands of each hand's median CPU ms}, the ways taken in turn each round
    (the order reversed every round). An item that is a function is called for the way's argument
    before the clock starts (a request's environ, whose body is read once)."""
    runs: dict[str, list[list[float]]] = {name: [] for name in ways}
    order = list(ways)
    gc.collect()
    gc.freeze()
    try:
        for _ in range(rounds):
            for name in order:
                call, items = ways[name]
                calls = [(call, (item() if callable(item) else item,)) for item in items]
                runs[name].append(_time_all(calls, time.thread_time_ns))
            order.reverse()
    finally:
        gc.unfreeze()
    return {
        name: statistics.median(statistics.median(hand) for hand in zip(*timed, strict=True))
        for name, timed in runs.items()
    }


def _row(preset: str, count: int, rounds: int, book: Flask, bare: Flask, floor: Flask) -> dict:
    hands = realistic_hands(PRESETS[preset], count)
    bodies = [api_body(preset, *hand) for hand in hands]
    raw = [json.dumps(body).encode() for body in bodies]
    environs = [lambda body=body: _environ(body) for body in raw]
    book_client, bare_client = book.test_client(), bare.test_client()
    ways = {
        "direct": (lambda hand: _solve(hand[2], hand[0], preset, hand[1]), hands),
        "WSGI": (_served(book), environs),
        "test client": (lambda body: book_client.post(PATH, json=body), bodies),
        "bare WSGI": (_served(bare), environs),
        "bare test client": (lambda body: bare_client.post(PATH, json=body), bodies),
        "without hooks": (_served(floor), environs),
    }
    p50 = _timed_rounds(ways, rounds)
    direct = p50["direct"]
    ratio = p50["WSGI"] / direct
    return {
        "preset": preset,
        "hands x rounds": f"{count} x {rounds}",
        "direct p50 ms": f"{direct:.3f}",
        "WSGI p50 ms": f"{p50['WSGI']:.3f} ({ratio:.1f}x: {'met' if ratio <= TARGET else 'MISSED'})",
        "test client p50 ms": f"{p50['test client']:.3f} ({p50['test client'] / direct:.1f}x)",
        "bare Flask, WSGI / test client ms": (
            f"{p50['bare WSGI']:.3f} / {p50['bare test client']:.3f}"
        ),
        "without its hooks, WSGI p50 ms": (
            f"{p50['without hooks']:.3f} ({p50['without hooks'] / direct:.2f}x)"
        ),
    }


def main(quick: bool = False) -> list[dict]:
    count, rounds = (QUICK_HANDS, QUICK_ROUNDS) if quick else (HANDS, ROUNDS)
    book, bare, floor = _score_book(), _bare_flask(), _without_hooks()
    # The question is answered, not refused: a verdict, never an error (a CSRF refusal included).
    first = api_body("liverpool", *realistic_hands(PRESETS["liverpool"], 1)[0])
    for app in (book, floor):
        answer = json.loads(_served(app)(_environ(json.dumps(first).encode())))
        if "legal" not in answer:
            raise RuntimeError(f"the app did not answer the question: {answer}")
    return [_row(preset, count, rounds, book, bare, floor) for preset in PRESETS]
