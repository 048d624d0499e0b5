"""The phones' forms: the seat a phone takes, the hand it sends, and the tablet's buttons.

Each is a write-once form (`platform.writeonce`): a double tap, or a phone sending again once
its Wi-Fi is back, writes once.
"""

from __future__ import annotations

from flask import request
from wtforms import BooleanField, HiddenField, StringField
from wtforms.widgets import NumberInput

from ..games.forms import HandFields, RoundForm, WriteOnceForm, whole_number
from ..games.roundvalues import Hand


class SeatForm(WriteOnceForm):
    """The seat picker: each name is a button posting its seat number as `seat` (the button's
    own value, so no field of the form may carry that name)."""

    def seat_number(self) -> int | None:
        return whole_number(request.form.get("seat"))


class PhoneHandForm(HandFields, WriteOnceForm):
    """One player's hand, as a plain form a phone without its script sends: the hand
    (`HandFields`, worded for the player holding it), or "I went out"."""

    cards = StringField(
        "Cards left in my hand",
        render_kw={
            "autocomplete": "off",
            "spellcheck": "false",
            "autocapitalize": "characters",
            "class": "cards-input",
            "placeholder": "e.g. A K 7 JK",
        },
    )
    counted = BooleanField("Count points instead", render_kw={"class": "points-toggle"})
    points = StringField(
        "Points",
        widget=NumberInput(step=1, min=0),
        render_kw={"inputmode": "numeric", "autocomplete": "off", "class": "points-input"},
    )
    went_out = BooleanField("I went out", render_kw={"class": "out-toggle"})
    # The round the page was opened for: a phone left on an old round is told so.
    round_number = HiddenField()
    # What the phone's script says (`data-words`): why a hand's penalty cannot be counted, as the
    # round form says it, and how its send is going.
    live_words = {
        "not_card": RoundForm.live_words["not_card"],
        "over": RoundForm.live_words["over"],
        "sending": "Sending…",
        "waiting": "Not sent yet — will send when the Wi-Fi is back.",
    }

    def sent(self) -> Hand:
        """The hand as the phones' service takes it: as typed (`HandFields.hand`), or that the
        player went out."""
        return Hand("out") if self.went_out.data else self.hand()

    def for_round(self) -> int | None:
        return whole_number(self.round_number.data)


class TabletForm(WriteOnceForm):
    """A tablet's button on the collecting page (Release a seat, Close to phones)."""

    seat = HiddenField()

    def seat_number(self) -> int | None:
        return whole_number(self.seat.data)
