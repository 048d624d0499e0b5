"""The referee's errors: one root, `RulesError`, with specific subclasses that quote the bad input.

Checks return a `Verdict`; only input that cannot be judged at all (an unknown card, a round
the rules do not have, more copies than the packs hold) raises.
"""

from .words import Code, Message, Said, message, words


class RulesError(ValueError):
    """Input the referee cannot judge; the message says what is wrong in plain words.

    Given a coded message (words.py), or a `Said` that knows its message, the error keeps it
    as `said` and its text is the message's words; given other text, `said` is None."""

    def __init__(self, said: Message | str = "", *args: object) -> None:
        if isinstance(said, Said):
            said = said.said
        self.said = said if isinstance(said, Message) else None
        super().__init__(words(said) if isinstance(said, Message) else said, *args)

    @property
    def text(self) -> str:
        """The error's words, as a `Said` where they are coded: text that a page or another
        error can say again in its reader's language."""
        return Said(self.said) if self.said is not None else str(self)


class Bad(Code):
    """What makes a card's text no card (R1)."""

    NOT_A_CARD = "card.not_a_card"
    HINT = "card.hint"


class CardError(RulesError):
    """A token that is not a card in the R1 notation; `detail` is the coded message saying
    what is wrong with it (by default, how a card is written)."""

    def __init__(self, token: str, position: int, detail: Message | None = None):
        self.token = token
        self.position = position
        hint = detail or message(Bad.HINT)
        super().__init__(message(Bad.NOT_A_CARD, token=token, position=position, hint=hint))


class CopyLimitError(RulesError):
    """More copies of a card than the game's packs hold (R1)."""


class RoundError(RulesError):
    """A round (deal) number the game's rules do not have."""


class RuleSetError(RulesError):
    """A rule set that cannot be used: an unknown preset, or a document that is not playable (R11).

    `problems` names every problem at once, keyed by its place in the document (`deals[4].cards`).
    """

    def __init__(self, message: Message | str, problems: dict[str, str] | None = None):
        super().__init__(message)
        # Each problem's words (a `Said` where the engine wrote them, so a page says them again).
        self.problems: dict[str, str] = problems or {"rules": str(self)}


class SeatError(RulesError):
    """A seat, player count or player that does not fit the table."""


class SizeError(RulesError):
    """A hand or list larger than anything a real table can hold."""


class Undecided(RulesError):
    """A question with too many ways to try for the referee to settle within its budget of
    steps: it says so, naming the hand, rather than give a verdict it has not checked."""


class InputError(RulesError):
    """A question's field that is missing or of the wrong type."""
