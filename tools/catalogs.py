"""The catalogs the package ships, brought up to `messages.pot` and compiled (`make translations`).

Each language's `<code>/LC_MESSAGES/messages.po` is updated from the template (new messages
added untranslated, gone ones dropped, nothing guessed) and compiled to the `messages.mo` the app
reads. Spanish is one language with three tables' words for the game: a regional catalog
(`es_CL`, `es_MX`, `es_ES`) is only its `game-words.po`, the messages whose words differ there,
compiled over Spanish's whole catalog, since gettext reads one catalog per language.

    python tools/catalogs.py            update and compile every catalog
    python tools/catalogs.py --check    exit 1 when a compiled catalog is not its sources'
"""

from __future__ import annotations

import sys
from io import BytesIO
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

CATALOGS = Path(__file__).resolve().parent.parent / "scorekeeper" / "translations"
TEMPLATE = CATALOGS / "messages.pot"
MESSAGES = "messages"
# A regional catalog's own file: the game's words at that table, over its language's catalog.
GAME_WORDS = "game-words"


def source(code: str, name: str = MESSAGES) -> Path:
    return CATALOGS / code / "LC_MESSAGES" / f"{name}.po"


def compiled_path(code: str) -> Path:
    return CATALOGS / code / "LC_MESSAGES" / f"{MESSAGES}.mo"


def languages() -> list[str]:
    """Every language with a whole catalog (`es`, `fi`, ...)."""
    return sorted(path.parent.parent.name for path in CATALOGS.glob(f"*/LC_MESSAGES/{MESSAGES}.po"))


def regions() -> list[str]:
    """Every regional catalog (`es_CL`, ...): its game words over its language's catalog."""
    return sorted(
        path.parent.parent.name for path in CATALOGS.glob(f"*/LC_MESSAGES/{GAME_WORDS}.po")
    )


def read(path: Path, code: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=code)


def write(catalog: Catalog, path: Path) -> None:
    """A catalog as every tool of the project writes one: sorted, no source lines, 100 wide."""
    with path.open("wb") as file:
        write_po(file, catalog, width=100, no_location=True, sort_output=True)


def catalog(code: str) -> Catalog:
    """What `code`'s compiled catalog holds: its own, or (a region) its language's with the
    region's game words in place."""
    if code not in regions():
        return read(source(code), code)
    whole = read(source(code.split("_")[0]), code)
    for message in read(source(code, GAME_WORDS), code):
        if message.id in whole:
            whole[message.id].string = message.string
        elif message.id:
            whole[message.id] = message
    whole.locale = code
    return whole


def mo(whole: Catalog) -> bytes:
    """The compiled catalog, with only what is translated: a plural with a form left empty is
    left out whole, so the page says the English rather than nothing."""
    for message in list(whole):
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.id and not all(forms):
            whole.delete(message.id)
    out = BytesIO()
    write_mo(out, whole)
    return out.getvalue()


def update() -> None:
    """Every whole catalog brought up to the template; a region drops what the template lost."""
    template = read(TEMPLATE)
    ids = {message.id for message in template if message.id}
    for code in languages():
        whole = read(source(code), code)
        whole.update(template, no_fuzzy_matching=True, update_header_comment=False)
        whole.obsolete.clear()
        whole.fuzzy = False
        write(whole, source(code))
    for code in regions():
        words = read(source(code, GAME_WORDS), code)
        for message in list(words):
            if message.id and message.id not in ids:
                words.delete(message.id)
        write(words, source(code, GAME_WORDS))


def stale() -> list[str]:
    """The catalogs whose compiled file is not what their sources compile to."""
    codes = languages() + regions()
    return [
        code
        for code in codes
        if not compiled_path(code).is_file()
        or compiled_path(code).read_bytes() != mo(catalog(code))
    ]


def main(argv: list[str]) -> int:
    if "--check" in argv:
        late = stale()
        for code in late:
            print(f"{compiled_path(code)} is not its catalog compiled: run make translations")
        return 1 if late else 0
    update()
    for code in languages() + regions():
        compiled_path(code).write_bytes(mo(catalog(code)))
        print(f"compiled {code}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
