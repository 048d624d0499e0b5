"""Small language catalogs for the tests of the language switch: a few of the layout's words in
Finnish, and Chile's Spanish for one, compiled as `make translations` compiles a catalog."""

from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

FINNISH = {
    "New game": "Uusi peli",
    "Dark room": "Pimeä huone",
    "Language": "Kieli",
    # An engine message (rules/words.py: `opening.size`) and the plural it counts with.
    "%(contract)s needs at least %(least)s cards, one of them kept to discard: "
    "this hand has %(cards)s.": "%(contract)s vaatii vähintään %(least)s korttia, joista yksi "
    "jää poistettavaksi: tässä kädessä on %(cards)s.",
    ("%(num)s card", "%(num)s cards"): ("%(num)s kortti", "%(num)s korttia"),
    # An API error (`card.not_a_card`), its hint left to English.
    "'%(token)s' (card %(position)s) is not a card: %(hint)s": (
        "'%(token)s' (kortti %(position)s) ei ole kortti: %(hint)s"
    ),
    # The new game form's words (`games/forms.py`), and an API error of the score book.
    "Named": "Nimeltään",
    "Pick the first dealer, or draw at random.": "Valitse ensimmäinen jakaja tai arvo se.",
    "game %(game)s does not exist": "peliä %(game)s ei ole",
    # A flash as a game starts, and the limits' refusal with its wait counted in the plural.
    "Game started": "Peli alkoi",
    "%(news)s: %(dealer)s deals round 1.": "%(news)s: %(dealer)s jakaa kierroksen 1.",
    "games started": "aloitettuja pelejä",
    "too many %(what)s from this address (%(limit)s): nothing was changed, try again in "
    "%(wait)s": "liian monta: %(what)s tästä osoitteesta (%(limit)s): mitään ei muutettu, "
    "yritä uudelleen %(wait)s kuluttua",
    ("%(num)s minute", "%(num)s minutes"): ("%(num)s minuutin", "%(num)s minuutin"),
    ("%(num)s second", "%(num)s seconds"): ("%(num)s sekunnin", "%(num)s sekunnin"),
}
CHILEAN = {"New game": "Juego nuevo"}


def small_catalogs(folder: Path, languages: dict[str, dict] | None = None) -> Path:
    """`folder` holding the Finnish and Chilean catalogs above (`<code>/LC_MESSAGES/messages.mo`),
    or the catalogs `languages` gives (a language's code: its texts)."""
    for code, texts in (languages or {"fi": FINNISH, "es_CL": CHILEAN}).items():
        catalog = Catalog(locale=code)
        for english, translated in texts.items():
            catalog.add(english, translated)
        target = folder / code / "LC_MESSAGES"
        target.mkdir(parents=True)
        with open(target / "messages.mo", "wb") as stream:
            write_mo(stream, catalog)
    return folder
