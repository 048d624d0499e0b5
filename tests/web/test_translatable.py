"""Every word a person reads in a template is translatable: text and readable attributes stand
inside `_()` or a `{% trans %}` block, so the catalogs can carry them.

Jinja's own lexer splits each template into its data and its tags; data inside a trans block is
translated, data outside it is read as HTML, and any text or readable attribute that still holds
a letter once markup, entities, punctuation, digits and card notation are gone is a finding."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from jinja2 import Environment, nodes

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
# The templates read as the app reads them: Jinja's default delimiters and the i18n extension
# (`test_the_app_reads_templates_as_this_reading_does` holds the app to it). One environment for
# every template, rather than an app for each.
ENV = Environment(extensions=["jinja2.ext.i18n"])

# Where a template's tags stood: no letter, so the text around it is read as it would render.
TAG = "\ue000"
# Attributes a person reads (or hears): any element's, and a button's or description's words.
READABLE = {"aria-label", "title", "placeholder", "alt"}
BUTTON_INPUTS = {"submit", "button", "reset"}
# Not words to translate: the product's name, and card notation (ranks, the joker, R-numbers).
NOT_WORDS = re.compile(r"\b(?:Liverpool|Scorekeeper|JK|[JQKA]|R\d+)\b")


def templates() -> list[Path]:
    return sorted(TEMPLATES.rglob("*.html"))


def untranslated_source(env, source: str) -> str:
    """The template with every tag, expression and translated block replaced by `TAG`, each line
    where it was, so what is left is the HTML a person reads untranslated."""
    out: list[str] = []
    line = 1
    depth = 0
    tokens = [token for token in env.lex(source) if token[1] != "whitespace"]
    for index, (lineno, kind, value) in enumerate(tokens):
        if lineno > line:
            out.append("\n" * (lineno - line))
            line = lineno
        if kind == "name" and index and tokens[index - 1][1] == "block_begin":
            depth += value == "trans"
            depth -= value == "endtrans"
        if kind == "data" and not depth:
            out.append(value)
            line += value.count("\n")
        elif kind in ("variable_begin", "block_begin"):
            out.append(TAG)
    return "".join(out)


def has_words(text: str) -> bool:
    return any(char.isalpha() for char in NOT_WORDS.sub("", text.replace(TAG, "")))


class Reader(HTMLParser):
    """Notes each run of text and each readable attribute that holds words, by line."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.findings: list[tuple[int, str]] = []
        self.raw: str | None = None

    def note(self, text: str) -> None:
        if has_words(text):
            self.findings.append((self.getpos()[0], " ".join(text.replace(TAG, "…").split())))

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.raw = tag
        values = dict(attrs)
        for name, value in attrs:
            readable = name in READABLE
            readable |= name == "value" and tag == "input" and values.get("type") in BUTTON_INPUTS
            readable |= name == "content" and tag == "meta" and values.get("name") == "description"
            if readable and value:
                self.note(value)

    def handle_endtag(self, tag):
        if tag == self.raw:
            self.raw = None

    def handle_data(self, data):
        if self.raw is None:
            self.note(data)


def readable_constants(env, source: str) -> list[tuple[int, str]]:
    """Readable attributes a template passes to a form field as a string of its own
    (`field(placeholder="Name")`)."""
    return [
        (keyword.lineno, keyword.value.value)
        for keyword in env.parse(source).find_all(nodes.Keyword)
        if keyword.key.replace("_", "-") in READABLE
        and isinstance(keyword.value, nodes.Const)
        and has_words(str(keyword.value.value))
    ]


def findings(env, path: Path, root: Path = TEMPLATES) -> list[str]:
    source = path.read_text(encoding="utf-8")
    reader = Reader()
    reader.feed(untranslated_source(env, source))
    reader.close()
    found = sorted(reader.findings + readable_constants(env, source))
    name = path.relative_to(root)
    return [f"{name}:{line}: {text}" for line, text in found]


@pytest.mark.parametrize("path", templates(), ids=lambda path: str(path.relative_to(TEMPLATES)))
def test_every_word_a_person_reads_is_translatable(path):
    assert findings(ENV, path) == []


def test_the_app_reads_templates_as_this_reading_does(app):
    for setting in ("block_start_string", "variable_start_string", "comment_start_string"):
        assert getattr(app.jinja_env, setting) == getattr(ENV, setting)
    assert "jinja2.ext.InternationalizationExtension" in app.jinja_env.extensions


def test_the_reading_finds_untranslated_words_and_passes_translated_ones(tmp_path):
    page = tmp_path / "page.html"
    page.write_text(
        '<h1>{{ _("Scores") }}</h1>\n'
        "{% trans trimmed n=3 %}Round {{ n }}{% endtrans %}\n"
        '<button aria-label="Undo">↶</button> <input type="submit" value="Save">\n'
        '<input type="hidden" value="delete"><script>let a = "b";</script>\n'
        "<p>♠ Liverpool Scorekeeper · 10♥ JK R1 &amp; 2</p>\n"
        '<p title="{{ _("Points") }}">{{ total }} left</p>{{ f(placeholder="Name") }}\n',
        encoding="utf-8",
    )
    assert findings(ENV, page, tmp_path) == [
        "page.html:3: Save",
        "page.html:3: Undo",
        "page.html:6: Name",
        "page.html:6: … left",
    ]


# --- Scripts ------------------------------------------------------------------------------------

STATIC = TEMPLATES.parent / "static"
# A string literal of a script: "…", '…' or `…` (a template's ${…} stripped before it is read).
LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'|`((?:[^`\\]|\\.)*)`')
COMMENTS = re.compile(r"/\*.*?\*/|(?:^|\s)//[^\n]*", re.S | re.M)
# Not words: selectors, attribute, class and key names, import paths, HTTP headers and events.
CODE_LIKE = re.compile(
    r"^(?:\./.*|[.#\[].*|.*[=\[\]>()/].*"  # paths, selectors, expressions
    r"|[a-z][a-z0-9_-]*(?: [a-z][a-z0-9_-]*)*"  # names and class lists: `pad-row pad-ranks`
    r"|[A-Z][A-Z0-9_]*|[A-Za-z]+(?:-[A-Z][a-z]+)+|[a-z]*[A-Z][a-z]+[A-Z]\w*"  # SELECT, If-Match
    r"|[a-z]+[A-Z]\w*|[A-Z]{2,}[a-z]\w*|[\w-]+\.[\w.:-]+|-.*|\^.*|\{\w+\}|\d+-\w+"  # names
    r"|Escape|Enter|Tab|Backspace|Delete|Home|End|Arrow\w+)$"  # the keys a script listens for
)


def script_words(source: str) -> list[tuple[int, str]]:
    """The literals of a script that read as words to a person: two words or more, or one
    capitalised word (what is left once code-like literals are set aside)."""
    code = COMMENTS.sub(lambda found: "\n" * found.group().count("\n"), source)
    found = []
    for literal in LITERAL.finditer(code):
        text = next(group for group in literal.groups() if group is not None)
        bare = re.sub(r"\$\{[^}]*\}", "", text).strip()
        if not re.search(r"[A-Za-z]{2}", bare) or CODE_LIKE.match(bare):
            continue
        found.append((code[: literal.start()].count("\n") + 1, text))
    return found


@pytest.mark.parametrize("path", sorted(STATIC.glob("*.js")), ids=lambda path: path.name)
def test_a_script_holds_no_words_of_its_own(path):
    """A script's words come from the server in the page's language (templates/_script_words.html,
    a form's `data-words`): any English literal a person could read is a finding."""
    assert [f"{path.name}:{line}: {text}" for line, text in script_words(path.read_text())] == []


def test_the_script_reading_finds_words_and_passes_code():
    found = script_words(
        'el.textContent = "Scores updated";\n'
        "/* a comment with words */\n"
        'const x = document.querySelector("form.round-form");\n'
        'button.className = "secondary pad-undo";\n'
        "note.title = `Points for ${name}`;\n"
        'if (event.key === "Escape") close();\n'
        'label = "Undo";\n'
    )
    assert found == [(1, "Scores updated"), (5, "Points for ${name}"), (7, "Undo")]
