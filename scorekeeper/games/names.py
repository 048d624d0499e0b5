"""Player names as a table sees them: one written form, and one key for names that look alike.

Two seats whose names differ only by case, by accents (composed or not) or by look-alike letters
of other scripts would make the ledger ambiguous, so they share one key (`name_key`): the name
case-folded, stripped of combining marks and reduced to its Unicode confusable skeleton (UTS #39,
with the confusables table of the `confusable_homoglyphs` package).
"""

from __future__ import annotations

import hashlib
import string
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cache

from confusable_homoglyphs import utils as confusable_data
from flask_babel import gettext as _

from .errors import ScorebookError
from .models import KEY_MAX, NAME_MAX, Game

# A name must show on the ledger as written: no bidi overrides, not only invisible characters.
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
INVISIBLE = frozenset({"Cf", "Mn", "Me", "Zs", "Zl", "Zp"})
# Characters that show nothing yet make two names differ; format characters (Cf) are refused too.
INVISIBLE_CHARACTERS = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0"
    + "".join(map(chr, range(0x180B, 0x1810)))  # Mongolian variation selectors
    + "".join(map(chr, range(0xFE00, 0xFE10)))  # variation selectors
    + "".join(map(chr, range(0xE0100, 0xE01F0)))  # variation selectors supplement
)
ZERO_WIDTH_JOINER = "\u200d"
EMOJI_STYLE = "\ufe0f"
# Unicode marks a right-to-left character of the table with these; they are not part of it.
_DIRECTION_MARK = "\u200e"


def clean_name(text: str) -> str:
    """A name as stored: NFKC (one written form for each look), trimmed, inner spaces made one."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def invisible_character(name: str) -> str | None:
    """The first character of `name` that shows nothing (a format character, a filler), if any.

    The joiner and the emoji style selector are kept inside emoji sequences (👩‍🍳), where they
    are what makes the picture.
    """
    return next((char for char, shows in _showing(name) if not shows), None)


def _showing(name: str) -> Iterator[tuple[str, bool]]:
    """Each character of `name`, and whether it shows (see `invisible_character`)."""
    for index, char in enumerate(name):
        before = name[index - 1] if index else ""
        after = name[index + 1] if index + 1 < len(name) else ""
        joins = char == ZERO_WIDTH_JOINER and _emoji(before) and _emoji(after)
        styles = char == EMOJI_STYLE and _emoji(before)
        hidden = char in INVISIBLE_CHARACTERS or unicodedata.category(char) == "Cf"
        yield char, joins or styles or not hidden


def _emoji(char: str) -> bool:
    """A picture character, or a part of an emoji sequence (skin tone, style selector)."""
    return bool(char) and (unicodedata.category(char) in ("So", "Sk") or char == EMOJI_STYLE)


def name_key(name: str) -> str:
    """The key two names share when they look alike: "Ann", "ann", "Ánn", "Anń", "Аnn" (Cyrillic),
    and "Ivan", "IVAN", "Іvan" (Cyrillic І).

    The name is taken as the app writes it (NFKC, `clean_name`) and without the characters that
    show nothing, so a name kept from before the name rules ("Ｂｏｂ", "ﬁona", "Tab\u200bby") has
    the key of the name a table would type for it today ("Bob", "fiona", "Tabby").
    """
    name = "".join(char for char, shows in _showing(clean_name(name)) if shows)
    # A capital that looks like a Latin capital (Greek Β, Cyrillic І) is that capital first,
    # then every capital is folded: the skeleton alone takes I for l, so "IVAN" and "Ivan"
    # would differ from "ivan". The skeleton after folding the case as well: a small
    # look-alike (β) is another letter's (ß).
    key = _capitals_as_latin(name).casefold()
    for _fold in range(3):  # a skeleton may hold capitals or marks again: fold until it settles
        folded = _without_marks(skeleton(_without_marks(skeleton(key)).casefold()))
        if folded == key:
            break
        key = folded
    if len(key) > KEY_MAX:
        return "#" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
    return key


def _capitals_as_latin(text: str) -> str:
    """Each capital letter that looks like a Latin capital written as that capital (no marks)."""
    table = _latin_capitals()
    return "".join(
        table.get(skeleton(char), char) if char != char.casefold() else char
        for char in _without_marks(text)
    )


@cache
def _latin_capitals() -> dict[str, str]:
    """The Latin capital letter of each capital's skeleton (I's is l)."""
    return {skeleton(char): char for char in string.ascii_uppercase}


def _without_marks(text: str) -> str:
    return "".join(
        char for char in unicodedata.normalize("NFD", text) if not unicodedata.combining(char)
    )


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, each character replaced by its prototype, NFD again."""
    table = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(table.get(char, char) for char in decomposed))


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype.

    The package keeps the table both ways (a prototype lists its look-alikes; a look-alike lists
    its one prototype). Where two characters only name each other, either may be the prototype:
    the smaller one is taken, which is all a comparison needs.
    """
    data = confusable_data.load("confusables.json")
    table: dict[str, str] = {}
    for raw, entries in data.items():
        char = raw.replace(_DIRECTION_MARK, "")
        if len(char) != 1 or len(entries) != 1:
            continue  # a prototype: it lists several look-alikes, or is several characters
        raw_target = entries[0]["c"]
        target = raw_target.replace(_DIRECTION_MARK, "")
        pair = len(data.get(raw_target, ())) == 1
        if pair and len(target) == 1 and target > char:
            continue  # the smaller of the two stands for both
        table[char] = target
    return table


def written_problem(name: str, most: int = NAME_MAX) -> str | None:
    """What keeps a cleaned, non-empty name from showing as written: too long (over `most`
    characters), a control or direction character, nothing visible, an invisible character."""
    if len(name) > most:
        return _(
            "'%(start)s…' is too long: at most %(most)s characters", start=name[:most], most=most
        )
    if any(unicodedata.category(char) in ("Cc", "Cs") for char in name):
        return _("%(name)s holds a control character", name=repr(name))
    if any(char in BIDI_CONTROLS for char in name):
        return _("%(name)s holds a character that reverses the text around it", name=repr(name))
    if all(unicodedata.category(char) in INVISIBLE for char in name):
        return _("%(name)s shows nothing on screen: use letters, digits or emoji", name=repr(name))
    if (hidden := invisible_character(name)) is not None:
        return _(
            "%(name)s holds an invisible character (%(code)s): type it again",
            name=repr(name),
            code=f"U+{ord(hidden):04X}",
        )
    return None


# --- At the table ---------------------------------------------------------------------------


def name_problems(raw: Sequence[str]) -> dict[int, str]:
    """What is wrong with each entered name (by its index): too long, unprintable, or a repeat.

    Blank names are not judged here: the form ignores them and `clean_names` refuses them.
    """
    problems: dict[int, str] = {}
    seen: dict[str, int] = {}
    for index, text in enumerate(raw):
        name = clean_name(text)
        if not name:
            continue
        if (problem := written_problem(name)) is not None:
            problems[index] = problem
        key = name_key(name)
        if key in seen and index not in problems:
            first = clean_name(raw[seen[key]])
            problems[index] = (
                _("'%(name)s' is already at the table: every name must differ", name=name)
                if first == name
                else _(
                    "'%(name)s' looks like '%(first)s', already at the table: every name must "
                    "differ by more than case, accents or look-alike letters",
                    name=name,
                    first=first,
                )
            )
        seen.setdefault(key, index)
    return problems


def rename_problems(
    names: Sequence[str], keys: Sequence[str], renamed: Mapping[int, str]
) -> dict[int, str]:
    """What is wrong with each new name of a seat (by seat), under the rules of a new game:
    empty, not shown as written, or looking like another seat's name as it will be."""
    written = {seat: clean_name(text) for seat, text in renamed.items()}
    final = [written.get(seat, name) for seat, name in enumerate(names)]
    final_keys = [
        name_key(final[seat]) if seat in written else key for seat, key in enumerate(keys)
    ]
    problems: dict[int, str] = {}
    for seat, name in sorted(written.items()):
        if name == names[seat]:
            continue  # kept as it is, even a name kept from before the name rules
        if not name:
            problems[seat] = _("the new name is empty")
        elif (problem := written_problem(name)) is not None:
            problems[seat] = problem
        elif (other := _alike(final_keys, seat)) is not None:
            problems[seat] = (
                _("'%(name)s' is already at the table: every name must differ", name=name)
                if final[other] == name
                else _(
                    "'%(name)s' looks like '%(other)s', at the table too: every name must differ "
                    "by more than case, accents or look-alike letters",
                    name=name,
                    other=final[other],
                )
            )
    return problems


def _alike(keys: Sequence[str], seat: int) -> int | None:
    """Another seat whose key is this seat's, if any."""
    return next(
        (other for other, key in enumerate(keys) if other != seat and key == keys[seat]), None
    )


def clean_names(raw: Sequence[str], *, as_played: bool = False) -> list[str]:
    """The names as stored, or `ScorebookError` for an empty, too long or repeated name.

    With `as_played` (names a game was already played under: playing again, an import), names
    an earlier release kept are kept as written even where today's rules refuse them (see
    `kept_as_played`).
    """
    if as_played and kept_as_played(raw):
        return list(raw)
    for index, text in enumerate(raw):
        if not clean_name(text):
            raise ScorebookError(
                _("the name of player %(player)s is empty", player=index + 1),
                problems={index: "empty"},
            )
    problems = name_problems(raw)
    if problems:
        index, message = next(iter(problems.items()))
        raise ScorebookError(
            _("player %(player)s: %(problem)s", player=index + 1, problem=message),
            problems=problems,
        ) from None
    return [clean_name(text) for text in raw]


# --- Names kept from before the name rules --------------------------------------------------
# The first releases kept a name trimmed, with single spaces, of 1 to NAME_MAX characters and
# no control character, every name of a game different from the others when case-folded; the
# rules came later (one written form, NFKC; no invisible or text-reversing characters; no
# look-alikes). An upgrade keeps such names as they were played, and an import and playing again
# accept exactly these.


def kept_as_played(names: Sequence[str]) -> bool:
    """True when an earlier release could have kept these names for one game, as written."""
    for name in names:
        if not isinstance(name, str) or name != " ".join(name.split()):
            return False
        if not 0 < len(name) <= NAME_MAX:
            return False
        if any(unicodedata.category(char) in ("Cc", "Cs") for char in name):
            return False
    folded = [name.casefold() for name in names]
    return len(set(folded)) == len(folded)


def seat_keys(names: Sequence[str], key_of: Callable[[str], str] = name_key) -> list[str]:
    """Each seat's stored key (`name_key`); a seat whose key an earlier seat of the game already
    has (look-alikes kept from before the name rules) gets "#<seat>" added, so each is unique."""
    keys: list[str] = []
    for seat, name in enumerate(names):
        key = key_of(name)
        if key in keys:
            key = f"{key[:64]}#{seat}"
        keys.append(key)
    return keys


def seat_of(game: Game, name: str) -> int:
    """The seat of a player named `name`: as stored, as the app writes it today, else anything
    that looks like it ("Ｂｏｂ", "Bob" and "bob" all name a seat kept as "Ｂｏｂ")."""
    written = clean_name(name)
    for player in game.players:
        if player.name in (name, written):
            return player.seat
    key = name_key(written)
    for player in game.players:
        if player.name_key == key:
            return player.seat
    raise ScorebookError(
        _(
            "unknown player %(name)s: the players are %(players)s",
            name=repr(name),
            players=", ".join(game.names),
        )
    )
