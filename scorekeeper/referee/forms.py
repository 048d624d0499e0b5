"""The rules-check page's form: every field a rules question may need."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from markupsafe import Markup, escape
from wtforms import (
    BooleanField,
    IntegerField,
    SelectField,
    SelectMultipleField,
    StringField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import NumberRange, Optional
from wtforms.widgets import CheckboxInput, ListWidget, html_params

from ..games.forms import option
from ..rules.ruleset import FEWEST_PLAYERS, MOST_PLAYERS, PRESETS, RuleSet
from ..rules.seating import contract_of

# The rules choice that means "the rules of the game the page was opened from".
GAME_RULES = "game"
CARDS_INPUT = {"class": "cards-input", "autocomplete": "off"}
# The most buys a seat's count may say: more than any limit a rule set may set (R11: 1-20).
MOST_BUYS = 99


class SeatList(ListWidget):
    """Seat checkboxes, one `<li>` a seat of the table, each marked with its seat number."""

    def __call__(self, field: Any, **kwargs: Any) -> Markup:
        kwargs.setdefault("id", field.id)
        items = [
            seat_item(field, subfield.data, subfield.label.text, subfield.checked)
            for subfield in field
        ]
        return Markup(f"<ul {html_params(**kwargs)}>{''.join(items)}</ul>")


def seat_item(field: Any, seat: int | str, label: str, checked: bool = False) -> Markup:
    """One seat's checkbox of a seat list; `seat_item(field, "__seat__", "Seat __seat__")` is
    the pattern the page's script makes a seat's item from when the table grows."""
    box = html_params(
        id=f"{field.id}-{seat}", name=field.name, type="checkbox", value=seat, checked=checked
    )
    return Markup(
        f'<li data-seat="{seat}"><input {box}> '
        f'<label for="{field.id}-{seat}">{escape(label)}</label></li>'
    )


class MultiCheckboxField(SelectMultipleField):
    """Several seats at once, as big tap checkboxes."""

    widget = SeatList()
    option_widget = CheckboxInput()


def round_choices(rules: RuleSet) -> list[SelectChoice]:
    """One choice a deal of the rules: `Round 8: 1 set of 3 + 1 run of 10`."""
    return [
        option(n, _("Round %(number)s: %(contract)s", number=n, contract=contract_of(n, rules)))
        for n in rules.deal_numbers
    ]


def rules_choices(
    rules: RuleSet, from_game: bool, offered: list[tuple[str, str]] = ()
) -> list[SelectChoice]:
    """The presets and then the other choices `offered` (value and label: a shared rule set,
    the table's saved ones, most recent first), or only the game's own rules when the page was
    opened from a game."""
    if from_game:
        return [option(GAME_RULES, _("%(rules)s (this game's rules)", rules=rules.label))]
    presets = [option(key, preset.label) for key, preset in PRESETS.items()]
    return [*presets, *(option(value, label) for value, label in offered)]


def seat_choices(seats: list[str]) -> list[SelectChoice]:
    """The table's seats numbered from 1 clockwise, labelled by name: no seat beyond it."""
    return [option(n, label, {"data-seat": n}) for n, label in enumerate(seats, start=1)]


class RulesCheckForm(FlaskForm):
    """Every field a rules question may need; each question reads its own (`Question.to_data`)."""

    most_buys = MOST_BUYS

    # The page's context reads the choice (`views._context`); a stale one is not an error.
    rules = SelectField(_l("Rules"), validate_choice=False)
    round = SelectField(_l("Round"), coerce=int, default=1)
    # The rules' own limits are the engine's to check (`RuleSet.check_players`).
    players = IntegerField(
        _l("Players"), validators=[Optional(), NumberRange(FEWEST_PLAYERS, MOST_PLAYERS)], default=4
    )
    cards = StringField(_l("Cards"), render_kw=CARDS_INPUT)
    # One field a meld, for the largest contract a rule set may have (R11: five).
    meld1 = StringField(_l("Meld 1"), render_kw=CARDS_INPUT)
    meld2 = StringField(_l("Meld 2"), render_kw=CARDS_INPUT)
    meld3 = StringField(_l("Meld 3"), render_kw=CARDS_INPUT)
    meld4 = StringField(_l("Meld 4"), render_kw=CARDS_INPUT)
    meld5 = StringField(_l("Meld 5"), render_kw=CARDS_INPUT)
    left = IntegerField(
        _l("Number of cards left in hand afterwards (optional)"),
        validators=[Optional(), NumberRange(0, 40)],
    )
    meld = StringField(_l("Meld on the table"), render_kw=CARDS_INPUT)
    layoff_cards = StringField(_l("Cards to add"), render_kw=CARDS_INPUT)
    card = StringField(_l("Card that replaces the joker"), render_kw=CARDS_INPUT)
    hand = StringField(_l("Hand (after the draw)"), render_kw=CARDS_INPUT)
    opened_this_turn = BooleanField(_l("I opened on this same turn"))
    gone_down = BooleanField(_l("I have gone down already this deal"))
    discard = StringField(_l("Card to discard"), render_kw=CARDS_INPUT)
    # Seats are numbered from 1; the engine's answer is checked against the players by
    # `questions.buy`, which names a seat that does not exist.
    active = SelectField(_l("Whose turn is it?"), coerce=int, default=1, validate_choice=False)
    requests = MultiCheckboxField(_l("Who asks to buy it?"), coerce=int, validate_choice=False)
    last_buyer = SelectField(
        _l("Who bought the previous discard?"), coerce=int, default=0, validate_choice=False
    )
    down = MultiCheckboxField(_l("Who has gone down this deal?"), coerce=int, validate_choice=False)

    def __init__(
        self,
        *args: Any,
        rules: RuleSet,
        from_game: bool = False,
        offered: list[tuple[str, str]] = (),
        seats: list[str] | None = None,
        players: int = 4,
        **kwargs: Any,
    ):
        super().__init__(*args, **kwargs)
        self.rules.choices = rules_choices(rules, from_game, offered)
        self.round.choices = round_choices(rules)
        choices = seat_choices(seats or [_("Seat %(seat)s", seat=n + 1) for n in range(players)])
        self.active.choices = choices
        self.requests.choices = choices
        self.down.choices = choices
        self.last_buyer.choices = [option(0, _("Nobody (first purchase)")), *choices]


def buys_field(what: str, seat: int) -> str:
    """The form field for a seat's buys so far this `deal` or this `game` (seats from 1)."""
    return f"{what}_buys{seat}"


# Each seat's buys so far, for the rules' limits (R11); the page shows them where the rules limit.
BUYS_FIELDS = tuple(
    buys_field(what, seat) for what in ("deal", "game") for seat in range(1, MOST_PLAYERS + 1)
)
for _name in BUYS_FIELDS:
    setattr(
        RulesCheckForm,
        _name,
        IntegerField(
            _l("This deal") if _name.startswith("deal") else _l("This game"),
            validators=[Optional(), NumberRange(0, MOST_BUYS)],
        ),
    )
