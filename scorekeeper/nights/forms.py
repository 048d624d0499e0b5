"""The night pages' forms: set a night up, check players in (the season's names as chips, new
names typed), pin, draw and seat a late arrival. Each carries a one-time token (write-once)."""

from __future__ import annotations

import re
from datetime import date

from flask_babel import lazy_gettext as _l
from wtforms import DateField, SelectField, StringField
from wtforms.validators import InputRequired, Optional

from ..games.forms import WriteOnceForm
from ..games.models import NAME_MAX
from ..rulesets import choice as rulechoice

# New names typed in one field: one a line, or separated by commas.
_SEPARATORS = re.compile(r"[,\n;]+")


class NewNightForm(WriteOnceForm):
    """The night's date and its rules (a preset or a saved rule set, as the new game page
    offers them)."""

    held_on = DateField(_l("Date"), default=date.today, validators=[InputRequired()])
    rules = SelectField(_l("Rules"), default=rulechoice.default_choice())

    def __init__(self, *args, choices: list[rulechoice.Chosen], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.choices = {choice.value: choice for choice in choices}
        self.rules.choices = [(choice.value, choice.label) for choice in choices]

    def choice(self) -> rulechoice.Chosen:
        return self.choices.get(self.rules.data) or self.choices[rulechoice.default_choice()]


class CheckInForm(WriteOnceForm):
    """The season's players ticked (`known`, chips) and new names typed (`new_names`)."""

    new_names = StringField(
        _l("New names, separated by commas"),
        validators=[Optional()],
        render_kw={"autocomplete": "off", "autocapitalize": "words"},
    )

    def names(self, known: list[str]) -> list[str]:
        typed = [part.strip() for part in _SEPARATORS.split(self.new_names.data or "")]
        return [*known, *(part for part in typed if part)]


class LateForm(WriteOnceForm):
    name = StringField(
        _l("Name"),
        validators=[InputRequired(_l("Type the name of the player who arrived."))],
        render_kw={"autocomplete": "off", "maxlength": NAME_MAX, "autocapitalize": "words"},
    )
