"""The score book's own errors: the pages and the API each translate them for their reader.

Their words are said in the request's language (Flask-Babel's `gettext`, as `_` where a text is
made, so `make translations` finds it); made outside a request (a command), in the default one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from flask_babel import gettext, ngettext

if TYPE_CHECKING:
    from .models import Game, Round


# The name gettext's extraction looks for: the request's language (English in a command).
_ = gettext


class ScorebookError(Exception):
    """Input or a request the score book refuses; `problems` says where (a seat, the seats whose
    hands together hold too many copies of a card, or None)."""

    status = 400

    def __init__(
        self,
        message: str,
        *,
        problems: Mapping[int | tuple[int, ...] | None, str] | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.problems: dict[int | tuple[int, ...] | None, str] = (
            dict(problems) if problems else {None: message}
        )


class RulesRefused(ScorebookError):
    """A rule set that cannot be used (R11); `rule_problems` names every problem by where it is
    in the document, prefixed `rules.` (`rules.deals[4].cards`; `rules` for the whole of it)."""

    def __init__(self, message: str, problems: Mapping[str, str]):
        super().__init__(message)
        self.rule_problems = {rules_path(path): text for path, text in problems.items()}

    @classmethod
    def together(cls, refusals: list[RulesRefused]) -> RulesRefused:
        """One refusal naming every problem of all of them (the first one's message)."""
        joined = cls(refusals[0].message, {})
        for refusal in refusals:
            joined.rule_problems.update(refusal.rule_problems)
        return joined


class FieldRefused(RulesRefused):
    """A field beside the rules themselves that cannot be used, named under that field (not
    under `rules.`): a saved rule set's name, the saved rule set a game is to start from."""

    def __init__(self, message: str, field: str):
        super().__init__(message, {})
        self.rule_problems = {field: message}


class NameRefused(FieldRefused):
    """A saved rule set's name that cannot be used (empty, too long, a preset's, unprintable);
    named under `name`, the field a request or a form gives it in."""

    def __init__(self, message: str):
        super().__init__(message, "name")


class RoundRefused(ScorebookError):
    """A round the API cannot take; `places` names every problem by where the request gives it
    (`out`, `cut_exact`, `leftovers.Bob`, `points.Cat`; `round` for the round as a whole)."""

    def __init__(self, message: str, places: Mapping[str, str]):
        super().__init__(message)
        self.places = dict(places)


class HandRefused(ScorebookError):
    """A hand that cannot be (`roundvalues.check_hand`): `code` says which check refused it,
    the same on every path a hand is typed on; the message says it in words."""

    NOT_CARD = "not_card"  # a card that cannot be read (R1)
    NO_CARDS = "no_cards"  # a hand judged alone that holds no card (R10)
    OVER = "over"  # more copies of a card than the game's packs hold (R1)
    POINTS = "points"  # points a hand cannot count (R10)
    KIND = "kind"  # neither cards, nor points, nor out

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


def rules_path(path: str) -> str:
    """Where a problem is, seen from the request or the export that holds the rules."""
    return "rules" if path in ("", "rules") else f"rules.{path}"


class Conflict(ScorebookError):
    """The request does not fit the game's state; `current` is the round concerned, as it is now."""

    status = 409

    def __init__(self, message: str, *, current: Round | None = None):
        super().__init__(message)
        self.current = current


class Missing(ScorebookError):
    """No such round in this game."""

    status = 404


class NoSuchGame(Missing):
    """No game with this id."""

    def __init__(self, game_id: int):
        super().__init__(_("game %(game)s does not exist", game=game_id))
        self.game_id = game_id


class NoSuchRuleSet(Missing):
    """No saved rule set with this id (or, from the command line, this name)."""

    def __init__(self, ruleset: int | str):
        super().__init__(
            _("no saved rule set is named %(name)s", name=repr(ruleset))
            if isinstance(ruleset, str)
            else _("saved rule set %(ruleset)s does not exist", ruleset=ruleset)
        )


class NotEditor(ScorebookError):
    """A change asked for by a device without the game's edit key: 401 with no key, 403 with
    a wrong one or for a game that has none yet; `game` is the game, for the spectator's page."""

    def __init__(self, message: str, status: int, game: Game):
        super().__init__(message)
        self.status = status
        self.game = game


class ImportRefused(ValueError):
    """A document the import will not take; nothing was stored."""


class Refused(ScorebookError):
    """A request a club's night or league cannot take: `code` says which check refused it,
    `fields` names every problem by where the request gives it (`players[2]`, `points[2]`)."""

    def __init__(
        self, message: str, code: str, fields: Mapping[str, str] | None = None, status: int = 400
    ):
        super().__init__(message)
        self.code = code
        self.fields = dict(fields or {})
        self.status = status

    @classmethod
    def every(cls, problems: Mapping[str, str], code: str):
        """Every problem of a request in one refusal (400)."""
        said = ngettext(
            "%(num)s problem: %(problems)s",
            "%(num)s problems: %(problems)s",
            len(problems),
            problems="; ".join(problems.values()),
        )
        return cls(said, code, problems)
