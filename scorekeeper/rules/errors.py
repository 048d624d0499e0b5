"""The referee's errors: one root, `RulesError`, with specific subclasses that quote the bad input.

Checks return a `Verdict`; only input that cannot be judged at all (an unknown card, a round
outside 1-7, more copies than the packs hold) raises.
"""


class RulesError(ValueError):
    """Input the referee cannot judge; the message says what is wrong in plain words."""


class CardError(RulesError):
    """A token that is not a card in the R1 notation."""

    def __init__(self, token: str, position: int, detail: str = ""):
        self.token = token
        self.position = position
        hint = detail or (
            "write a rank (A 2-10 J Q K) and a suit (♠ ♥ ♦ ♣ or S H D C), or JK for a joker"
        )
        super().__init__(f"'{token}' (card {position}) is not a card: {hint}")


class CopyLimitError(RulesError):
    """More copies of a card than the game's packs hold (R1)."""


class RoundError(RulesError):
    """A round number outside 1-7."""


class ProfileError(RulesError):
    """An unknown profile name."""


class SeatError(RulesError):
    """A seat, player count or player that does not fit the table."""


class SizeError(RulesError):
    """A hand or list larger than anything a real table can hold."""


class InputError(RulesError):
    """A question's field that is missing or of the wrong type."""
