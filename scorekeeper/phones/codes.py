"""Round codes: four characters a player reads off the tablet and types on a phone.

Only letters and digits that cannot be taken for another are used (no I/1/L, O/0/Q, S/5, Z/2,
B/8, G/6, U/V), in capitals; a code is read case-insensitively, with spaces and dashes ignored.
Twenty characters, four of them: 160,000 codes, against at most `RATELIMIT_JOINS` tries a
minute from one address.
"""

from __future__ import annotations

import re
import secrets

ALPHABET = "ACDEFHJKMNPRTWXY3479"
LENGTH = 4
_IGNORED = re.compile(r"[\s\-_.]+")


def new_code() -> str:
    """A random code (the caller makes sure no open round holds it)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def normal(code: str) -> str | None:
    """The code as stored (`acde` and `A-C D E` read `ACDE`), or None for what cannot be one."""
    written = _IGNORED.sub("", code or "").upper()
    if len(written) != LENGTH or any(char not in ALPHABET for char in written):
        return None
    return written
