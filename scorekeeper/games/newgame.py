"""The new game page's request, read once: the names and first dealer (`NewGameForm`), the
rules picked and the editor filled from them (`RuleSetForm`), what a post means for both
(`rulesets.choice`), and the start itself, with the rules saved in the same write when asked.

Nothing typed is thrown away: a refused start shows every name, seat and rule as it was posted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask import request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

from ..platform.database import db
from ..rules import RuleSet
from ..rules.verdict import sentence as capitalised
from ..rulesets import choice as rulechoice
from ..rulesets import service as rulesets
from ..rulesets.forms import RuleSetForm
from . import errors, service
from .forms import NewGameForm
from .models import Game, Player


@dataclass
class NewGame:
    """One request to the new game page: its forms and what they decided."""

    form: NewGameForm
    editor: RuleSetForm
    # The rules the game would start with: None until the post is read, or while refused.
    rules: RuleSet | None = None
    # The editor was changed by an add or remove button: shown again, nothing written.
    pressed: bool = False
    # Whether the editor is shown open: changed, with problems, or after a button.
    open: bool = False
    documents: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_request(cls) -> NewGame:
        posted = request.values.get("shared_code")
        if posted:
            shared = rulechoice.shared_or_none(posted)
        else:
            shared = rulechoice.link_code(request.args.get("rules", ""))
        choices = rulechoice.choices(shared)
        form = NewGameForm(choices=choices)
        documents = {choice.value: choice.rules.every_setting() for choice in choices}
        if request.method != "POST":
            form.shared_code.data = shared.code if shared is not None else ""
            form.rules.data = _preselected(form, shared)
            form.filled_from.data = form.rules.data
            editor = RuleSetForm.of(form.choice().rules)
            editor.rule_set()  # its notes
            return cls(form, editor, documents=documents)
        editor, pressed = RuleSetForm.edited(request.form)
        setup = cls(form, editor, pressed=pressed, open=pressed, documents=documents)
        if pressed:
            editor.rule_set()  # its notes and problems, as they stand after the button
        else:
            setup.read_rules()
        return setup

    def read_rules(self) -> None:
        """Decide the game's rules from the picker and the editor (see `rulechoice`)."""
        chosen = self.form.choice()
        if "players-min" not in request.form:
            # Posted without the editor (a form kept from before it, a script): the rules picked.
            self.editor = RuleSetForm.of(chosen.rules)
            self.rules = chosen.rules
            return
        filled = self.form.choices.get(self.form.filled_from.data or "")
        if filled is not None and filled.value != chosen.value:
            edited = rulechoice.parse_or_none(self.editor.document())
            untouched = edited is not None and edited == filled.rules
            self.editor = RuleSetForm.of(chosen.rules)
            self.editor.rule_set()  # its notes
            self.form.filled_from.data = chosen.value
            if not untouched:
                self.open = True
                self.form.form_errors.append(
                    _(
                        "The rules picked are now %(chosen)s: the editor shows them in place of "
                        "the changed %(filled)s rules. Check them, then start the game.",
                        chosen=chosen.rules.label,
                        filled=filled.rules.label,
                    )
                )
                return
            self.rules = chosen.rules
            return
        edited = self.editor.rule_set()
        if edited is None:
            self.open = True
            count = len(self.editor.problems)
            self.form.form_errors.append(
                ngettext(
                    "The rules have %(num)s problem to fix first: each is named beside its rule "
                    "below.",
                    "The rules have %(num)s problems to fix first: each is named beside its rule "
                    "below.",
                    count,
                )
            )
            return
        self.rules = rulechoice.game_rules(edited, chosen)
        self.open = self.rules != chosen.rules

    def ready(self) -> bool:
        """Whether the post can start a game: every check run, so every problem shows at once."""
        if request.method != "POST" or self.pressed:
            return False
        valid = self.form.validate()
        if self.rules is None:
            return False
        seated = self.form.seat_for(self.rules)
        named = self._save_name_ok()
        return valid and seated and named

    @property
    def saved_as(self) -> str | None:
        """The saved rule set the game would play unchanged: then nothing is offered to save,
        and a save asked for anyway (a draft, a page picked without its script) is not one."""
        served = self.rules if request.method == "POST" else self.form.choice().rules
        return rulechoice.saved_as(served, self.form.choice())

    @property
    def saves_rules(self) -> bool:
        """Whether the start also saves the rules as the table's (asked, and not saved yet)."""
        return bool(self.form.save_rules.data) and self.saved_as is None

    def save_name(self) -> str:
        """The name the rules are saved under: the one typed, else the rules' own."""
        assert self.rules is not None
        return " ".join((self.form.save_name.data or self.rules.name).split())

    def _save_name_ok(self) -> bool:
        """A name the table's rules can be saved under (checked before anything is written)."""
        if not self.saves_rules:
            return True
        try:
            rulesets.check_name(self.save_name())
        except errors.ScorebookError as error:
            self.form.save_name.errors = [*self.form.save_name.errors, sentence(error.message)]
            return False
        return True

    def refused(self, error: errors.ScorebookError) -> None:
        """Say why the start was refused; a saved rule set's name taken goes beside its field."""
        if isinstance(error, errors.Conflict | errors.NameRefused) and self.saves_rules:
            self.form.save_name.errors = [*self.form.save_name.errors, sentence(error.message)]
        else:
            self.form.form_errors.append(sentence(error.message))

    @property
    def summary(self) -> str:
        rules = self.rules or rulechoice.parse_or_none(self.editor.document())
        return rules.summary() if rules is not None else ""

    @property
    def check_url(self) -> str:
        return url_for("ruleeditor.check")


def sentence(message: str) -> str:
    """A refusal as a sentence of its own, with its full stop."""
    message = capitalised(message.strip())
    return message if message.endswith(".") else message + "."


def _preselected(form: NewGameForm, shared: rulechoice.Chosen | None) -> str:
    """The choice the address names: the shared rule set it opened, `?ruleset=<id>`, or
    `?rules=` a preset's key or `ruleset:<id>`; else the default (an unknown one is ignored)."""
    if shared is not None:
        return rulechoice.SHARED
    for value in (
        f"{rulechoice.SAVED}{request.args.get('ruleset', '')}",
        request.args.get("rules"),
    ):
        if value in form.choices:
            return value
    return rulechoice.default_choice()


def start(setup: NewGame) -> tuple[Game, str]:
    """Start the game (and save its rules as the table's, when asked) in one write."""
    form, rules = setup.form, setup.rules
    assert rules is not None
    chosen = form.choice()
    if setup.saves_rules:
        name = setup.save_name()
        rules = rules.renamed(name)
        rulesets.save(rules, name)
    game, key = service.create_game(form.player_names(), rules, form.dealer_seat())
    if chosen.saved is not None and rules is chosen.rules:
        rulesets.mark_used(chosen.saved)
    return game, key


# How many names the new-game page offers as chips.
RECENT_NAMES = 16


def recent_names(limit: int = RECENT_NAMES) -> list[str]:
    """Names seen before, most recent game first, each player once, as last written."""
    return list(names_by_key(limit, seats=limit * 8).values())


def names_by_key(limit: int, seats: int) -> dict[str, str]:
    """Up to `limit` players of the last `seats` seats played, most recent game first: each
    player's name as last written, by its key."""
    rows = db.session.execute(
        db.select(Player.name, Player.name_key)
        .join(Game, Game.id == Player.game_id)
        .order_by(Game.created_at.desc(), Game.id.desc(), Player.seat)
        .limit(seats)
    )
    names: dict[str, str] = {}
    for name, key in rows:
        names.setdefault(key, name)
        if len(names) == limit:
            break
    return names
