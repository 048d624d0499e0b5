"""The export document and the games taken away in it: every game (the `export` command), one
game (its page's download, without its key hash), and a game's ledger as CSV.

For moving a table's score book to another machine or keeping it outside SQLite: the document
holds everything (players, rounds, scores, versions, history, key hashes, times), so an export
imported into an empty database exports again byte for byte the same. The document is defined
once, here: its name, its version and the fields of each of its parts. Export writes a document
from these definitions and `importer` reads one with them, so a field is in both or in neither.
A part's fields are the columns of its model, written as they are stored (times as UTC text,
the history's rounds as `RoundSnapshot.to_dict` holds them).

Format 1 named each game's rules by a profile (`"profile": "family"`); format 2 carries the
whole document; format 3 adds the sections of the features built on the score book (a club's
nights, its leagues), which register them at app start (`register_section`): the score book
writes and reads its document without knowing them, and they sit above it. Format 4 adds the
sections of what else the table records: its saved rule sets (`rule_sets`), the players it
merged (`merges`) and the games it brought in from paper sheets (`sheets`), so that nothing
recorded is lost on the way through an export (a `restore` from one). Each section says the
version that added it (`Section.since`): a document of that version or later holds it, an
earlier one never does and means none of its rows. An old export means the profile as the app
that wrote it had it, so `FORMAT_1_PROFILES` are the presets' documents as they were when format
2 began, frozen, never the app's presets of the day: a preset changed in a later release must
not change a game read from an old export (the same copies as migration 0005's, which a test
compares).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from enum import Enum
from typing import Any

from flask import Flask, current_app
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from sqlalchemy.orm import selectinload

from ..platform.database import db
from ..rules.ruleset import MOST_DEALS
from ..rules.ruleset.words import N_
from .buys import MOST_BUYS
from .ledger import Book
from .models import NAME_MAX, Game, Player, Rename, Round, RoundChange, RoundScore, localtime
from .roundvalues import RoundSnapshot

# --- The document ------------------------------------------------------------------------

FORMAT = "liverpool-scorekeeper/games"
# 4: the table's saved rule sets, merged players and paper sheets' records (`rule_sets`,
# `merges`, `sheets`); 3: the sections of the features above the score book (`nights`,
# `leagues`) beside the games; 2: each game carries its rule set's whole document (`rules`);
# 1 named a profile (`profile`).
FORMAT_VERSION = 4
# The versions an import reads: a format 1 game's profile becomes its document
# (`game_of_format_1`); a document before a section's version lacks it, and means none of its
# rows (`Section.since`).
READS = (1, 2, 3, 4)
# Far beyond any real score or version, and well inside SQLite's 64-bit integers.
NUMBER_LIMIT = 10**9


class Kind(Enum):
    """What a field holds, which says how it is written and how it is checked."""

    GAME_ID = "a game's id, within what the database can hold"
    ID = "a row's id, within what the database can hold"
    DATE = "a calendar date, 2025-01-31"
    OWN = "checked by the section that keeps it, by its own rules"
    RULES = "a rule set's whole document (R11), every problem of a bad one named"
    WHOLE = "a whole number from `low` to `high`"
    SEAT = "a seat at the game's table"
    INDEX = "the object's place in its list"
    FLAG = "true or false"
    TEXT = "text of at most `high` characters"
    CARDS = "cards in the app's notation"
    CHOICE = "one of `choices`"
    HASH = "a sha256 hash in lowercase hex"
    TIME = "a UTC time to the microsecond, marked Z"
    PARTS = "a list of objects of `part`"
    PER_SEAT = "a list of one `of` for each seat, in seat order"
    SNAPSHOT = "a round as the history keeps it (`RoundSnapshot`)"


@dataclass(frozen=True)
class Field:
    """One field of a part; its name is the model's column it is written from and read into."""

    name: str
    kind: Kind
    empty: bool = False  # null is allowed
    # Added within this format version: a document made before it may lack it (`default` then).
    later: bool = False
    default: Any = None
    low: int = -NUMBER_LIMIT
    high: int = NUMBER_LIMIT
    choices: tuple[str, ...] = ()
    part: Part | None = None
    of: Kind | None = None  # for PER_SEAT: what each entry is
    # For INDEX: why the place is fixed; for PER_SEAT: what each entry is, in words (marked
    # with `N_`, said in the reader's language where a problem names it).
    why: str = ""


@dataclass(frozen=True)
class Part:
    """A kind of object in the document, the model it is a row of, and its fields in order."""

    name: str
    model: type[Any]  # whose columns the fields are (a `RoundSnapshot` for the history)
    fields: tuple[Field, ...]

    @property
    def names(self) -> frozenset[str]:
        """The fields an object of this part holds: no others, and all but the `later` ones."""
        return frozenset(item.name for item in self.fields)

    @property
    def later(self) -> frozenset[str]:
        """The fields a document of this format version may lack: made before they existed."""
        return frozenset(item.name for item in self.fields if item.later)

    def field(self, name: str) -> Field:
        return next(item for item in self.fields if item.name == name)

    def write(self, row: Any) -> dict[str, Any]:
        """The row as this part of the document."""
        return {item.name: _written(item, getattr(row, item.name)) for item in self.fields}


def exported_time(moment: datetime | None) -> str | None:
    """A stored UTC time to the microsecond, marked Z, so it comes back exactly."""
    return None if moment is None else moment.isoformat(timespec="microseconds") + "Z"


def _written(item: Field, value: Any) -> Any:
    if item.kind is Kind.TIME:
        return exported_time(value)
    if item.kind is Kind.DATE:
        return None if value is None else date.isoformat(value)
    if item.kind is Kind.PARTS:
        assert item.part is not None
        return [item.part.write(row) for row in value]
    if item.kind is Kind.SNAPSHOT and value is not None:
        return RoundSnapshot.from_dict(value).to_dict()
    return value


def _time(name: str, **options: Any) -> Field:
    return Field(name, Kind.TIME, **options)


# A round in the history: the fields are the snapshot's keys, whatever `RoundSnapshot` holds.
_SNAPSHOT_FIELDS = {
    "out": Field("out", Kind.SEAT, empty=True),
    "cut_exact": Field("cut_exact", Kind.FLAG),
    "leftovers": Field("leftovers", Kind.PER_SEAT, of=Kind.CARDS),
    "penalties": Field("penalties", Kind.PER_SEAT, of=Kind.WHOLE),
    "bonus": Field("bonus", Kind.PER_SEAT, of=Kind.WHOLE),
    "scores": Field("scores", Kind.PER_SEAT, of=Kind.WHOLE),
    "version": Field("version", Kind.WHOLE, low=1),
    "counted": Field(
        "counted", Kind.PER_SEAT, of=Kind.FLAG, why=N_("one true or false"), default=()
    ),
    "buys": Field("buys", Kind.PER_SEAT, of=Kind.WHOLE, why=N_("a whole number"), default=()),
    "out_in_one_turn": Field("out_in_one_turn", Kind.FLAG, default=False),
}
SNAPSHOT = Part(
    "round snapshot",
    RoundSnapshot,
    tuple(
        replace(_SNAPSHOT_FIELDS[key], later=key in RoundSnapshot.OPTIONAL)
        for key in RoundSnapshot.shape()
    ),
)
SCORE_LINE = Part(
    "score line",
    RoundScore,
    (
        Field("seat", Kind.INDEX, why=N_("one line per seat, in order")),
        Field("leftovers", Kind.CARDS),
        Field("penalty", Kind.WHOLE),
        Field("bonus", Kind.WHOLE),
        Field("score", Kind.WHOLE),
        Field("counted", Kind.FLAG, later=True, default=False),
        # The discards bought in the deal; null for a round stored before buys were counted.
        Field("buys", Kind.WHOLE, empty=True, later=True, low=0, high=MOST_BUYS),
    ),
)
ROUND = Part(
    "round",
    Round,
    (
        # Within the game's own deals too, which the import checks with the game.
        Field("number", Kind.WHOLE, low=1, high=MOST_DEALS),
        Field("dealer", Kind.SEAT),
        Field("cutter", Kind.SEAT),
        Field("cut_exact", Kind.FLAG),
        Field("out", Kind.SEAT, empty=True),
        # The player out went down and out in one turn (R12.3); false in an older export.
        Field("out_in_one_turn", Kind.FLAG, later=True, default=False),
        Field("version", Kind.WHOLE, low=1),
        _time("recorded_at"),
        _time("corrected_at", empty=True),
        Field("scores", Kind.PARTS, part=SCORE_LINE),
    ),
)
PLAYER = Part(
    "player",
    Player,
    (
        Field("seat", Kind.INDEX, why=N_("seats are listed in order")),
        Field("name", Kind.TEXT, high=200),
    ),
)
CHANGE = Part(
    "history entry",
    RoundChange,
    (
        Field("round_number", Kind.WHOLE, low=1, high=MOST_DEALS),
        Field("action", Kind.CHOICE, choices=("corrected", "undone")),
        _time("changed_at"),
        Field("before", Kind.SNAPSHOT, part=SNAPSHOT),
        # null exactly for an undone round
        Field("after", Kind.SNAPSHOT, empty=True, part=SNAPSHOT),
    ),
)
RENAME = Part(
    "rename",
    Rename,
    (
        Field("seat", Kind.SEAT),
        Field("before", Kind.TEXT, high=NAME_MAX),
        Field("after", Kind.TEXT, high=NAME_MAX),
        _time("renamed_at"),
    ),
)
GAME = Part(
    "game",
    Game,
    (
        Field("id", Kind.GAME_ID),
        Field("rules", Kind.RULES),
        Field("first_dealer", Kind.SEAT),
        _time("created_at"),
        _time("finished_at", empty=True),
        Field("key_hash", Kind.HASH, empty=True),
        _time("archived_at", empty=True, later=True),
        Field("ended_after", Kind.WHOLE, empty=True, later=True, low=1, high=MOST_DEALS),
        _time("played_again_at", empty=True, later=True),
        Field("from_sheet", Kind.FLAG, later=True, default=False),
        Field("players", Kind.PARTS, part=PLAYER),
        Field("rounds", Kind.PARTS, part=ROUND),
        Field("history", Kind.PARTS, part=CHANGE),
        Field("renames", Kind.PARTS, part=RENAME, later=True, default=()),
    ),
)


def document(games: list[dict[str, Any]], **sections: list[Any]) -> dict[str, Any]:
    """The document holding these games, each written with `GAME.write`, and every registered
    section (empty where not given)."""
    written = {name: sections.get(name, []) for name in registered()}
    return {"format": FORMAT, "format_version": FORMAT_VERSION, "games": games, **written}


# The document around the games (and the sections registered, `document_fields`).
DOCUMENT_FIELDS = frozenset({"format", "format_version", "games"})


# --- Sections: what the features above the score book keep ---------------------------------


@dataclass
class Imported:
    """What an import has checked so far: the document's games by id, and each section checked
    before this one (in the order they were registered) as the rows it built."""

    games: dict[int, Game]
    sections: dict[str, list[Any]] = field(default_factory=dict)


@dataclass(frozen=True)
class Section:
    """A list in the document that a feature above the score book keeps (`nights`, `leagues`),
    registered by it at app start (`register_section`), so that games/ names no feature above it.

    `export()` writes every object of the section, in a fixed order, as plain JSON data. `check(
    checker, items, imported)` builds its rows, not stored, from the document's list (refusing
    the first problem with `checker.fail`, each at its place: `nights[0].tables[1].game`), a
    game named by its id in the document; the import stores them in the list's order.
    `clashes(rows)` names every row this database already holds (an id, a name: `held`), so that
    the import refuses them all at once and writes nothing. `since` is the format version that added
    the section: a document of that version or later holds it, an earlier one never does.
    `of_game(game_id)`, where a section's rows can belong to one game alone (a paper sheet's
    record), writes that game's for its page's download; a section without it (a night, a
    league: many games each) stays empty there.
    """

    name: str
    export: Callable[[], list[dict[str, Any]]]
    check: Callable[[Any, Any, Imported], list[Any]]
    clashes: Callable[[list[Any]], list[str]]
    since: int
    of_game: Callable[[int], list[dict[str, Any]]] | None = None


_SECTIONS = "scorekeeper.book_sections"


def register_section(app: Flask, section: Section) -> None:
    """Carry the section in this app's export and import, after those registered before it (a
    section may name rows of an earlier one: a league its nights)."""
    app.extensions.setdefault(_SECTIONS, {})[section.name] = section


def held(column: Any, values: Iterable[Any], *also: Any, shown: Any = None) -> list[Any]:
    """What this database already holds of `values` in `column` (an id, a name's key), as the
    column `shown` says it (the column itself unless given), in its order: a section's
    `clashes` names them. `also` are further conditions a row must meet (a merge still in
    force). No values, no question asked."""
    wanted = list(values)
    if not wanted:
        return []
    said = column if shown is None else shown
    statement = db.select(said).where(column.in_(wanted), *also).order_by(said)
    return list(db.session.scalars(statement))


def registered() -> dict[str, Section]:
    """The sections of the current app, in the order they were registered."""
    return current_app.extensions.get(_SECTIONS, {})


def document_fields() -> frozenset[str]:
    """The fields of a document of this format version, in the current app."""
    return DOCUMENT_FIELDS | frozenset(registered())


# What a profile's name meant in an export of format 1.
FORMAT_1_PROFILES: dict[str, dict[str, Any]] = {
    key: json.loads(text)
    for key, text in (
        (
            "liverpool",
            '{"version":1,"name":"Liverpool","players":{"min":4,"max":4},"packs":[{"up_to":8,"packs":2}],"jokers":{"fixed":3,"per_pack":0},"deals":[{"cards":10,"contract":[{"kind":"set","size":3},{"kind":"set","size":3}],"whole_hand":false},{"cards":10,"contract":[{"kind":"set","size":3},{"kind":"run","size":4}],"whole_hand":false},{"cards":10,"contract":[{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":false},{"cards":12,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"set","size":3}],"whole_hand":false},{"cards":12,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"run","size":4}],"whole_hand":false},{"cards":12,"contract":[{"kind":"set","size":3},{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":false},{"cards":12,"contract":[{"kind":"run","size":4},{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":true}],"exact_sizes":true,"values":{"A":15,"2":2,"3":3,"4":4,"5":5,"6":6,"7":7,"8":8,"9":9,"10":10,"J":10,"Q":10,"K":10,"JK":15},"wild_deuces":false,"naturals":{"set":1,"run":1,"wild_at_most_natural":false},"cut_bonus":-50,"layoff_on_opening_turn":false,"go_out_by_layoff":false,"joker_swap":"runs","swap_on_opening_turn":false,"freed_joker":"lay_off","buying":{"allowed":true,"per_deal":null,"per_game":null,"penalty_cards":1}}',
        ),
        (
            "contract",
            '{"version":1,"name":"Contract","players":{"min":4,"max":4},"packs":[{"up_to":8,"packs":2}],"jokers":{"fixed":3,"per_pack":0},"deals":[{"cards":10,"contract":[{"kind":"set","size":3},{"kind":"set","size":3}],"whole_hand":false},{"cards":10,"contract":[{"kind":"set","size":3},{"kind":"run","size":4}],"whole_hand":false},{"cards":10,"contract":[{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":false},{"cards":12,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"set","size":3}],"whole_hand":false},{"cards":12,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"run","size":4}],"whole_hand":false},{"cards":12,"contract":[{"kind":"set","size":3},{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":false},{"cards":12,"contract":[{"kind":"run","size":4},{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":true}],"exact_sizes":true,"values":{"A":15,"2":2,"3":3,"4":4,"5":5,"6":6,"7":7,"8":8,"9":9,"10":10,"J":10,"Q":10,"K":10,"JK":15},"wild_deuces":false,"naturals":{"set":1,"run":1,"wild_at_most_natural":false},"cut_bonus":0,"layoff_on_opening_turn":false,"go_out_by_layoff":false,"joker_swap":"runs","swap_on_opening_turn":false,"freed_joker":"lay_off","buying":{"allowed":true,"per_deal":null,"per_game":null,"penalty_cards":1}}',
        ),
        (
            "online",
            '{"version":1,"name":"Online","players":{"min":3,"max":8},"packs":[{"up_to":5,"packs":2},{"up_to":8,"packs":3}],"jokers":{"fixed":2,"per_pack":0},"deals":[{"cards":7,"contract":[{"kind":"set","size":3},{"kind":"set","size":3}],"whole_hand":false},{"cards":10,"contract":[{"kind":"set","size":3},{"kind":"run","size":4}],"whole_hand":false},{"cards":10,"contract":[{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":false},{"cards":10,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"set","size":3}],"whole_hand":false},{"cards":12,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"run","size":4}],"whole_hand":false},{"cards":12,"contract":[{"kind":"set","size":3},{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":false},{"cards":14,"contract":[{"kind":"run","size":4},{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":true}],"exact_sizes":false,"values":{"A":15,"2":2,"3":3,"4":4,"5":5,"6":6,"7":7,"8":8,"9":9,"10":10,"J":10,"Q":10,"K":10,"JK":25},"wild_deuces":false,"naturals":{"set":1,"run":1,"wild_at_most_natural":false},"cut_bonus":0,"layoff_on_opening_turn":true,"go_out_by_layoff":true,"joker_swap":"runs","swap_on_opening_turn":true,"freed_joker":"hand","buying":{"allowed":false,"per_deal":null,"per_game":null,"penalty_cards":1}}',
        ),
        (
            "family",
            '{"version":1,"name":"Family","players":{"min":3,"max":8},"packs":[{"up_to":4,"packs":2},{"up_to":8,"packs":3}],"jokers":{"fixed":0,"per_pack":2},"deals":[{"cards":10,"contract":[{"kind":"set","size":3},{"kind":"set","size":3}],"whole_hand":false},{"cards":10,"contract":[{"kind":"set","size":3},{"kind":"run","size":4}],"whole_hand":false},{"cards":10,"contract":[{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":false},{"cards":10,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"set","size":3}],"whole_hand":false},{"cards":12,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"run","size":4}],"whole_hand":false},{"cards":12,"contract":[{"kind":"set","size":3},{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":false},{"cards":12,"contract":[{"kind":"run","size":4},{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":true}],"exact_sizes":false,"values":{"A":15,"2":2,"3":3,"4":4,"5":5,"6":6,"7":7,"8":8,"9":9,"10":10,"J":10,"Q":10,"K":10,"JK":15},"wild_deuces":false,"naturals":{"set":2,"run":3,"wild_at_most_natural":false},"cut_bonus":-50,"layoff_on_opening_turn":true,"go_out_by_layoff":true,"joker_swap":"runs","swap_on_opening_turn":true,"freed_joker":"lay_off","buying":{"allowed":true,"per_deal":null,"per_game":null,"penalty_cards":1}}',
        ),
        (
            "shanghai",
            '{"version":1,"name":"Shanghai","players":{"min":3,"max":8},"packs":[{"up_to":4,"packs":2},{"up_to":6,"packs":3},{"up_to":8,"packs":4}],"jokers":{"fixed":0,"per_pack":1},"deals":[{"cards":11,"contract":[{"kind":"set","size":3},{"kind":"set","size":3}],"whole_hand":false},{"cards":11,"contract":[{"kind":"set","size":3},{"kind":"run","size":4}],"whole_hand":false},{"cards":11,"contract":[{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":false},{"cards":11,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"set","size":3}],"whole_hand":false},{"cards":11,"contract":[{"kind":"set","size":3},{"kind":"run","size":7}],"whole_hand":false},{"cards":11,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"run","size":5}],"whole_hand":false},{"cards":11,"contract":[{"kind":"run","size":4},{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":false},{"cards":11,"contract":[{"kind":"set","size":3},{"kind":"run","size":10}],"whole_hand":false},{"cards":11,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"run","size":5}],"whole_hand":false},{"cards":11,"contract":[{"kind":"run","size":5},{"kind":"run","size":5},{"kind":"run","size":5}],"whole_hand":false}],"exact_sizes":false,"values":{"A":15,"2":20,"3":5,"4":5,"5":5,"6":5,"7":5,"8":5,"9":5,"10":10,"J":10,"Q":10,"K":10,"JK":20},"wild_deuces":true,"naturals":{"set":1,"run":1,"wild_at_most_natural":true},"cut_bonus":0,"layoff_on_opening_turn":true,"go_out_by_layoff":true,"joker_swap":"any","swap_on_opening_turn":false,"freed_joker":"hand","buying":{"allowed":true,"per_deal":null,"per_game":null,"penalty_cards":1}}',
        ),
    )
}


def game_of_format_1(game: Any) -> Any:
    """A format 1 export's game with its profile's name turned into that profile's document,
    as the app of that format had it; `ValueError` for a name it never wrote. Anything else
    wrong with the game is left for the import's own checks to name."""
    if not isinstance(game, dict) or "profile" not in game or "rules" in game:
        return game
    profile = game["profile"]
    if not isinstance(profile, str) or profile not in FORMAT_1_PROFILES:
        raise ValueError(
            _(
                "must be one of %(profiles)s, not %(value)s",
                profiles=", ".join(FORMAT_1_PROFILES),
                value=repr(str(profile)[:40]),
            )
        )
    rest = {key: value for key, value in game.items() if key != "profile"}
    return {"rules": FORMAT_1_PROFILES[profile], **rest}


# --- Export --------------------------------------------------------------------------------


def export_games() -> dict[str, Any]:
    """Every game, oldest id first, as plain JSON data with a format name and version."""
    if db.engine.dialect.name == "postgresql" and not db.session().in_transaction():
        # One snapshot for all the statements below, while other processes go on writing.
        db.session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
    statement = (
        db.select(Game)
        .order_by(Game.id)
        .options(
            selectinload(Game.players),
            selectinload(Game.rounds).selectinload(Round.scores),
            selectinload(Game.history),
            selectinload(Game.renames),
        )
    )
    data = export_document(db.session.scalars(statement))
    for name, section in registered().items():
        data[name] = section.export()
    return data


def export_document(games: Iterable[Game]) -> dict[str, Any]:
    """These games (loaded whole) as an export document that `import` takes, its sections
    empty (`export_games` fills them)."""
    return document([GAME.write(game) for game in games])


def dumps(data: dict[str, Any]) -> str:
    """The document as text: sorted keys and fixed indentation, so equal data is equal text."""
    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


# --- A game's sheets to take away ----------------------------------------------------------

# A spreadsheet takes a cell starting with one of these for a formula (or, with a tab or a
# carriage return first, strips them and then does): OWASP's CSV injection list.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def ledger_csv(book: Book) -> str:
    """`Round,<names in seat order>`, a row per recorded round, then `Total`; plain integers.
    A last row says under which rules and of how many deals: `Rules,Shanghai,10 deals`.

    A sheet for people: its words in the request's language (`Kierros`, `Yhteensä` in
    Finnish). Every text cell is quoted and none is ever a formula (`safe_cell`); numbers are
    written bare, so a spreadsheet reads -20 as the number it is."""
    deals = book.last_round
    return _csv(
        [
            [_("Round"), *book.names],
            *(
                [played.number, *(line.score for line in played.scores)]
                for played in book.game.rounds
            ),
            [_("Total"), *book.totals],
            [_("Rules"), book.rules.name, ngettext("%(num)s deal", "%(num)s deals", deals)],
        ]
    )


# The detailed sheet's columns, said in the request's language as the sheet is written.
ROUNDS_HEADER = (
    _l("Round"),
    _l("Player"),
    _l("Dealer"),
    _l("Cutter"),
    _l("Went out"),
    _l("Cut bonus"),
    _l("Down and out in one turn"),
    _l("Cards left"),
    _l("Counted"),
    _l("Penalty"),
    _l("Score"),
    _l("Running total"),
    _l("Recorded date"),
    _l("Recorded time"),
)


def rounds_csv(book: Book) -> str:
    """The detailed sheet: a row per player and round, in round then seat order, with who
    dealt, cut and went out (a name, or "nobody" when the stock ran out), the player's cut
    bonus and bonus for going down and out in one turn (R12.3), the cards left (as written, empty for a hand the table counted or the player out),
    whether the table counted the hand itself, the penalty, the score, the running total and
    when the round was recorded (date and time on the serving machine's clock).

    Its headers and words in the request's language; written as the ledger is (`safe_cell`,
    numbers bare), so a name cannot become a formula."""
    names = book.names
    running = [0] * len(names)
    rows: list[list[object]] = [[str(header) for header in ROUNDS_HEADER]]
    said = {True: _("yes"), False: _("no")}
    for played in book.game.rounds:
        out = _("nobody") if played.out is None else names[played.out]
        out_bonus = RoundSnapshot.of_round(played).out_bonus
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
                    out_bonus[line.seat],
                    line.leftovers,
                    said[bool(line.counted)],
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
    (imported elsewhere, the game gets a key with `flask --app scorekeeper game-key`). Of the
    sections, only what belongs to this game alone comes with it (`Section.of_game`: its paper
    sheet's record, so the sheet is not imported twice there); its night and league stay on
    this machine.
    """
    document = export_document([game])
    document["games"][0]["key_hash"] = None
    for name, section in registered().items():
        if section.of_game is not None:
            document[name] = section.of_game(game.id)
    return document


def export_filename(game: Game, suffix: str) -> str:
    """`liverpool-game-12.csv`: the download's file name."""
    return f"liverpool-game-{game.id}.{suffix}"
