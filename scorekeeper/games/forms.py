"""Forms for the score book pages: CSRF-protected, validated by the same engine as the API.

The paper sheet page has two: the sheet (a file or pasted text) and its rules to preview
(`SheetForm`), then the sheet as read, posted again to import it (`ImportForm`). Only the second
writes, so only it carries a one-time token: a double tap on "Import" imports once."""

from __future__ import annotations

import re
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import (
    BooleanField,
    FieldList,
    Form,
    FormField,
    HiddenField,
    RadioField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.utils import unset_value
from wtforms.validators import InputRequired, ValidationError
from wtforms.widgets import NumberInput

from ..platform import language, writeonce
from ..rules import RulesError
from ..rules.ruleset import PRESETS, RuleSet
from ..rules.ruleset.words import players_range
from ..rules.scoring import most_points
from ..rules.verdict import sentence
from ..rulesets import choice as rulechoice
from . import buys, errors, ledger, names, service
from .models import NAME_MAX, Game, Round
from .roundvalues import Hand, RoundEntry, RoundSnapshot

# A player's name as typed on a tablet: its length, words capitalised, no suggestions.
NAME_INPUT = {
    "maxlength": NAME_MAX,
    "autocomplete": "off",
    "autocapitalize": "words",
    "spellcheck": "false",
}

# The seats the form has: as many as the largest table a preset allows. A game starts from a
# preset; a table's own rule set comes through the API.
MAX_SEATS = max(rules.max_players for rules in PRESETS.values())
# The seats every preset allows; the ones after them show only for rules that seat more.
EVERY_PRESET_SEATS = min(rules.max_players for rules in PRESETS.values())
RANDOM = "random"
NOBODY = "nobody"


def option(value: str, label: str, render_kw: dict[str, Any] | None = None) -> Any:
    """One choice of a select or radio field."""
    return SelectChoice(value, label, render_kw or {})


def rules_option(key: str, rules: RuleSet, label: str | None = None) -> Any:
    """A choice on the rules picker: its name and table sizes, said once (`Online: ` and the
    sizes); the page's script seats the players its limits allow (`data-min`, `data-max`)."""
    return option(
        key,
        label
        or _(
            "%(rules)s: %(players)s",
            rules=rules.label,
            players=players_range(rules, language.speech()),
        ),
        {"data-min": rules.min_players, "data-max": rules.max_players},
    )


class EntryList(FieldList):
    """A FieldList that skips a field whose index is not a plain number (`names-²`, 5,000 digits).

    WTForms takes any `str.isdigit()` index and calls `int()` on it, which raises for a
    superscript digit or a number too long to convert: a hand-made form would be a 500.
    """

    def _extract_indices(self, prefix: str, formdata: Any):
        start = prefix + self._separator
        for key in formdata:
            if key.startswith(start):
                index = key[len(start) :].split(self._field_separator, 1)[0]
                if whole_number(index) is not None:
                    yield int(index)


class WriteOnceForm(FlaskForm):
    """A form that changes the score book: it carries a one-time token made when it was opened
    for one change (a game, a round number, a version), so posting it twice (a double tap, a
    retry) writes once (see `writeonce`); aimed at another change, it gets a new token."""

    write_token = HiddenField(default=writeonce.new_token)


class NewGameForm(WriteOnceForm):
    """Names in clockwise seat order (blanks ignored), the rules to play (a preset or a saved
    rule set, changed or not in the editor: `rulechoice`), and the first dealer."""

    names = EntryList(
        StringField(
            _l("Name"),
            render_kw=NAME_INPUT,
        ),
        min_entries=MAX_SEATS,
        max_entries=MAX_SEATS,
    )
    # Posted as `profile`: the name a draft of this form kept on a tablet still sends.
    rules = SelectField(_l("Rules"), name="profile", default=rulechoice.default_choice())
    # The choice the editor was filled from: a picker changed since is honoured without the
    # page's script (`rulechoice`).
    filled_from = HiddenField()
    # A shared rule set's code (`?rules=`), kept across the form's posts.
    shared_code = HiddenField()
    save_rules = BooleanField(
        _l("Save these rules as our table's rules"), render_kw={"class": "switch"}
    )
    save_name = StringField(
        _l("Named"),
        render_kw={"maxlength": NAME_MAX, "autocomplete": "off", "placeholder": _l("Smith family")},
    )
    first_dealer = RadioField(
        _l("First dealer"),
        choices=[option(RANDOM, _l("Draw at random"))]
        + [option(str(i), _l("Seat %(seat)s", seat=i + 1)) for i in range(MAX_SEATS)],
        default=RANDOM,
        validators=[InputRequired(_l("Pick the first dealer, or draw at random."))],
    )

    def __init__(self, *args: Any, choices: list[rulechoice.Chosen], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.choices = {choice.value: choice for choice in choices}
        self.rules.choices = [rules_option(c.value, c.rules, c.label) for c in choices]

    def choice(self) -> rulechoice.Chosen:
        """The choice picked (one of them after validation; the default one before)."""
        return self.choices.get(self.rules.data) or self.choices[rulechoice.default_choice()]

    def raw_names(self) -> list[str]:
        return [entry.data or "" for entry in self.names.entries]

    def player_names(self) -> list[str]:
        """The names entered, in seat order, blanks left out."""
        return [name for name in map(names.clean_name, self.raw_names()) if name]

    def dealer_seat(self) -> int | None:
        """The chosen first dealer's seat among the named players, or None to draw at random."""
        if self.first_dealer.data in (None, RANDOM):
            return None
        index = int(self.first_dealer.data)
        return sum(1 for name in self.raw_names()[:index] if names.clean_name(name))

    def validate_names(self, field: FieldList) -> None:
        for index, message in names.name_problems(self.raw_names()).items():
            entry = field.entries[index]
            entry.errors = [*entry.errors, sentence(message)]
        if any(entry.errors for entry in field.entries):
            raise ValidationError(_("Fix the names marked below."))
        if not self.player_names():
            raise ValidationError(_("Enter the players' names, clockwise as they sit."))

    def seat_for(self, rules: RuleSet) -> bool:
        """Whether the players named fit the rules' table sizes; if not, said beside the seats."""
        try:
            rules.check_players(len(self.player_names()))
        except RulesError as error:
            self.names.errors = [*self.names.errors, sentence(str(error)) + "."]
            return False
        return True

    def validate_first_dealer(self, field: RadioField) -> None:
        if field.errors or field.data == RANDOM:
            return  # not one of the choices: already said
        index = int(field.data)
        if not names.clean_name(self.raw_names()[index]):
            raise ValidationError(
                _(
                    "Seat %(seat)s has no name: pick a seated player, or draw at random.",
                    seat=index + 1,
                )
            )


class HandFields:
    """A hand as it is typed, wherever it is typed (the round form's seats, a phone): the cards
    left in it, or, with its "Points" toggle on, the points the table counted for it. A form
    built on it may word its fields its own way."""

    cards = StringField(
        _l("Cards left"),
        render_kw={"autocomplete": "off", "spellcheck": "false", "class": "cards-input"},
    )
    counted = BooleanField(_l("Points"), render_kw={"class": "points-toggle"})
    points = StringField(
        _l("Points"),
        widget=NumberInput(step=1, min=0),
        render_kw={"inputmode": "numeric", "autocomplete": "off", "class": "points-input"},
    )

    def counts_points(self) -> bool:
        """True when the hand is counted in points: its toggle is on, or only its points were
        typed (a page without its script, where the toggle may not have been ticked)."""
        typed = (self.points.data or "").strip()
        return bool(self.counted.data) or bool(typed and not (self.cards.data or "").strip())

    def points_typed(self) -> int | str | None:
        return points_typed(self.points.data)

    def hand(self) -> Hand:
        """The hand as typed: by its points when it is counted in points (`counts_points`),
        else by its cards (the spaces around them dropped)."""
        if self.counts_points():
            return Hand("points", points=self.points_typed())
        return Hand("cards", cards=(self.cards.data or "").strip())


class HandForm(HandFields, Form):
    """One seat's hand on the round form (`HandFields`). The engine judges it (see
    `RoundForm.attach`)."""

    class Meta:
        def bind_field(self, form, unbound_field, options):
            """Name a seat's fields `cards_2`, `counted_2`, `points_2` rather than WTForms'
            `hands-2-cards`: the names a round form has always posted, which a page without its
            script and a draft kept on the tablet still send."""
            seat = options["prefix"].rstrip("-").rpartition("-")[2]
            named = {**options, "name": f"{options['name']}_{seat}", "prefix": ""}
            return super().bind_field(form, unbound_field, named)


class SeatHands(FieldList):
    """A hand form for each seat of the form's game, in seat order. The entries come from the
    game's seats, never from what was posted, so a hand-made post cannot add, drop or reorder a
    hand: a hand it leaves out is an empty one, which the engine names."""

    def process(self, formdata: Any, data: Any = unset_value, extra_filters: Any = None) -> None:
        self.min_entries = self.max_entries = len(self._form.game.players)
        super().process(formdata, data, extra_filters)

    def _extract_indices(self, prefix: str, formdata: Any):
        return iter(())


class RoundForm(WriteOnceForm):
    """A round's report: who went out, the exact cut, and a hand form per seat (`HandForm`)."""

    out = RadioField(
        _l("Who went out?"),
        choices=[],
        validators=[InputRequired(_l("Tap the player who went out, or “nobody”."))],
    )
    cut_exact = BooleanField(_l("Exact cut"))
    # The player out went down and out in one turn, asked only where the rules give a bonus for
    # it (R12.3 `out_in_one_turn_bonus`).
    out_in_one_turn = BooleanField(_l("Went down and out in one turn"))
    # The round this form was opened for: another device may have recorded it meanwhile.
    round_number = HiddenField()
    # The version of the round being corrected, as it was when the form was opened.
    version = HiddenField()
    hands = SeatHands(FormField(HandForm))
    # Why a hand's penalty cannot be counted yet (static/hands.js), in the save's words.
    live_words = {
        "not_card": _l("'{card}' is not a card"),
        "over": _l("more {card} than this game's packs hold"),
        "over_together": _l("more {card} than this game's packs hold, counting {names}"),
    }
    # Each seat's buys this deal (`rounds/_buys.html`), asked only where the rules limit buys
    # (`counts_buys`, with `buys_hint`: what each player has left before this deal).
    buys = SeatHands(
        StringField(
            _l("Buys"),
            render_kw={"inputmode": "numeric", "autocomplete": "off", "class": "stepper"},
        )
    )

    def __init__(self, *args: Any, game: Game, number: int, **kwargs: Any):
        self.game = game
        self.number = number
        # The round the entries on this form were typed for, when that is not `number`.
        self.carried_from: int | None = None
        self.counted: set[int] = set()
        # The problems of the hands, for the summary at the top: the seats named, the words.
        self.hand_problems: list[tuple[tuple[int, ...], str]] = []
        self.counts_buys = buys.counted(game)
        self.buys_hint = buys.hint(game, number) if self.counts_buys else ""
        super().__init__(*args, **kwargs)
        self.out.choices = [option(str(seat), name) for seat, name in enumerate(game.names)] + [
            option(NOBODY, _("Nobody — the stock ran out"))
        ]
        self.rules = ledger.rules_of(game)
        limit = most_points(self.rules, len(game.players))
        for hand in self.hands:
            hand.points.render_kw = {**hand.points.render_kw, "max": limit}

    def opened_for_another_round(self) -> bool:
        """True when the form was opened for a round that has been recorded since."""
        return self.is_submitted() and self.round_number.data not in (None, "", str(self.number))

    def recorded_meanwhile(self, number: int | None) -> None:
        """Say that nothing was saved, what the ledger holds now and what saving again would do;
        keep what was typed and aim the form at `number` (None: the game is finished).

        The form may have come back from the browser's history on this tablet as well as from
        another device's ledger moving on, so the message blames neither."""
        opened_for = whole_number(self.round_number.data) or self.number
        self.carried_from = opened_for
        played = next((r for r in self.game.rounds if r.number == opened_for), None)
        then = (
            _(
                "Saving again records what is below as round %(number)s: if it is round "
                "%(opened_for)s again, cancel instead.",
                number=number,
                opened_for=opened_for,
            )
            if number is not None
            else _("The game is finished: nothing more can be recorded.")
        )
        if played is not None and (number is None or opened_for < number):
            self.form_errors.append(
                _(
                    "This form was for round %(opened_for)s, which is already in the ledger: "
                    "nothing was saved from it. Round %(opened_for)s reads: %(reads)s. %(then)s",
                    opened_for=opened_for,
                    reads=reads(played, self.game),
                    then=then,
                )
            )
        else:
            self.form_errors.append(
                ngettext(
                    "This form was for round %(opened_for)s, but the ledger changed while it was "
                    "open and now holds %(num)s round: nothing was saved from it. %(then)s",
                    "This form was for round %(opened_for)s, but the ledger changed while it was "
                    "open and now holds %(num)s rounds: nothing was saved from it. %(then)s",
                    len(self.game.rounds),
                    opened_for=opened_for,
                    then=then,
                )
            )
        if number is not None:
            self.round_number.data = str(number)
        self.write_token.data = writeonce.new_token()  # the form is now for another change

    def seen_version(self) -> int:
        """The version the form was opened at; 0 (no round's) when missing, so it is refused."""
        return whole_number(self.version.data) or 0

    def changed_meanwhile(self, error: errors.Conflict) -> None:
        """Show the round as it is now beside what was typed, ready to be saved over it."""
        played = error.current
        if played is None:
            self.form_errors.append(
                _("%(problem)s. Nothing was saved.", problem=sentence(error.message))
            )
            return
        self.form_errors.append(
            _(
                "Round %(number)s was changed on another device while this form was open "
                "(it is now version %(version)s) and reads: %(reads)s. Nothing was saved. What "
                "you typed is kept below: save again to put it in place of the round as it is "
                "now, or cancel.",
                number=played.number,
                version=played.version,
                reads=reads(played, self.game),
            )
        )
        self.version.data = str(played.version)
        self.write_token.data = writeonce.new_token()  # the form is now for another change

    def seats_with_errors(self) -> list[int]:
        """The seats whose cards or points are marked wrong, for the summary at the top."""
        return [seat for seat, hand in enumerate(self.hands) if hand.errors]

    def problem_list(self) -> list[tuple[tuple[int, ...], str]]:
        """Every problem the summary at the top lists, each with the seats it names (none for
        the round's own): who went out, then each hand's, then the rest (`attach`)."""
        listed: list[tuple[tuple[int, ...], str]] = [((), error) for error in self.out.errors]
        listed += self.hand_problems
        return listed

    def entry(self) -> RoundEntry:
        """The form's data as the score book takes it: each seat's `Hand` (`HandFields.hand`)."""
        # Read whatever was posted: a form refused for its "out" is still judged (`check_hands`).
        out = None if self.out.data in (None, NOBODY) else whole_number(self.out.data)
        hands = {seat: hand.hand() for seat, hand in enumerate(self.hands)}
        self.counted = {seat for seat, hand in hands.items() if hand.kind == "points"}
        return RoundEntry(
            out=out,
            hands=hands,
            cut_exact=bool(self.cut_exact.data),
            buys=self.buys_typed(),
            out_in_one_turn=self.asks_one_turn and bool(self.out_in_one_turn.data),
        )

    @property
    def asks_one_turn(self) -> bool:
        """Whether the rules give a bonus for going down and out in one turn, so the form asks."""
        return bool(self.rules.out_in_one_turn_bonus)

    def buys_typed(self) -> dict[int, int | str] | None:
        """Each seat's buys as typed, empty as none; None where the rules count no buys."""
        if not self.counts_buys:
            return None
        return {seat: points_typed(typed.data) or 0 for seat, typed in enumerate(self.buys)}

    def attach(self, error: errors.ScorebookError) -> None:
        """Put each problem the score book found (it scores the round once, as it saves it)
        beside the hand concerned, on the field it was read from, and in the summary at the top
        by the player's name; one that several hands share beside each of them, naming them
        all; the round's own at the top."""
        for seat, message in getattr(error, "buys", {}).items():
            self.buys[seat].errors = [*self.buys[seat].errors, sentence(message)]
            self.form_errors.append(
                _("%(name)s's buys: %(problem)s", name=self.game.names[seat], problem=message)
            )
        names = self.game.names
        for where, message in error.problems.items():
            seats = where if isinstance(where, tuple) else (where,)
            seats = tuple(seat for seat in seats if seat is not None and 0 <= seat < len(names))
            if not seats:
                self.form_errors.append(sentence(message))
                continue
            said = sentence(message)
            if isinstance(where, tuple):
                said = sentence(service.problem_line(names, where, message))
            for seat in seats:
                hand = self.hands[seat]
                field = hand.points if seat in self.counted else hand.cards
                field.errors = [*field.errors, said]
            self.hand_problems.append((seats, said))

    def check_hands(self) -> None:
        """Judge what can be judged of the hands (`service.check_hands`) on a form refused for
        another reason (nobody picked as out), so that one save names every problem."""
        try:
            service.check_hands(self.game, self.entry())
        except errors.ScorebookError as error:
            self.attach(error)


def round_form(
    game: Game, number: int, prefill: Round | None = None, *, filled: dict[str, Any] | None = None
) -> RoundForm:
    """A round form for the game's next round or round `number`; `prefill` fills it from a
    recorded round, each hand as it was entered (its cards, or its points); `filled` from hands
    entered elsewhere (`{"out": "2", "hands": [{"cards": "K 5", "counted": False, ...}]}`)."""
    data: dict[str, Any] = {"round_number": str(number), **(filled or {})}
    if prefill is not None:
        data["version"] = str(prefill.version)
        data["out"] = NOBODY if prefill.out is None else str(prefill.out)
        data["cut_exact"] = prefill.cut_exact
        data["out_in_one_turn"] = prefill.out_in_one_turn
        data["hands"] = [
            {
                "cards": line.leftovers,
                "counted": line.counted,
                "points": str(line.penalty) if line.counted else "",
            }
            for line in sorted(prefill.scores, key=lambda line: line.seat)
        ]
        data["buys"] = [
            str(line.buys or 0) for line in sorted(prefill.scores, key=lambda line: line.seat)
        ]
    return RoundForm(game=game, number=number, data=data)


class UndoForm(WriteOnceForm):
    """The "Undo round 5" button: its CSRF token, and the version of the round shown above it."""

    version = HiddenField()

    def seen_version(self) -> int:
        """The version the page showed; 0 (no round's) when missing, so it is refused."""
        return whole_number(self.version.data) or 0

    def changed_meanwhile(self, error: errors.Conflict) -> str:
        """The warning for a round changed since the page was shown; the button now undoes it."""
        played = error.current
        if played is None:
            return _("%(problem)s.", problem=sentence(error.message))
        self.version.data = str(played.version)
        self.write_token.data = writeonce.new_token()  # the button now undoes another version
        return _(
            "Round %(number)s was changed on another device since this page was shown (it is "
            "now version %(version)s). Nothing was undone: check the round as it is now, below, "
            "and undo again if it should still go.",
            number=played.number,
            version=played.version,
        )


def points_typed(text: str | None) -> int | str | None:
    """Points as typed into a form: a whole number, else the text for the engine to refuse
    (None when nothing was typed)."""
    text = (text or "").strip()
    return int(text) if re.fullmatch(r"-?[0-9]{1,9}", text) else text or None


def whole_number(text: str | None) -> int | None:
    """A hidden field's number, or None for anything else (a form can be hand-made)."""
    if text is None or not text.isascii() or not text.isdigit() or len(text) > 9:
        return None
    return int(text)


def reads(played: Round, game: Game) -> str:
    """A recorded round in one line, as it is stored now."""
    return ledger.summary(RoundSnapshot.of_round(played), game.names)


class RenameForm(WriteOnceForm):
    """Each seat's name, written over where it was misspelt, and the name the page showed for
    it (`seen`): a seat renamed meanwhile on another device is refused, never overwritten."""

    names = EntryList(
        StringField(
            _l("Name"),
            render_kw=NAME_INPUT,
        ),
        max_entries=MAX_SEATS,
    )
    seen = EntryList(HiddenField(), max_entries=MAX_SEATS)

    @classmethod
    def of(cls, game: Game) -> RenameForm:
        """The form for this game: its names now, unless the table's own are posted back."""
        form = cls(data={"names": game.names, "seen": game.names})
        if form.is_submitted():
            form = cls()
        return form

    def renamed(self) -> dict[int, str]:
        return {seat: entry.data or "" for seat, entry in enumerate(self.names.entries)}

    def seen_names(self) -> dict[int, str]:
        return {seat: entry.data or "" for seat, entry in enumerate(self.seen.entries)}


class EndEarlyForm(WriteOnceForm):
    """Ending the game after the round the page showed as the last one recorded."""

    after = HiddenField()

    def arguments(self) -> dict[str, Any]:
        return {"after": whole_number(self.after.data or "")}


def form_context(game, number: int, form, *, editing: bool) -> dict[str, Any]:
    """What the round form (templates/games/rounds/_form.html) is drawn from, on its own
    page and on any other page that shows it."""
    return {
        "game": game,
        "number": number,
        "form": form,
        "editing": editing,
        "setup": ledger.setup_for(game, number),
        "rules": form.rules,
        "copies": pack_copies(form.rules, len(game.players)),
    }


def pack_copies(rules, players: int) -> dict[str, int]:
    """What the game's packs hold of each card and of jokers (R1): the card pad's live check."""
    return {"card": rules.pack_count(players), "JK": rules.joker_count(players)}


def chosen_rules(value: str | None) -> RuleSet | None:
    """The rules a picker's value names (`liverpool`, `ruleset:3`), or None for no such choice."""
    chosen = rulechoice.offered(value)
    return chosen.rules if chosen is not None else None


class SheetForm(FlaskForm):
    """A sheet to preview: a CSV file, or its rows pasted (a range of spreadsheet cells pastes
    as tab-separated rows, which is read the same); the rules its games were played by (the
    presets, then the table's saved rule sets, as the new game page offers them)."""

    file = FileField(_l("A CSV file"), render_kw={"accept": ".csv,.txt,text/csv,text/plain"})
    text = TextAreaField(
        _l("Or paste its rows"),
        render_kw={"rows": 8, "spellcheck": "false", "autocapitalize": "off"},
    )
    rules = SelectField(_l("Rules the games were played by"), default=rulechoice.default_choice())

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.rules.choices = [(choice.value, choice.label) for choice in rulechoice.choices()]


class ImportForm(WriteOnceForm):
    """The sheet as the preview read it, and its rules, to import: all of its games or none."""

    # Shown hidden: a textarea keeps the sheet's line breaks as they were.
    text = TextAreaField()
    rules = HiddenField()
