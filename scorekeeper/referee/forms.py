"""The rules-check page's form: every field a rules question may need."""

from __future__ import annotations

from typing import Any

from flask_wtf import FlaskForm
from markupsafe import Markup
from wtforms import BooleanField, IntegerField, SelectField, SelectMultipleField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import NumberRange, Optional
from wtforms.widgets import CheckboxInput, ListWidget, html_params

from ..rules import CONTRACTS, PROFILES
from ..scorebook.forms import MAX_SEATS, option


class SeatList(ListWidget):
    """Seat checkboxes, each `<li>` marked with its seat and hidden beyond the table's players."""

    def __call__(self, field: Any, **kwargs: Any) -> Markup:
        kwargs.setdefault("id", field.id)
        html = [f"<ul {html_params(**kwargs)}>"]
        for subfield in field:
            seat = int(subfield.data)
            hidden = " hidden" if seat > field.players else ""
            html.append(f'<li data-seat="{seat}"{hidden}>{subfield()} {subfield.label}</li>')
        html.append("</ul>")
        return Markup("".join(html))


class MultiCheckboxField(SelectMultipleField):
    """Several seats at once, as big tap checkboxes."""

    widget = SeatList()
    option_widget = CheckboxInput()
    players = MAX_SEATS


def round_choices() -> list[SelectChoice]:
    return [option(c.round, f"Round {c.round}: {c}") for c in CONTRACTS]


def seat_choices(seats: list[str], players: int) -> list[SelectChoice]:
    """Seats numbered from 1 clockwise, labelled by name; those beyond the table are hidden."""
    return [
        option(n, label, {"hidden": True, "disabled": True} if n > players else {"data-seat": n})
        for n, label in enumerate(seats, start=1)
    ]


class RulesCheckForm(FlaskForm):
    """Every field a rules question may need; each question reads its own (`Question.to_data`)."""

    profile = SelectField("Rules", choices=[option(p.name, p.title) for p in PROFILES.values()])
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
    # Seats are numbered from 1; the engine's answer is checked against the players by
    # `questions.buy`, which names a seat that does not exist.
    active = SelectField("Whose turn is it?", coerce=int, default=1, validate_choice=False)
    requests = MultiCheckboxField("Who asks to buy it?", coerce=int, validate_choice=False)
    last_buyer = SelectField(
        "Who bought the previous discard?", coerce=int, default=0, validate_choice=False
    )

    def __init__(self, *args: Any, seats: list[str] | None = None, players: int = 4, **kwargs: Any):
        super().__init__(*args, **kwargs)
        seats = seats or [f"Seat {n + 1}" for n in range(MAX_SEATS)]
        choices = seat_choices(seats, players)
        self.active.choices = choices
        self.requests.choices = choices
        self.requests.players = players
        self.last_buyer.choices = [option(0, "Nobody (first purchase)"), *choices]
