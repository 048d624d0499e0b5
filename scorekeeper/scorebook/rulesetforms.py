"""Forms of the saved rule sets' pages: a name (rename, or save a shared rule set), a confirm
(delete), and a rule set file to open. Each form that writes carries a one-time token
(`WriteOnceForm`), so a double tap renames, saves or deletes once."""

from __future__ import annotations

from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import StringField

from ..rules.ruleset import NAME_MAX
from .forms import WriteOnceForm

NAME_INPUT = {
    "maxlength": NAME_MAX,
    "autocomplete": "off",
    "autocapitalize": "words",
    "spellcheck": "false",
}


class NameForm(WriteOnceForm):
    """The name a saved rule set goes by ("Smith family"): checked by `rulesets.check_name`,
    whose refusal is shown beside the field with what was typed kept."""

    name = StringField("Name", render_kw=NAME_INPUT)

    def refuse(self, message: str) -> None:
        """Show the service's refusal of the name beside the field."""
        self.name.errors = [*self.name.errors, message]


class ConfirmForm(WriteOnceForm):
    """A confirming post (delete): only its CSRF and one-time tokens."""


class UploadForm(FlaskForm):
    """A rule set file (the JSON document, as the download writes it) to open. Reading it
    writes nothing, so it carries no one-time token."""

    file = FileField("Rule set file (.json)", render_kw={"accept": ".json,application/json"})
    problems: dict[str, str]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.problems = {}
