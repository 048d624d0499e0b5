"""The forms of the paper sheet page: the sheet (a file or pasted text) and its rules to preview,
then the sheet as read, posted again to import it. Only the second writes, so only it carries a
one-time token: a double tap on "Import" imports once."""

from __future__ import annotations

from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import HiddenField, SelectField, TextAreaField

from ..rules.ruleset import RuleSet
from ..rulesets import choice as rulechoice
from .forms import WriteOnceForm


def chosen_rules(value: str | None) -> RuleSet | None:
    """The rules a picker's value names (`liverpool`, `ruleset:3`), or None for no such choice."""
    chosen = rulechoice.offered(value)
    return chosen.rules if chosen is not None else None


class SheetForm(FlaskForm):
    """A sheet to preview: a CSV file, or its rows pasted (a range of spreadsheet cells pastes
    as tab-separated rows, which is read the same); the rules its games were played by (the
    presets, then the table's saved rule sets, as the new game page offers them)."""

    file = FileField("A CSV file", render_kw={"accept": ".csv,.txt,text/csv,text/plain"})
    text = TextAreaField(
        "Or paste its rows",
        render_kw={"rows": 8, "spellcheck": "false", "autocapitalize": "off"},
    )
    rules = SelectField("Rules the games were played by", default=rulechoice.default_choice())

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.rules.choices = [(choice.value, choice.label) for choice in rulechoice.choices()]


class ImportForm(WriteOnceForm):
    """The sheet as the preview read it, and its rules, to import: all of its games or none."""

    # Shown hidden: a textarea keeps the sheet's line breaks as they were.
    text = TextAreaField()
    rules = HiddenField()
