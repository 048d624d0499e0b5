"""R11: every number a table may change comes from the game's rule set. This grep fails on the
fixed rules the app had before rule sets (seven rounds, 3 to 8 players, one joker value) anywhere
in the code, the templates or the scripts, naming every file:line, so none is left behind.

The presets (`scorekeeper/rules/ruleset/__init__.py`), where `liverpool`'s seven deals are written
once as data, are scanned like the rest. Not scanned: the migrations, which keep the schema's
history as it was (the old CHECK constraints included). ALLOWED lists the lines where such a number is not a rule, each with its reason.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("scorekeeper", "templates", "static")
NOT_SCANNED: set[str] = set()
TEXT = {".py", ".html", ".js", ".css", ".txt", ".svg", ".json"}

# (pattern, what it is and where the number comes from instead)
FIXED = [
    (r"\bLAST_ROUND\b", "the last round as a constant: rules.last_deal / book.last_round"),
    (r"\bROUNDS\b", "the rounds as a constant: rules.deal_numbers"),
    (r"\bCONTRACTS\b", "the seven contracts as a constant: rules.deal(n) / contract(n, rules)"),
    (r"(?i)\brounds? 1 ?(?:to|-|–|—) ?7\b", "rounds 1 to 7: 1 to rules.last_deal"),
    (r"(?<![\w.:/-])1 ?[-–—] ?7(?![\w.:/-])", "1–7: the rule set's deals"),
    (r"(?<![\w.:/-])3 ?(?:[-–—]|to) ?8(?![\w.:/-])", "3–8 players: rules.players_text()"),
    (
        r"(?i)\bBETWEEN 1 AND 7\b",
        "a CHECK on seven rounds: 1 to R11's most deals, 12 (ruleset.MOST_DEALS)",
    ),
    (r"\bjoker_penalty\b", "the joker's value by its older name: rules.values['JK']"),
    (
        r"\b(?:ACE|FACE_CARD|JOKER|LOWEST)_PENALTY\b",
        "a card value outside the rule set: rules.card_value / rules.values",
    ),
    (
        r"[<>]=?\s*8\b(?!\.\d)",
        "a check against 8 players or seats: rules.max_players (in a CHECK: R11's most, 8, "
        "from ruleset.MOST_PLAYERS)",
    ),
    (r"(?i)\b\w*(?:round|deal)\w*\s*[!=]==?\s*7\b", "round 7 as the last: deal.whole_hand"),
    (r"\brange\(1,\s*8\)", "rounds 1 to 7 as a range: rules.deal_numbers"),
    (r"\brange\(3,\s*9\)", "3 to 8 players as a range: rules.table_sizes"),
]
PATTERNS = [(re.compile(pattern), why) for pattern, why in FIXED]

# (file, a piece of the line, why the number there is not one of a table's rules)
ALLOWED = [
    (
        "scorekeeper/rules/ruleset/values.py",
        "SET_SIZES = range(3, 9)",
        "R11's bound on a set's size (3 to 8 cards), which every rule set shares",
    ),
    (
        "scorekeeper/rules/ruleset/__init__.py",
        "`Shanghai · 10 deals · 3–8 players · deuces wild`",
        "an example of the summary line in its docstring: shanghai's own players",
    ),
    (
        "scorekeeper/rules/ruleset/words.py",
        "`Shanghai · 10 deals · 3–8 players · deuces wild · buying: no limit`",
        "the same example in the words' docstring",
    ),
    (
        "scorekeeper/rules/ruleset/values.py",
        "`exactly 4 players`, `3 to 8 players`",
        "an example of players_text() in its docstring",
    ),
]


def scanned_files() -> list[Path]:
    files = []
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*")):
            relative = path.relative_to(ROOT).as_posix()
            if (
                path.is_file()
                and path.suffix in TEXT
                and relative not in NOT_SCANNED
                and "__pycache__" not in path.parts
                and "migrations" not in path.parts
            ):
                files.append(path)
    return files


def allowed(relative: str, line: str) -> bool:
    return any(relative == path and piece in line for path, piece, _ in ALLOWED)


def offending() -> list[str]:
    found = []
    for path in scanned_files():
        relative = path.relative_to(ROOT).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if allowed(relative, line):
                continue
            for pattern, why in PATTERNS:
                match = pattern.search(line)
                if match:
                    found.append(f"{relative}:{number}: {match.group(0)!r}: {why}")
    return found


def test_no_fixed_rule_is_left_outside_the_rule_set():
    found = offending()
    if found:
        pytest.fail(f"{len(found)} fixed rules left (file:line):\n" + "\n".join(found), False)


@pytest.mark.parametrize(
    "line",
    [
        "from ..rules import LAST_ROUND",
        "CONTRACTS = tuple(contract(n) for n in ROUNDS)",
        '"""The contract of a round 1-7 (R3)."""',
        "<td>Cards dealt, rounds 1–7</td>",
        "Online (3-8 players) deals",
        'raise SeatError("3 to 8 players")',
        'CheckConstraint("number BETWEEN 1 AND 7")',
        '"joker_penalty": rules.joker_penalty,',
        "highest = max(ACE_PENALTY, FACE_CARD_PENALTY)",
        "if not went_out and points < LOWEST_PENALTY:",
        'CheckConstraint("seat >= 0 AND seat < 8")',
        "if (count === null || count < 3 || count > 8) return;",
        "if round_number == 7:",
        "for number in range(1, 8):",
    ],
)
def test_the_grep_catches_each_fixed_rule(line):
    assert any(pattern.search(line) for pattern, _ in PATTERNS), line


@pytest.mark.parametrize(
    "line",
    [
        "var MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;",
        'placeholder="e.g. A K 7 JK"',
        "width: 18px; margin: 0 8px;",
        "version 1.7.2",
        "grid-template-columns: repeat(3, 8rem);",
        "f'seat < {MOST_PLAYERS}'",
        "Round {{ book.next_round }} of {{ book.last_round }}",
    ],
)
def test_the_grep_leaves_numbers_that_are_not_rules(line):
    assert not any(pattern.search(line) for pattern, _ in PATTERNS), line


def test_every_allowed_line_is_still_there():
    """An allowance whose line has gone would excuse the next fixed rule written there."""
    texts = {
        path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
        for path in scanned_files()
    }
    stale = [(path, piece) for path, piece, _ in ALLOWED if piece not in texts.get(path, "")]
    assert stale == []
