"""Player names as a table sees them: one written form, and one key for names that look alike.

Two seats whose names differ only by case, by accents (composed or not) or by look-alike letters
of other scripts would make the ledger ambiguous, so they share one key (`name_key`): the name
case-folded, stripped of combining marks and reduced to its Unicode confusable skeleton (UTS #39,
with the confusables table of the `confusable_homoglyphs` package).
"""

from __future__ import annotations

import hashlib
import unicodedata
from functools import cache

from confusable_homoglyphs import utils as confusable_data

# The stored key's column holds this many characters; a longer key is kept as its hash.
KEY_MAX = 72
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
    for index, char in enumerate(name):
        before = name[index - 1] if index else ""
        after = name[index + 1] if index + 1 < len(name) else ""
        if char == ZERO_WIDTH_JOINER and _emoji(before) and _emoji(after):
            continue
        if char == EMOJI_STYLE and _emoji(before):
            continue
        if char in INVISIBLE_CHARACTERS or unicodedata.category(char) == "Cf":
            return char
    return None


def _emoji(char: str) -> bool:
    """A picture character, or a part of an emoji sequence (skin tone, style selector)."""
    return bool(char) and (unicodedata.category(char) in ("So", "Sk") or char == EMOJI_STYLE)


def name_key(name: str) -> str:
    """The key two names share when they look alike: "Ann", "ann", "Ánn", "Anń", "Аnn" (Cyrillic)."""
    # The skeleton before folding the case as well as after: a capital look-alike (Greek Β)
    # is a capital letter's (B), while its small letter (β) is another's (ß).
    key = name
    for _ in range(3):  # a skeleton may hold capitals or marks again: fold until it settles
        folded = _without_marks(skeleton(_without_marks(skeleton(key)).casefold()))
        if folded == key:
            break
        key = folded
    if len(key) > KEY_MAX:
        return "#" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
    return key


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
