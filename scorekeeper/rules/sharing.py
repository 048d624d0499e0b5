"""A rule set carried away from the tablet: a share code for a link or a QR code, and a file.

The code is the whole document (its compact JSON, `RuleSet.dumps`) compressed with raw deflate
and written in base64url without padding, so it fits in an address and another tablet needs
nothing from this one to read it. The file is the same document indented, for a person to read
and for the download, the upload and the command line to agree byte for byte.

Pure Python like the rest of the engine: no Flask, no database.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import unicodedata
import zlib

from .errors import RuleSetError
from .ruleset import RuleSet
from .ruleset.schema import MOST_TEXT, UNNAMED
from .words import Code, message


class Damaged(Code):
    """What keeps a share code from holding a rule set."""

    NOT_TEXT = "share.not_text"
    EMPTY = "share.empty"
    TOO_LONG = "share.too_long"
    DAMAGED = "share.damaged"
    TOO_BIG = "share.too_big"
    CUT_SHORT = "share.cut_short"
    NO_TEXT = "share.no_text"
    NO_RULES = "share.no_rules"


# Raw deflate: no zlib header or checksum, a few bytes fewer in every link.
_WINDOW = -15
# The text of a code: base64url's alphabet, no padding.
_CODE = re.compile(r"[A-Za-z0-9_-]*")
# Any document the reader takes is at most MOST_TEXT characters, of at most 4 bytes each: a code
# that inflates to more is refused before it is read, however small it is itself.
MOST_INFLATED = MOST_TEXT * 4
FILE_SUFFIX = ".rules.json"


def code(rules: RuleSet) -> str:
    """The share code of a rule set: URL-safe text that holds its whole document."""
    packer = zlib.compressobj(9, zlib.DEFLATED, _WINDOW)
    packed = packer.compress(rules.dumps().encode("utf-8")) + packer.flush()
    return base64.urlsafe_b64encode(packed).rstrip(b"=").decode("ascii")


def from_code(text: object) -> RuleSet:
    """The rule set a share code holds; `RuleSetError` naming the problem under "rules" for a
    code that is damaged (cut short, mistyped), and every problem of a document that is not
    playable (R11)."""
    if not isinstance(text, str):
        raise _damaged(Damaged.NOT_TEXT)
    text = text.strip()
    if not text:
        raise _damaged(Damaged.EMPTY)
    if len(text) > MOST_TEXT:
        raise _damaged(Damaged.TOO_LONG)
    if not _CODE.fullmatch(text) or len(text) % 4 == 1:
        raise _damaged(Damaged.DAMAGED)
    try:
        packed = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise _damaged(Damaged.DAMAGED) from None
    unpacker = zlib.decompressobj(_WINDOW)
    try:
        data = unpacker.decompress(packed, MOST_INFLATED + 1)
    except zlib.error:
        raise _damaged(Damaged.DAMAGED) from None
    if len(data) > MOST_INFLATED or unpacker.unconsumed_tail:
        raise _damaged(Damaged.TOO_BIG)
    if not unpacker.eof or unpacker.unused_data:
        raise _damaged(Damaged.CUT_SHORT)
    try:
        document = data.decode("utf-8")
    except UnicodeDecodeError:
        raise _damaged(Damaged.NO_TEXT) from None
    if not document.lstrip().startswith("{"):
        raise _damaged(Damaged.NO_RULES)
    return RuleSet.parse(document)


def _damaged(code: Damaged) -> RuleSetError:
    """The error for a damaged code, its problem under "rules" (the longest a code may be, where
    its words name it)."""
    return RuleSetError(message(code, most=MOST_TEXT))


def file_text(rules: RuleSet) -> str:
    """The rule set's file: its document indented, keys in the document's order, any script
    written as it is (the download, the upload and `flask rules export` all write this)."""
    return json.dumps(rules.to_json(), indent=2, ensure_ascii=False) + "\n"


def file_name(rules: RuleSet) -> str:
    """A file name for the download: `smith-family.rules.json` (letters without accents, other
    characters as one dash; `house.rules.json` for a name with no such letter)."""
    plain = unicodedata.normalize("NFKD", rules.name).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-") or UNNAMED.lower()
    return slug + FILE_SUFFIX
