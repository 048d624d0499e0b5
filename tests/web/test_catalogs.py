"""The catalogs the package ships: the template holds every message the code marks, every
language translates every one of them with the same placeholders, markup and plural forms, and
each compiled catalog is its sources compiled (`make translations`)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo

ROOT = Path(__file__).resolve().parents[2]


def _tool():
    """tools/ is not a package: the catalog tool is loaded from its file."""
    spec = importlib.util.spec_from_file_location("catalogs", ROOT / "tools" / "catalogs.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("catalogs", module)
    spec.loader.exec_module(module)
    return module


catalogs = _tool()
SHIPPED = catalogs.languages() + catalogs.regions()
# What must survive translation untouched: placeholders (`%(name)s`, `{card}`) and markup.
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w*\}")
TAG = re.compile(r"</?[a-z][^>]*>")


def template_ids(path: Path) -> set[str]:
    return {_key(message) for message in catalogs.read(path) if message.id}


def _key(message) -> str:
    return message.id[0] if isinstance(message.id, tuple | list) else message.id


def _forms(message) -> tuple[str, ...]:
    string = message.string
    return tuple(string) if isinstance(string, tuple | list) else (string,)


def test_every_language_the_score_book_is_written_for_ships_a_catalog():
    # Spanish with Chile's, Mexico's and Spain's words for the game, Finnish, German, French.
    assert sorted(SHIPPED) == ["de", "es", "es_CL", "es_ES", "es_MX", "fi", "fr"]


def test_the_template_holds_every_message_the_code_marks(tmp_path):
    """Extracted again from the sources, the template is the one in the repository: a message
    marked and not extracted (or extracted and gone from the code) fails here."""
    fresh = tmp_path / "messages.pot"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "babel.messages.frontend",
            "-q",
            "extract",
            "-F",
            "babel.cfg",
            "-k",
            "_l",
            "-k",
            "lazy_gettext",
            "--no-location",
            "-o",
            str(fresh),
            ".",
        ],
        cwd=ROOT,
        check=True,
    )
    shipped = template_ids(catalogs.TEMPLATE)
    extracted = template_ids(fresh)
    assert sorted(extracted - shipped) == [], "marked but not in messages.pot: make translations"
    assert sorted(shipped - extracted) == [], "in messages.pot but no longer in the code"


@pytest.mark.parametrize("code", SHIPPED)
def test_a_catalog_translates_every_message_in_every_plural_form(code):
    whole = catalogs.catalog(code)
    problems = []
    for english in catalogs.read(catalogs.TEMPLATE):
        if not english.id:
            continue
        message = whole.get(english.id)
        if message is None:
            problems.append(f"missing: {_key(english)!r}")
            continue
        if message.fuzzy:
            problems.append(f"fuzzy: {_key(english)!r}")
        forms = _forms(message)
        if isinstance(english.id, tuple) and len(forms) != whole.num_plurals:
            problems.append(f"{len(forms)} of {whole.num_plurals} plural forms: {_key(english)!r}")
        if not all(forms):
            problems.append(f"untranslated: {_key(english)!r}")
    assert problems == []


@pytest.mark.parametrize("code", SHIPPED)
def test_a_translation_keeps_the_placeholders_and_markup(code):
    """Every placeholder and tag of the English, no other; a plural's singular may say "one"
    where English writes the number, never name what the English does not."""
    problems = []
    for message in catalogs.catalog(code):
        if not message.id or not all(_forms(message)):
            continue
        english = message.id if isinstance(message.id, tuple) else (message.id,)
        wanted = set(PLACEHOLDER.findall(" ".join(english)))
        tags = sorted(TAG.findall(english[0]))
        for number, form in enumerate(_forms(message)):
            found = set(PLACEHOLDER.findall(form))
            last = number == len(_forms(message)) - 1
            if found - wanted or (last or len(english) == 1) and found != wanted:
                problems.append(f"{sorted(found)} for {sorted(wanted)}: {english[0]!r}")
            if sorted(TAG.findall(form)) != tags:
                problems.append(f"markup {TAG.findall(form)} for {tags}: {english[0]!r}")
    assert problems == []


def test_each_compiled_catalog_is_its_sources_compiled():
    assert catalogs.stale() == []


@pytest.mark.parametrize("code", catalogs.regions())
def test_a_region_says_only_the_game_words_its_language_says_otherwise(code):
    """A regional catalog holds messages of the template, each worded otherwise than its
    language's, and its compiled file has them over the language's."""
    language = code.split("_")[0]
    whole = catalogs.read(catalogs.source(language), language)
    words = [m for m in catalogs.read(catalogs.source(code, catalogs.GAME_WORDS)) if m.id]
    assert words, f"{code} says nothing of its own"
    assert {_key(m) for m in words} <= template_ids(catalogs.TEMPLATE)
    assert [_key(m) for m in words if whole[m.id].string == m.string] == []
    with catalogs.compiled_path(code).open("rb") as file:
        compiled = read_mo(file)
    assert all(_forms(compiled[m.id]) == _forms(m) for m in words)
    translated = {_key(m) for m in whole if m.id and all(_forms(m))}
    assert {_key(m) for m in compiled if m.id} == translated


def test_a_plural_not_yet_translated_is_left_out_of_the_compiled_catalog(tmp_path):
    """gettext answers an empty form with nothing at all: an untranslated plural must read as
    its English, so it is not compiled."""
    from io import BytesIO

    from babel.messages.catalog import Catalog

    whole = Catalog(locale="fi")
    whole.add(("%(num)s card", "%(num)s cards"), ("", ""))
    whole.add(("%(num)s deal", "%(num)s deals"), ("%(num)s jako", "%(num)s jakoa"))
    compiled = read_mo(BytesIO(catalogs.mo(whole)))
    assert [_key(m) for m in compiled if m.id] == ["%(num)s deal"]
