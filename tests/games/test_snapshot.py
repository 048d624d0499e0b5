"""A round as the history keeps it, and the export format: each shape has one definition.

`RoundSnapshot` is the only place that knows what `RoundChange.before/after` holds; the format's
parts (`transfer`) are the only place that knows what an export holds. The writer and the
import checker both work from them, so what one writes the other reads, and nothing else.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import json
import re
import sqlite3
from pathlib import Path

import pytest

from scorekeeper.games import importer, ledger, service, transfer
from scorekeeper.games.errors import ImportRefused
from scorekeeper.games.models import Game, RoundChange, utcnow
from scorekeeper.games.roundvalues import RoundEntry, RoundSnapshot
from scorekeeper.platform.database import db
from tests.support.names import NAMES

LEGACY = Path(__file__).parents[1] / "database" / "legacy-v0.sqlite"
BY_CARDS = {
    "out": 2,
    "cut_exact": False,
    "leftovers": ["9", "10 J", "", "A A"],
    "penalties": [9, 20, 0, 30],
    "bonus": [0, 0, 0, 0],
    "scores": [9, 20, 0, 30],
    "version": 1,
}
COUNTED = {
    **BY_CARDS,
    "leftovers": ["9", "", "", "A A"],
    "penalties": [9, 25, 0, 30],
    "scores": [9, 25, 0, 30],
    "counted": [False, True, False, False],
}


# --- The snapshot on its own ----------------------------------------------------------------


@pytest.mark.parametrize("data", [BY_CARDS, COUNTED], ids=["by cards", "counted"])
def test_a_snapshot_reads_and_writes_its_shape_key_for_key(data):
    snapshot = RoundSnapshot.from_dict(data)
    assert snapshot.to_dict() == data
    assert list(snapshot.to_dict()) == list(data)  # the order the history always had
    assert RoundSnapshot.from_dict(snapshot.to_dict()) == snapshot


def test_counted_is_written_only_when_a_hand_was_counted():
    by_cards = RoundSnapshot.from_dict(BY_CARDS)
    assert by_cards.counted == (False,) * 4 and by_cards.counted_seats == []
    assert "counted" not in by_cards.to_dict()
    # Written all false (as no version of the app writes it), it reads the same as left out.
    assert RoundSnapshot.from_dict({**BY_CARDS, "counted": [False] * 4}) == by_cards
    counted = RoundSnapshot.from_dict(COUNTED)
    assert counted.counted_seats == [1]
    assert counted.to_dict()["counted"] == [False, True, False, False]


def test_the_repr_rebuilds_the_snapshot():
    snapshot = RoundSnapshot.from_dict(COUNTED)
    assert repr(snapshot).startswith("RoundSnapshot.from_dict({'out': 2,")
    assert eval(repr(snapshot), {"RoundSnapshot": RoundSnapshot}) == snapshot


def test_a_snapshot_cannot_change_and_refuses_what_it_does_not_hold():
    snapshot = RoundSnapshot.from_dict(BY_CARDS)
    with pytest.raises(dataclasses.FrozenInstanceError):
        snapshot.out = 3  # type: ignore[misc]
    assert isinstance(snapshot.leftovers, tuple)  # not the caller's list
    with pytest.raises(ValueError, match="has no cards"):
        RoundSnapshot.from_dict({**BY_CARDS, "cards": []})
    with pytest.raises(KeyError):
        RoundSnapshot.from_dict({key: value for key, value in BY_CARDS.items() if key != "bonus"})


def test_the_same_entry_is_the_same_whatever_the_version():
    first = RoundSnapshot.from_dict(BY_CARDS)
    assert first.same_entry(dataclasses.replace(first, version=5))
    assert not first.same_entry(RoundSnapshot.from_dict(COUNTED))
    assert first != dataclasses.replace(first, version=5)


def test_every_history_row_of_a_database_made_before_migrations_reads_back_byte_for_byte():
    """No migration: what the oldest databases hold is the shape, written the same way."""
    connection = sqlite3.connect(LEGACY)
    try:
        rows = connection.execute("SELECT before, after FROM round_changes").fetchall()
    finally:
        connection.close()
    stored = [text for row in rows for text in row if text != "null"]
    assert len(stored) == 4
    for text in stored:
        assert json.dumps(RoundSnapshot.from_dict(json.loads(text)).to_dict()) == text


# --- The snapshot in the score book ---------------------------------------------------------


@pytest.fixture
def ctx(app):
    with app.app_context():
        yield


def by_cards(out: int, **cards: str) -> RoundEntry:
    seats = {name: seat for seat, name in enumerate(NAMES)}
    return RoundEntry.typed(out=out, leftovers={seats[name]: text for name, text in cards.items()})


def test_the_history_holds_the_stored_round_as_it_was_and_as_it_became(ctx):
    game, _key = service.create_game(NAMES, first_dealer=0)
    played = service.record_round(game, by_cards(2, Ann="9", Bob="10 J", Dan="A A"))
    db.session.commit()
    recorded = RoundSnapshot.of_round(played)
    assert recorded.to_dict() == BY_CARDS
    points = RoundEntry.typed(out=2, leftovers={0: "9", 3: "A A"}, points={1: 25})
    played = service.correct_round(game, 1, points, version=1)
    db.session.commit()
    [change] = game.history
    assert RoundSnapshot.from_dict(change.before) == recorded
    assert RoundSnapshot.from_dict(change.after) == RoundSnapshot.of_round(played)
    assert change.after == {**COUNTED, "version": 2}
    assert service.undo_round(game, 1) == change.after
    db.session.commit()
    assert game.history[-1].before == change.after
    assert ledger.book(game).changes[0].lines == [
        "Cat went out; Ann 9 = 9, Bob counted = 25, Cat out = 0, Dan A A = 30"
    ]


def test_a_correction_to_the_same_entry_stores_nothing(ctx):
    game, _key = service.create_game(NAMES, first_dealer=0)
    service.record_round(game, by_cards(2, Ann="9", Bob="10 J", Dan="A A"))
    db.session.commit()
    played = service.correct_round(game, 1, by_cards(2, Ann="9", Bob="J 10", Dan="A A"))
    db.session.commit()
    assert played.version == 1 and game.history == []


# --- The export format, written and checked from one definition -----------------------------


def every_feature(app) -> dict:
    """An export of a game with counted hands, a correction, an undo, and the game archived."""
    with app.app_context():
        game, _key = service.create_game(NAMES, first_dealer=1)
        service.record_round(game, by_cards(0, Bob="7", Cat="8", Dan="9"))
        service.record_round(
            game, RoundEntry.typed(out=1, leftovers={0: "K"}, points={2: 12, 3: 40})
        )
        service.correct_round(
            game, 1, RoundEntry.typed(out=0, leftovers={1: "7"}, points={2: 5, 3: 9})
        )
        service.record_round(game, by_cards(3, Ann="A", Bob="2", Cat="3"))
        service.undo_round(game, 3)
        game.archived_at = utcnow()
        db.session.commit()
        return transfer.export_games()


def parts_of(document: dict):
    """Every object of the document with the part of the format it is, inner ones included."""
    for game in document["games"]:
        yield transfer.GAME, game
        for name, part in (
            ("players", transfer.PLAYER),
            ("rounds", transfer.ROUND),
            ("history", transfer.CHANGE),
        ):
            for item in game[name]:
                yield part, item
        for played in game["rounds"]:
            for line in played["scores"]:
                yield transfer.SCORE_LINE, line
        for change in game["history"]:
            for snapshot in (change["before"], change["after"]):
                if snapshot is not None:
                    yield transfer.SNAPSHOT, snapshot


def test_an_export_with_every_feature_holds_every_field_and_passes_the_checker(app):
    document = every_feature(app)
    with app.app_context():
        assert set(document) == transfer.document_fields()
    assert set(document) - transfer.DOCUMENT_FIELDS == {
        "nights",
        "leagues",
        "rule_sets",
        "merges",
        "sheets",
    }
    seen = set()
    for part, item in parts_of(document):
        assert set(item) <= part.names and part.names - set(item) <= part.later, part.name
        seen.add(part.name)
    assert seen == {"game", "player", "round", "score line", "history entry", "round snapshot"}
    [game] = document["games"]
    assert game["archived_at"] is not None
    assert [change["action"] for change in game["history"]] == ["corrected", "undone"]
    assert game["history"][0]["after"]["counted"] == [False, False, True, True]
    assert [line["counted"] for line in game["rounds"][1]["scores"]] == [False, False, True, True]
    with app.app_context():
        [checked] = importer.check_document(copy.deepcopy(document))
        assert transfer.export_document([checked]) == document


def test_every_field_of_the_format_is_a_column_of_its_model():
    parts = (
        transfer.GAME,
        transfer.PLAYER,
        transfer.ROUND,
        transfer.SCORE_LINE,
        transfer.CHANGE,
    )
    for part in parts:
        assert all(hasattr(part.model, name) for name in part.names), part.name
    assert [item.name for item in transfer.SNAPSHOT.fields] == list(RoundSnapshot.shape())
    assert transfer.SNAPSHOT.later == RoundSnapshot.OPTIONAL


@contextlib.contextmanager
def without(part: transfer.Part, name: str):
    """The format's definition of `part` with the field `name` left out, for a moment."""
    fields = part.fields
    object.__setattr__(part, "fields", tuple(item for item in fields if item.name != name))
    try:
        yield
    finally:
        object.__setattr__(part, "fields", fields)


def test_a_field_left_out_of_the_definition_is_left_out_by_the_writer_and_the_checker(app):
    document = every_feature(app)
    with without(transfer.GAME, "archived_at"), app.app_context():
        written = transfer.export_games()
        assert "archived_at" not in written["games"][0]
        [checked] = importer.check_document(written)
        assert checked.archived_at is None
        with pytest.raises(ImportRefused, match=r"games\[0\] has unknown field archived_at"):
            importer.check_document(document)
    with without(transfer.SCORE_LINE, "bonus"), app.app_context():
        assert all(
            "bonus" not in line
            for line in transfer.export_games()["games"][0]["rounds"][0]["scores"]
        )
        with pytest.raises(ImportRefused, match=r"scores\[0\] has unknown field bonus"):
            importer.check_document(document)


def test_a_history_entry_is_written_as_the_snapshot_holds_it(app):
    document = every_feature(app)
    with app.app_context():
        [change] = [c for c in db.session.scalars(db.select(RoundChange)) if c.after]
        assert document["games"][0]["history"][0]["before"] == change.before
        assert document["games"][0]["history"][0]["after"] == change.after
        assert db.session.get(Game, 1).archived


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        (7, "after.counted must be a list"),
        ([False] * 4, "after.counted must hold one true or false for each of the 4 players, one"),
        ([True], "after.counted must hold one true or false for each of the 4 players"),
        ([0, 0, 1, 1], "after.counted[0] must be true or false"),
    ],
)
def test_a_broken_counted_list_in_the_history_is_refused(app, value, problem):
    document = every_feature(app)
    document["games"][0]["history"][0]["after"]["counted"] = value
    with app.app_context(), pytest.raises(ImportRefused, match=re.escape(problem)):
        importer.check_document(document)


def test_no_change_to_a_document_with_every_feature_crashes_the_checker(app):
    """Each place of the document replaced in turn: the checker takes it or names a problem."""
    document = every_feature(app)
    places = list(_places(document))
    with app.app_context():
        for path in places:
            for value in (None, -1, "x", {}, [True, False]):
                damaged = copy.deepcopy(document)
                target = damaged
                for part in path[:-1]:
                    target = target[part]
                target[path[-1]] = value
                with contextlib.suppress(ImportRefused):
                    importer.check_document(damaged)
    assert len(places) > 150


def _places(value, path=()):
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return
    for key, item in items:
        yield (*path, key)
        yield from _places(item, (*path, key))
