"""The league pages' forms: set a league up (its name, its scoring and the points of each
place), change its scoring, and add a night to it. Each carries a one-time token (write-once)."""

from __future__ import annotations

import re

from flask_babel import lazy_gettext as _l
from wtforms import SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Optional

from ..games.forms import WriteOnceForm
from .models import DEFAULT_POINTS, NAME_MAX, NORMALISED, PLACES

_SEPARATORS = re.compile(r"[,;\s]+")


class ScoringForm(WriteOnceForm):
    """A league's scoring and the points of each place: a new league's, or a change of it."""

    scoring = SelectField(
        _l("Scoring"),
        choices=[
            SelectChoice(PLACES, _l("Points per place at each table")),
            SelectChoice(NORMALISED, _l("Totals normalised to each table")),
        ],
        default=PLACES,
    )
    points = StringField(
        _l("Points of 1st, 2nd, … (places only)"),
        default=", ".join(str(value) for value in DEFAULT_POINTS),
        validators=[Optional()],
        render_kw={"autocomplete": "off", "inputmode": "numeric"},
    )

    def points_given(self) -> list[object] | None:
        """The points typed, each a number where it reads as one (the service names the rest);
        None for a league normalised, or none typed."""
        if self.scoring.data != PLACES:
            return None
        parts = [part for part in _SEPARATORS.split(self.points.data or "") if part]
        if not parts:
            return None
        return [int(part) if part.isdigit() else part for part in parts]


class NewLeagueForm(ScoringForm):
    name = StringField(
        _l("Name"),
        render_kw={"autocomplete": "off", "maxlength": NAME_MAX, "autocapitalize": "words"},
    )


class AddNightForm(WriteOnceForm):
    night = SelectField(_l("Night"), coerce=int, choices=[])
