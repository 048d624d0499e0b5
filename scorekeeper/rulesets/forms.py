"""The rule set editor's form: every R11 setting as a control that fits it, read back into the
document the engine judges.

The form never judges a value itself: what was typed goes into the document as it is (a whole
number as a number, anything else as the text), and `RuleSet.parse` names every problem under
its place in the document (`deals[4].cards`), which `attach` puts beside the control for that
place. Each field's name mirrors its place (`deals-4-cards`), so the page's script and the
server speak of the same places. The add and remove buttons (`add_deal`, `remove_deal=3`,
`add_meld=2`, `remove_meld=2.1`, `add_pack`, `remove_pack=1`) work without the script: the
form comes back changed and nothing is written.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from markupsafe import Markup
from wtforms import BooleanField, FieldList, Form, FormField, RadioField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.widgets import NumberInput

from ..games.forms import EntryList, WriteOnceForm
from ..platform.language import say
from ..rules import RuleSet, RuleSetError, ruleeffects
from ..rules.ruleset import (
    BUY_LIMITS,
    CUT_BONUSES,
    FIRST_VERSION,
    MOST_DEALS,
    MOST_MELDS,
    MOST_PACKS,
    MOST_PLAYERS,
    NAME_MAX,
    PENALTY_CARDS,
    RUN_SIZES,
    SET_SIZES,
    VALUE_KEYS,
    VALUES,
    VERSION,
    Ace,
    Direction,
    FreedJoker,
    FreedJokerTo,
    JokerSwap,
    MeldKind,
    TieBreak,
)
from ..rules.ruleset.schema import FIXED_JOKERS, JOKERS_PER_PACK
from ..rules.ruleset.values import (
    ANY_SUIT_RUN_SIZES,
    OUT_IN_ONE_TURN_BONUSES,
    R12_BUYING,
    R12_TOP,
    WILD_CAPS,
    WILD_SPACINGS,
    r12_written,
)
from ..rules.ruleset.variants import VARIANTS, Variant, variant, variants_of
from ..rules.verdict import sentence

# A new meld, and a new deal when there is none to copy.
NEW_MELD = {"kind": MeldKind.SET.value, "size": SET_SIZES.start}
_WHOLE = re.compile(r"-?[0-9]{1,6}")
_PLACE_PART = re.compile(r"\[(\d+)\]")


def number(minimum: int, maximum: int, **extra: Any) -> StringField:
    """A number control (the page's script adds − and + beside it); kept as text, so that what
    was typed comes back as typed and the engine names what is wrong with it."""
    return StringField(
        widget=NumberInput(step=1, min=minimum, max=maximum),
        render_kw={"inputmode": "numeric", "autocomplete": "off", "class": "stepper", **extra},
    )


def switch() -> BooleanField:
    """A yes/no setting: a checkbox the page styles as a switch."""
    return BooleanField(render_kw={"class": "switch", "role": "switch"})


def radios(words: dict[Any, Any], default: Any = None) -> RadioField:
    """A setting of a few values: a tile for each (`words`, each value's enum member and the
    words its tile says), `default` ticked when the document gives none."""
    return RadioField(
        choices=[SelectChoice(key.value, said) for key, said in words.items()],
        default=None if default is None else default.value,
    )


def typed(text: str | None, blank: object = "") -> object:
    """A number control's text as the document takes it: a whole number, `blank` when empty,
    else the text itself (for the engine to refuse by name)."""
    text = (text or "").strip()
    if not text:
        return blank
    return int(text) if _WHOLE.fullmatch(text) else text


def shown(value: object) -> str:
    return "" if value is None else str(value)


# A meld's kind as the editor's picker says it ("a set of 3"); the document keeps its value.
_KIND_WORDS = {
    MeldKind.SET: _l("set"),
    MeldKind.RUN: _l("run"),
    MeldKind.ANY_SUIT_RUN: _l("run in any suits"),
}


class MeldForm(Form):
    kind = SelectField(
        choices=[SelectChoice(kind.value, words) for kind, words in _KIND_WORDS.items()],
        default=MeldKind.SET.value,
        render_kw={"class": "meld-kind"},
    )
    size = number(SET_SIZES.start, RUN_SIZES.stop - 1)


class DealForm(Form):
    cards = number(1, 60)
    contract = EntryList(FormField(MeldForm), min_entries=0, max_entries=MOST_MELDS)
    whole_hand = switch()
    # The deal's own cap on wild cards in a meld of the opening (R12.3); blank: the rule set's.
    wild_max = number(WILD_CAPS.start, WILD_CAPS.stop - 1, placeholder="–")


class PackStepForm(Form):
    up_to = number(2, MOST_PLAYERS)
    packs = number(1, MOST_PACKS)


class PlayersForm(Form):
    min = number(2, MOST_PLAYERS)
    max = number(2, MOST_PLAYERS)


class JokersForm(Form):
    fixed = number(FIXED_JOKERS.start, FIXED_JOKERS.stop - 1)
    per_pack = number(JOKERS_PER_PACK.start, JOKERS_PER_PACK.stop - 1)


class NaturalsForm(Form):
    set = number(1, 8)
    run = number(1, 14)
    wild_at_most_natural = switch()


class BuyingForm(Form):
    allowed = switch()
    per_deal = number(BUY_LIMITS.start, BUY_LIMITS.stop - 1, placeholder="none")
    per_game = number(BUY_LIMITS.start, BUY_LIMITS.stop - 1, placeholder="none")
    penalty_cards = number(PENALTY_CARDS.start, PENALTY_CARDS.stop - 1)
    take_several = switch()


# One field a card value, named by its key (`values-JK`).
ValuesForm = type(
    "ValuesForm", (Form,), {key: number(VALUES.start, VALUES.stop - 1) for key in VALUE_KEYS}
)
_DIRECTION_WORDS = {
    Direction.LEFT: _l("to the left, clockwise"),
    Direction.RIGHT: _l("to the right, counterclockwise"),
}
_TIE_WORDS = {
    TieBreak.SHARE: _l("they share the win"),
    TieBreak.DEALS_WON: _l("the one who went out in more deals wins; still level, they share"),
}
_ACE_WORDS = {
    Ace.NO_WRAP: _l("low or high, never both (K A 2 is no run)"),
    Ace.WRAP: _l("wraps: Q K A 2 is a run"),
}
_FREED_TO_WORDS = {
    FreedJokerTo.ANY: _l("on any meld"),
    FreedJokerTo.RUN: _l("on a run only"),
}
_SWAP_WORDS = {
    JokerSwap.NEVER: _l("never"),
    JokerSwap.RUNS: _l("in runs only"),
    JokerSwap.ANY: _l("in sets and runs"),
}
_FREED_WORDS = {
    FreedJoker.LAY_OFF: _l("laid off the same turn"),
    FreedJoker.HAND: _l("goes into the hand"),
}


class RuleSetForm(Form):
    """Every R11 setting as a control, named by its place in the document."""

    name = StringField(render_kw={"maxlength": NAME_MAX, "autocomplete": "off"})
    players = FormField(PlayersForm)
    packs = EntryList(FormField(PackStepForm), min_entries=1, max_entries=MOST_PLAYERS)
    jokers = FormField(JokersForm)
    direction = radios(_DIRECTION_WORDS, Direction.LEFT)
    deals = EntryList(FormField(DealForm), min_entries=1, max_entries=MOST_DEALS)
    exact_sizes = switch()
    distinct_set_ranks = switch()
    values = FormField(ValuesForm)
    # The player out's score for going down and out in one turn, as the document holds it.
    out_in_one_turn_bonus = number(OUT_IN_ONE_TURN_BONUSES.start, OUT_IN_ONE_TURN_BONUSES.stop - 1)
    tie_break = radios(_TIE_WORDS, TieBreak.SHARE)
    wild_deuces = switch()
    naturals = FormField(NaturalsForm)
    ace = radios(_ACE_WORDS, Ace.NO_WRAP)
    wild_max = number(WILD_CAPS.start, WILD_CAPS.stop - 1, placeholder="–")
    wild_spacing = number(WILD_SPACINGS.start, WILD_SPACINGS.stop - 1)
    # Shown as points taken off the cutter's round: "takes 50 off"; the document holds −50.
    cut_bonus = number(0, -CUT_BONUSES.start)
    layoff_on_opening_turn = switch()
    go_out_by_layoff = switch()
    discard_wild = switch()
    discard_draw_after_opening = switch()
    joker_swap = radios(_SWAP_WORDS)
    swap_on_opening_turn = switch()
    freed_joker = radios(_FREED_WORDS)
    freed_joker_to = radios(_FREED_TO_WORDS, FreedJokerTo.ANY)
    buying = FormField(BuyingForm)

    # The size a meld starts at when its kind is picked (the page's script resets it): a run
    # switched to a set is a set of 3, never "a set of 4" left over from the run.
    least_sizes = {
        MeldKind.SET.value: SET_SIZES.start,
        MeldKind.RUN.value: RUN_SIZES.start,
        MeldKind.ANY_SUIT_RUN.value: ANY_SUIT_RUN_SIZES.start,
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.problems: dict[str, str] = {}
        self.notes: dict[str, str] = {}

    # --- filling and reading -------------------------------------------------------------

    @classmethod
    def of(cls, rules: RuleSet | dict[str, Any], **kwargs: Any) -> RuleSetForm:
        """The form filled from a rule set, or from a document as typed (values kept as text)."""
        document = rules.to_json() if isinstance(rules, RuleSet) else rules
        return cls(data=form_data(document), **kwargs)

    def document(self) -> dict[str, Any]:
        """The rule set document the fields hold, each value as typed for the engine to judge;
        written as the rule set writes itself: version 1, unless an R12 setting is changed."""
        changed = r12_written(
            {
                "direction": self.direction.data or Direction.LEFT.value,
                "ace": self.ace.data or Ace.NO_WRAP.value,
                "wild_max": typed(self.wild_max.data, None),
                "wild_spacing": typed(self.wild_spacing.data, 0),
                "distinct_set_ranks": bool(self.distinct_set_ranks.data),
                "discard_wild": bool(self.discard_wild.data),
                "discard_draw_after_opening": bool(self.discard_draw_after_opening.data),
                "out_in_one_turn_bonus": typed(self.out_in_one_turn_bonus.data),
                "tie_break": self.tie_break.data or TieBreak.SHARE.value,
                "freed_joker_to": self.freed_joker_to.data or FreedJokerTo.ANY.value,
            }
        )
        several = r12_written({"take_several": bool(self.buying.take_several.data)}, R12_BUYING)
        deals = [self._deal(deal) for deal in self.deals]
        in_deals = any(
            "wild_max" in deal
            or any(meld["kind"] == MeldKind.ANY_SUIT_RUN for meld in deal["contract"])
            for deal in deals
        )
        return {
            "version": VERSION if changed or several or in_deals else FIRST_VERSION,
            "name": (self.name.data or "").strip(),
            "players": {"min": typed(self.players.min.data), "max": typed(self.players.max.data)},
            "packs": [
                {"up_to": typed(step.up_to.data), "packs": typed(step.packs.data)}
                for step in self.packs
            ],
            "jokers": {
                "fixed": typed(self.jokers.fixed.data),
                "per_pack": typed(self.jokers.per_pack.data),
            },
            "deals": deals,
            "exact_sizes": bool(self.exact_sizes.data),
            "values": {key: typed(self.values[key].data) for key in VALUE_KEYS},
            "wild_deuces": bool(self.wild_deuces.data),
            "naturals": {
                "set": typed(self.naturals.set.data),
                "run": typed(self.naturals.run.data),
                "wild_at_most_natural": bool(self.naturals.wild_at_most_natural.data),
            },
            "cut_bonus": _negated(typed(self.cut_bonus.data)),
            "layoff_on_opening_turn": bool(self.layoff_on_opening_turn.data),
            "go_out_by_layoff": bool(self.go_out_by_layoff.data),
            "joker_swap": self.joker_swap.data,
            "swap_on_opening_turn": bool(self.swap_on_opening_turn.data),
            "freed_joker": self.freed_joker.data,
            "buying": {
                "allowed": bool(self.buying.allowed.data),
                "per_deal": typed(self.buying.per_deal.data, None),
                "per_game": typed(self.buying.per_game.data, None),
                "penalty_cards": typed(self.buying.penalty_cards.data),
                **several,
            },
            # R12.3's settings (`R12_SETTINGS`), after R11's, where changed.
            **changed,
        }

    @staticmethod
    def _deal(deal: Any) -> dict[str, Any]:
        """One deal's part of the document; its own cap on wild cards only where it has one."""
        written = {
            "cards": typed(deal.cards.data),
            "contract": [
                {"kind": meld.kind.data, "size": typed(meld.size.data)} for meld in deal.contract
            ],
            "whole_hand": bool(deal.whole_hand.data),
        }
        cap = typed(deal.wild_max.data, None)
        return written if cap is None else {**written, "wild_max": cap}

    def rule_set(self) -> RuleSet | None:
        """The rule set the fields describe; None when it is not playable, every problem put
        beside its control (`problems`)."""
        try:
            rules = RuleSet.parse(self.document())
        except RuleSetError as error:
            self.attach(error.problems)
            return None
        self.notes = {place: say(said) for place, said in ruleeffects.coded_notes(rules).items()}
        return rules

    @property
    def variants(self) -> tuple[tuple[str, tuple[Variant, ...], bool], ...]:
        """R12's variants of each preset that has them (R12.1, R12.2), each a button that
        changes the form: (the preset's key, its variants, whether these rules are named for
        it and the page shows them)."""
        named = variants_of(self.name.data)
        return tuple((key, found, found == named) for key, found in VARIANTS.items())

    def blank_deal(self) -> DealForm:
        """The deal row the page's script copies for "Add a deal" (`__d__`: its number)."""
        data = {"cards": "11", "contract": [{"kind": "run", "size": "4"}], "whole_hand": False}
        return DealForm(prefix="deals-__d__-", data=data)

    def blank_meld(self) -> MeldForm:
        """The meld chip the page's script copies for "Add a meld"."""
        return MeldForm(prefix="deals-__d__-contract-__m__-", data=_meld_data(NEW_MELD))

    # --- the buttons that change the form's shape ---------------------------------------

    @classmethod
    def edited(cls, formdata: Any, **kwargs: Any) -> tuple[RuleSetForm, bool]:
        """The form as posted, then changed by the add or remove button pressed, if any
        (True: a button was pressed, and the page shows the form again, writing nothing)."""
        form = cls(formdata, **kwargs)
        document = form.document()
        if not _press(document, formdata):
            return form, False
        return cls.of(document, **kwargs), True

    # --- problems beside their controls ---------------------------------------------------

    def attach(self, problems: dict[str, str]) -> None:
        """Put each problem (keyed by its place in the document) beside the control for that
        place, or the nearest one holding it; every one is listed at the top too."""
        for place, message in problems.items():
            slot = self.slot_of(place)
            said = _reworded(place, message)
            self.problems[slot] = (
                f"{self.problems[slot]}; {said}" if slot in self.problems else said
            )
            field = self.field_at(slot)
            if field is not self and not isinstance(field, FieldList | FormField | None):
                field.errors = [*field.errors, said]

    def slot_of(self, place: str) -> str:
        """The nearest place at or above `place` that has a control or a row on the page."""
        while place:
            if self.field_at(place) is not None:
                return place
            trimmed = re.sub(r"(\.[^.\[\]]+|\[\d+\])$", "", place)
            if trimmed == place:
                break
            place = trimmed
        return ""

    def field_at(self, place: str) -> Any:
        """The field (or list, or group) for a place in the document; None when there is none."""
        field: Any = self
        for part in re.findall(r"\[\d+\]|[^.\[\]]+", place):
            try:
                field = field.entries[int(part[1:-1])] if part.startswith("[") else field[part]
            except (KeyError, IndexError, AttributeError, TypeError):
                return None
        return field

    def listed(self) -> list[tuple[str, str, str]]:
        """(place, label, problem) for the list at the top, in the page's order; a problem of
        the rules as a whole (how many more there are than the list names) comes last, as a
        sentence of its own."""
        named = [(place, label(place), text) for place, text in self.problems.items() if place]
        whole = self.problems.get("")
        return named + ([("", "", sentence(whole))] if whole else [])

    def count(self) -> int:
        """How many problems the list at the top names: one a setting, else the one refusal."""
        return sum(1 for place in self.problems if place) or len(self.problems)


def _negated(value: object) -> object:
    return -value if isinstance(value, int) else value


def _reworded(place: str, message: str) -> str:
    if place == "cut_bonus" and message.startswith("must be"):
        return gettext(
            "must be from 0 to %(most)s points off the cutter's round", most=-CUT_BONUSES.start
        )
    return message


def form_data(document: dict[str, Any]) -> dict[str, Any]:
    """A document as the form's data: numbers as the text of their control."""
    data = copy.deepcopy(document)
    for key, default in R12_TOP.items():  # a version-1 document holds none of them
        data.setdefault(key, default)
    data["players"] = {key: shown(value) for key, value in data.get("players", {}).items()}
    data["packs"] = [{k: shown(v) for k, v in step.items()} for step in data.get("packs", [])]
    data["jokers"] = {key: shown(value) for key, value in data.get("jokers", {}).items()}
    for deal in data.get("deals", []):
        deal["cards"] = shown(deal.get("cards"))
        deal["wild_max"] = shown(deal.get("wild_max"))
        deal["contract"] = [_meld_data(meld) for meld in deal.get("contract", [])]
    data["values"] = {key: shown(value) for key, value in data.get("values", {}).items()}
    naturals = data.get("naturals", {})
    naturals.update({key: shown(naturals.get(key)) for key in ("set", "run")})
    data.update({key: shown(data.get(key)) for key in ("wild_max", "wild_spacing")})
    data["cut_bonus"] = shown(_negated(data.get("cut_bonus")))
    data["out_in_one_turn_bonus"] = shown(data["out_in_one_turn_bonus"])
    buying = data.get("buying", {})
    buying.update({k: shown(buying.get(k)) for k in ("per_deal", "per_game", "penalty_cards")})
    for key, default in R12_BUYING.items():
        buying.setdefault(key, default)
    return data


def _meld_data(meld: dict[str, Any]) -> dict[str, str]:
    return {"kind": meld.get("kind"), "size": shown(meld.get("size"))}


def _index(text: object, count: int) -> int | None:
    text = str(text or "")
    return (
        int(text)
        if text.isascii() and text.isdigit() and len(text) < 4 and int(text) < count
        else None
    )


def _add_deal(document: dict[str, Any], _: str) -> None:
    deals = document["deals"]
    if len(deals) < MOST_DEALS:
        deals.append(copy.deepcopy(deals[-1]) if deals else {"cards": 10, "contract": []})


def _remove_deal(document: dict[str, Any], value: str) -> None:
    deals = document["deals"]
    if (index := _index(value, len(deals))) is not None and len(deals) > 1:
        del deals[index]


def _add_meld(document: dict[str, Any], value: str) -> None:
    deals = document["deals"]
    index = _index(value, len(deals))
    if index is not None and len(deals[index]["contract"]) < MOST_MELDS:
        deals[index]["contract"].append(dict(NEW_MELD))


def _remove_meld(document: dict[str, Any], value: str) -> None:
    deals = document["deals"]
    deal, _, meld = value.partition(".")
    if (index := _index(deal, len(deals))) is not None:
        contract = deals[index]["contract"]
        if (at := _index(meld, len(contract))) is not None:
            del contract[at]


def _add_pack(document: dict[str, Any], _: str) -> None:
    packs = document["packs"]
    if len(packs) < MOST_PLAYERS:
        last = packs[-1] if packs else {"up_to": 2, "packs": 1}
        packs.append(dict(last))


def _remove_pack(document: dict[str, Any], value: str) -> None:
    packs = document["packs"]
    if (index := _index(value, len(packs))) is not None and len(packs) > 1:
        del packs[index]


def _variant(document: dict[str, Any], value: str) -> None:
    """One of R12's variants (`carioca.joker_30`), made to the document (R12.1, R12.2)."""
    found = variant(value)
    if found is not None:
        found.change(document)


# Each button's name, and what it does to the document (its value: which deal, meld or step).
_BUTTONS = {
    "variant": _variant,
    "add_deal": _add_deal,
    "remove_deal": _remove_deal,
    "add_meld": _add_meld,
    "remove_meld": _remove_meld,
    "add_pack": _add_pack,
    "remove_pack": _remove_pack,
}


def _press(document: dict[str, Any], formdata: Any) -> bool:
    """Apply the add or remove button in `formdata` to the document; False when none was."""
    for name, press in _BUTTONS.items():
        if name in formdata:
            press(document, str(formdata.get(name) or ""))
            return True
    return False


def label(place: str) -> str:
    """A place in the document as the list at the top names it: `Deal 5, meld 2: size`."""
    indices = [int(found) + 1 for found in _PLACE_PART.findall(place)]
    words = _PLACE_PART.sub("", place).split(".")
    if words[0] == "deals" and indices:
        said = (
            gettext("Deal %(deal)s, meld %(meld)s", deal=indices[0], meld=indices[1])
            if len(indices) > 1
            else gettext("Deal %(deal)s", deal=indices[0])
        )
        rest = [w for w in words[1:] if w != "contract" or len(indices) == 1]
        if not rest:
            return said
        return gettext("%(where)s: %(what)s", where=said, what=" ".join(rest).replace("_", " "))
    if words[0] == "packs" and indices:
        return gettext(
            "Packs, step %(step)s: %(what)s",
            step=indices[0],
            what=" ".join(words[1:]).replace("_", " "),
        )
    if words[0] == "values" and len(words) > 1:
        if words[1] == "JK":
            return gettext("Value of a joker")
        return gettext("Value of %(card)s", card=words[1])
    return " ".join(words).replace("_", " ").capitalize()


# The saved rule sets' pages: a name (rename, or save a shared rule set), a confirm (delete),
# and a rule set file to open. Each form that writes carries a one-time token (`WriteOnceForm`),
# so a double tap renames, saves or deletes once.
NAME_INPUT = {
    "maxlength": NAME_MAX,
    "autocomplete": "off",
    "autocapitalize": "words",
    "spellcheck": "false",
}


class NameForm(WriteOnceForm):
    """The name a saved rule set goes by ("Smith family"): checked by `rulesets.check_name`,
    whose refusal is shown beside the field with what was typed kept."""

    name = StringField(_l("Name"), render_kw=NAME_INPUT)

    def refuse(self, message: str) -> None:
        """Show the service's refusal of the name beside the field."""
        self.name.errors = [*self.name.errors, message]


class ConfirmForm(WriteOnceForm):
    """A confirming post (delete): only its CSRF and one-time tokens."""


class UploadForm(FlaskForm):
    """A rule set file (the JSON document, as the download writes it) to open. Reading it
    writes nothing, so it carries no one-time token."""

    file = FileField(_l("Rule set file (.json)"), render_kw={"accept": ".json,application/json"})
    problems: dict[str, str]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.problems = {}


# Where a sentence of the editor holds a control: `{name}`, as the template passes each
# placeholder of the translated sentence (`%(name)s`) its own name.
_CONTROL = re.compile(r"\{(\w+)\}")


def sentence_parts(text: str) -> list[tuple[str, str, str]]:
    """A sentence with controls in it (`From {min} to {max} players sit at the table.`) as
    each control's name with the words before it and, for the last one, the words after it:
    the editor draws each control with its words, in the order the language writes them."""
    pieces = _CONTROL.split(str(text))
    kept = Markup if isinstance(text, Markup) else str
    names = pieces[1::2]
    words = [kept(piece.strip()) for piece in pieces[0::2]]
    return [
        (name, words[index], words[index + 1] if index == len(names) - 1 else kept(""))
        for index, name in enumerate(names)
    ]
