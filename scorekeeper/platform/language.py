"""The language a page speaks: the person's choice, kept per device in a cookie, else the
browser's `Accept-Language`, else the setting `DEFAULT_LANGUAGE`; Flask-Babel set up over the
catalogs the package ships (`scorekeeper/translations/`).

A language is offered once its catalog ships: English always, each other language when
`translations/<code>/LC_MESSAGES/messages.mo` is there, named in its own words by Babel (a new
language is a catalog, not a code change). The switch on every page is a row of
links (`/language/<choice>?next=<this page>`), so it works without script; a phone and the tablet
each keep their own choice.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlencode

from babel import Locale, UnknownLocaleError
from babel import numbers as babel_numbers
from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    has_request_context,
    redirect,
    request,
)
from flask_babel import (
    Babel,
    format_datetime,
    format_decimal,
    format_percent,
    get_babel,
    get_locale,
    get_translations,
)
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from ..rules import words
from ..rules.ruleset.words import ENGLISH as ENGLISH_SPEECH
from ..rules.ruleset.words import Speech
from .paths import cookie_path, here, local_path

TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"
COOKIE = "language"
# A choice is kept for a year of card evenings, renewed each time it is made.
COOKIE_SECONDS = 365 * 24 * 3600
ENGLISH = "en"
# Where the app keeps the languages it offers (`offered`).
OFFERED = "scorekeeper.languages"


@dataclass(frozen=True)
class Language:
    """A language the score book may speak: its code (`es_CL`) and its own name for itself."""

    code: str
    name: str

    @property
    def tag(self) -> str:
        """The code as HTML and HTTP write it (`es-CL`)."""
        return self.code.replace("_", "-")


ENGLISH_LANGUAGE = Language(ENGLISH, "English")


bp = Blueprint("language", __name__)


def init_app(app: Flask) -> None:
    """Flask-Babel over the shipped catalogs (or `BABEL_TRANSLATION_DIRECTORIES`), the switch's
    route, and the names every template sees."""
    if not app.config["BABEL_TRANSLATION_DIRECTORIES"]:
        app.config["BABEL_TRANSLATION_DIRECTORIES"] = str(TRANSLATIONS)
    Babel(app, locale_selector=_chosen_locale)
    # The catalogs are read once, as the app is made: a new one is offered after a restart.
    with app.app_context():
        app.extensions[OFFERED] = _shipped(get_babel().translation_directories)
    app.register_blueprint(bp)
    app.after_request(_vary)

    app.add_template_filter(say, "said")
    app.add_template_filter(decimal, "decimal")
    app.add_template_filter(percent, "percent")
    app.add_template_filter(number, "number")
    app.add_template_filter(when, "localtime")
    # A global, so a macro imported without the page's context writes in its language too.
    app.add_template_global(speech)
    app.add_template_global(back_here)

    @app.context_processor
    def _languages() -> dict:
        return {"languages": offered(), "page_language": page_language()}


def offered() -> tuple[Language, ...]:
    """English, and every language whose catalog ships."""
    return current_app.extensions[OFFERED]


def _shipped(folders: list[str]) -> tuple[Language, ...]:
    """English, then every language a catalog folder holds a compiled catalog for, by its code:
    a new language is a catalog, named in its own words by Babel's locale data."""
    codes = {
        path.parent.parent.name
        for folder in folders
        for path in Path(folder).glob("*/LC_MESSAGES/messages.mo")
    }
    return (
        ENGLISH_LANGUAGE,
        *(Language(code, own) for code in sorted(codes) if (own := _own_name(code))),
    )


def _own_name(code: str) -> str | None:
    """A language's name for itself (`Suomi`, `Español (Chile)`), or None for a folder that
    names no language Babel knows."""
    try:
        name = Locale.parse(code).get_display_name(code)
    except (ValueError, UnknownLocaleError):
        return None
    return name[:1].upper() + name[1:] if name else None


def chosen() -> str:
    """The request's language: the device's choice, else the best of `Accept-Language`, else
    `DEFAULT_LANGUAGE` (each only when offered); outside a request (a command), the default."""
    codes = [language.code for language in offered()]
    default = current_app.config["DEFAULT_LANGUAGE"]
    default = default if default in codes else ENGLISH
    if not has_request_context():
        return default
    choice = _cookie_choice()
    if choice in codes:
        return choice
    return _best_accepted(request.headers.get("Accept-Language"), tuple(codes)) or default


def _cookie_choice() -> str | None:
    """The language this device chose (its cookie), or None: a request that carries no cookie
    at all (a script asking the API) has made no choice, and its cookies are not looked for."""
    if "HTTP_COOKIE" not in request.environ:
        return None
    return request.cookies.get(COOKIE)


def _chosen_locale() -> Locale:
    """`chosen` as Flask-Babel takes it: the language's Babel locale."""
    return _locale(chosen())


@functools.lru_cache(maxsize=64)
def _locale(code: str) -> Locale:
    """A language's Babel locale, made once: it is the same for every request in that language."""
    return Locale.parse(code)


@functools.lru_cache(maxsize=256)
def _best_accepted(header: str | None, codes: tuple[str, ...]) -> str | None:
    """The offered language an `Accept-Language` header prefers, or None: weighed once for each
    header a browser sends, which it sends the same on every request."""
    best = parse_accept_header(header, LanguageAccept).best_match(
        [code.replace("_", "-") for code in codes]
    )
    return best.replace("-", "_") if best else None


def say(said: words.Message, *, sentence: bool = True) -> str:
    """An engine message in the request's language: its text from the language's catalog
    (English where the catalog has none), plural forms as that language counts; a sentence
    with its capital, or (`sentence=False`) words as an error quotes them."""
    return (words.render if sentence else words.words)(said, *_bound())


def spoken(text: str) -> str:
    """Text the engine wrote in English (a `words.Said`: a problem of a rule set, a rule set's
    name) in the request's language; any other text as it is."""
    if isinstance(text, words.Said) and speaker() is not None:
        return say(text.said, sentence=False)
    return text


def _bound() -> tuple[Callable[..., str], Callable[..., str]]:
    """Flask-Babel's `gettext` and `ngettext` over the request's catalog, found once: the
    module's own find it again on every call, and a verdict or a rule set's read-out makes
    dozens."""
    catalog = get_translations()

    def bound_gettext(text: str, **values) -> str:
        said = catalog.ugettext(text)
        return said % values if values else said

    def bound_ngettext(singular: str, plural: str, num: int, **values) -> str:
        values.setdefault("num", num)
        return catalog.ungettext(singular, plural, num) % values

    return bound_gettext, bound_ngettext


# Numbers as the score book writes them in every language: a real minus sign (−3.0), never a
# hyphen; the rest (the decimal mark, the space before %) as the language writes it.
MINUS = "−"
# A moment on a page: the day, the date and the time (`Fri 04 Dec, 20:15`, `pe 04 jouluk., 20:15`).
MOMENT = "EEE dd MMM, HH:mm"


def decimal(value: float) -> str:
    """An average with one decimal: 12.5 in English, 12,5 in Finnish, −3.0 with a real minus."""
    # Rounded as Python rounds the float, so 0.05 is 0.1 as it always was.
    return format_decimal(round(value, 1), "0.0").replace("-", MINUS)


def number(count: int) -> str:
    """A whole number grouped as the language writes it: 100,000 in English, 100 000 in
    Finnish, 100.000 in German; in English outside the app (a check made on its own)."""
    return babel_numbers.format_decimal(count, locale=get_locale() or ENGLISH)


def percent(share: float) -> str:
    """A share of a whole (0.41) in whole percent: 41% in English, 41 % in Finnish."""
    return format_percent(share)


def when(moment: datetime | None) -> str:
    """A stored UTC moment in the serving machine's clock, in the page's language."""
    if moment is None:
        return ""
    try:
        local = moment.replace(tzinfo=UTC).astimezone()
    except (OverflowError, ValueError, OSError):
        # Near year 1 or 9999 the local clock's offset falls outside what a date holds.
        return format_datetime(moment, MOMENT, rebase=False) + " UTC"
    return format_datetime(local.replace(tzinfo=None), MOMENT, rebase=False)


def speaker() -> Callable[..., str] | None:
    """What renders the engine's messages for this request: `say`, or None in English, where
    the words the engine already wrote are the page's (and cost nothing more)."""
    return None if str(get_locale() or ENGLISH) == ENGLISH else say


def speech() -> Speech:
    """What writes a rule set's sentences for this request (`RuleSet.summary(speech())`): the
    engine's English as written, or the request's language."""
    if str(get_locale() or ENGLISH) == ENGLISH:
        return ENGLISH_SPEECH
    return Speech(*_bound())


def page_language() -> str:
    """The page's language as `<html lang>` writes it (`es-CL`)."""
    return str(get_locale() or ENGLISH).replace("_", "-")


@bp.get("/language/<choice>")
def choose(choice: str) -> Response:
    """Keep `choice` (a language's code) as this device's language and go back to the page the
    switch was on."""
    back = local_path(request.args.get("next", ""))
    response = redirect(back, code=303)
    if choice in {language.code for language in offered()}:
        response.set_cookie(
            COOKIE,
            choice,
            max_age=COOKIE_SECONDS,
            path=cookie_path(COOKIE),
            samesite="Lax",
            secure=request.is_secure,
            httponly=True,
        )
    return response


# What a page's address may carry that the switch's link must not repeat: an edit key (a link
# that hands a tablet the right to edit is never written into a page, not even a refusal's).
SECRET_ARGUMENTS = ("key",)


def back_here() -> str:
    """This page's address for the switch to come back to: its path and its query, without
    what a link to the page must not repeat (`SECRET_ARGUMENTS`)."""
    kept = [
        (name, value)
        for name, value in request.args.items(multi=True)
        if name not in SECRET_ARGUMENTS
    ]
    query = urlencode(kept)
    return here() + (f"?{query}" if query else "")


def _vary(response: Response) -> Response:
    """A page's words (and a sheet's, downloaded as CSV) depend on the cookie and
    `Accept-Language`: say so to every cache."""
    if response.mimetype in ("text/html", "text/csv"):
        response.vary.update(("Cookie", "Accept-Language"))
    return response


def extract_engine_words(fileobj, keywords, comment_tags, options):
    """Babel's extractor for the engine's words (`babel.cfg`): each text of `rules.words.TEXTS`
    as gettext or ngettext finds it when `words.render` is handed them, its code the comment."""
    for code, entry in words.TEXTS.items():
        if isinstance(entry, words.Joining):
            texts = [entry.between, entry.last]
        else:
            texts = [entry.text, *entry.counts.values()]
        for text in texts:
            if isinstance(text, words.Plural):
                yield 0, "ngettext", (text.singular, text.plural), [code]
                continue
            yield 0, "gettext", text, [code]
            if text.startswith(words.NAMED):
                # Read on after the rule set's name, said already (`words.Part.AFTER_NAME`).
                yield 0, "gettext", text.removeprefix(words.NAMED), [f"{code} (after the name)"]
