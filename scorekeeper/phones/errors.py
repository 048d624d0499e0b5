"""What a phone or the tablet is refused while hands come in by phone: each a score book error
with its HTTP status, so the pages and the JSON API answer them as they answer the score book's."""

from __future__ import annotations

from ..games.errors import Conflict, Missing, ScorebookError


class PhoneError(ScorebookError):
    """The root of the phones' refusals (400 unless a subclass says otherwise)."""


class NoSuchCode(Missing):
    """A code no open round has: wrong, closed or expired alike, so a guess learns nothing."""

    def __init__(self, code: str):
        shown = code if len(code) <= 12 else code[:12] + "…"
        super().__init__(
            f"no round is open under the code {shown!r}: check the code on the scorekeeper's "
            "tablet (it changes for every round)"
        )


class BadSeatToken(PhoneError):
    """A send without this seat's token, or with one released or of another code."""

    status = 403


class SeatTaken(Conflict):
    """A seat another phone holds: only the tablet can release it."""


class RoundClosed(Conflict):
    """The round's code was closed by the tablet, or the round is no longer the one to play."""


class RoundSaved(Conflict):
    """The round was saved in the ledger: no phone can change it any more."""
