"""The rules-check page's form: one form, with the fields each question needs."""

from __future__ import annotations

from typing import Any

from flask_wtf import FlaskForm
from wtforms import BooleanField, IntegerField, SelectField, SelectMultipleField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import NumberRange, Optional
from wtforms.widgets import CheckboxInput, ListWidget

from .rules import CONTRACTS, PROFILES

MAX_SEATS = 8

CARD_FIELDS = {
    "meld": ("cards",),
    "opening": ("meld1", "meld2", "meld3"),
    "layoff": ("meld", "layoff_cards"),
    "swap": ("meld", "card"),
    "solve": ("hand",),
    "buy": (),
}


class MultiCheckboxField(SelectMultipleField):
    """Several seats at once, as big tap checkboxes."""

    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


def round_choices() -> list[SelectChoice]:
    return [SelectChoice(c.round, f"Round {c.round}: {c}") for c in CONTRACTS]


def _seat_choices(names: list[str]) -> list[SelectChoice]:
    return [SelectChoice(seat, f"{seat + 1}. {name}") for seat, name in enumerate(names)]


class RulesCheckForm(FlaskForm):
    """Every field a rules question may need; `to_data` picks the ones a question reads."""

    profile = SelectField(
        "Rules", choices=[SelectChoice(p.name, p.title) for p in PROFILES.values()]
    )
    round = SelectField("Round", coerce=int, choices=round_choices(), default=1)
    players = IntegerField("Players", validators=[Optional(), NumberRange(3, MAX_SEATS)], default=4)
    cards = StringField("Cards", render_kw={"class": "cards-input", "autocomplete": "off"})
    meld1 = StringField("Meld 1", render_kw={"class": "cards-input", "autocomplete": "off"})
    meld2 = StringField("Meld 2", render_kw={"class": "cards-input", "autocomplete": "off"})
    meld3 = StringField("Meld 3", render_kw={"class": "cards-input", "autocomplete": "off"})
    left = IntegerField(
        "Cards left in hand afterwards (optional)", validators=[Optional(), NumberRange(0, 40)]
    )
    meld = StringField(
        "Meld on the table", render_kw={"class": "cards-input", "autocomplete": "off"}
    )
    layoff_cards = StringField(
        "Cards to add", render_kw={"class": "cards-input", "autocomplete": "off"}
    )
    card = StringField(
        "Card that replaces the joker", render_kw={"class": "cards-input", "autocomplete": "off"}
    )
    hand = StringField(
        "Hand (after the draw)", render_kw={"class": "cards-input", "autocomplete": "off"}
    )
    opened_this_turn = BooleanField("I opened on this same turn")
    active = SelectField("Whose turn is it?", coerce=int, default=0)
    requests = MultiCheckboxField("Who asks to buy it?", coerce=int)
    last_buyer = SelectField("Who bought the previous discard?", coerce=int, default=-1)

    def __init__(self, *args: Any, names: list[str] | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.names = names or [f"Seat {n + 1}" for n in range(MAX_SEATS)]
        seats = _seat_choices(self.names)
        self.active.choices = seats
        self.requests.choices = seats
        self.last_buyer.choices = [SelectChoice(-1, "Nobody (first purchase)"), *seats]

    def to_data(self, question: str) -> dict[str, Any]:
        """The question's fields as the JSON API would receive them."""
        data: dict[str, Any] = {"profile": self.profile.data}
        if question != "buy":
            data["round"] = self.round.data
        if self.players.data is not None:
            data["players"] = self.players.data
        if question == "meld":
            data["cards"] = self.cards.data or ""
        elif question == "opening":
            data["melds"] = [
                f.data for f in (self.meld1, self.meld2, self.meld3) if (f.data or "").strip()
            ]
            data["left"] = self.left.data
        elif question in ("layoff", "swap"):
            data["meld"] = self.meld.data or ""
            data["opened_this_turn"] = bool(self.opened_this_turn.data)
            if question == "layoff":
                data["cards"] = self.layoff_cards.data or ""
                data["left"] = self.left.data
            else:
                data["card"] = self.card.data or ""
        elif question == "solve":
            data["hand"] = self.hand.data or ""
        elif question == "buy":
            data["active"] = self.active.data
            data["requests"] = list(self.requests.data or [])
            data["last_buyer"] = (
                None if self.last_buyer.data in (None, -1) else self.last_buyer.data
            )
        return data
