"""The docs a newcomer reads: the README is a page, every link in the manual lands, the
generated pages say what the code says today, and every rule the code cites has its text in the
repository's own rulebook (docs/rulebook.md)."""

from __future__ import annotations

import importlib.util
import re
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
README_LIMIT = 12 * 1024
# A rule as the code cites it: `R5`, `R11`, `R4.3` (a point of R4); `R11:wild_deuces` cites R11.
CITATION = re.compile(r"\bR(\d{1,2})(?:\.(\d+))?\b")
CITING = [ROOT / "scorekeeper", ROOT / "templates", ROOT / "static"]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
ANCHOR = re.compile(r'<a id="([^"]+)"></a>')


def _load_generator():
    """tools/ is not a package: the generator is loaded from its file (dataclasses need it in
    sys.modules while its classes are made)."""
    spec = importlib.util.spec_from_file_location("make_docs", ROOT / "tools" / "make_docs.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)
    spec.loader.exec_module(module)
    return module


make_docs = _load_generator()


def cited_rules(text: str) -> set[str]:
    """Every rule a text cites, as its anchor in the rulebook: `r4`, `r4.3`."""
    return {
        f"r{number}" + (f".{point}" if point else "") for number, point in CITATION.findall(text)
    }


def anchors(text: str) -> set[str]:
    """The places a link may name in a Markdown page: explicit anchors and GitHub's heading ids."""
    found = set(ANCHOR.findall(text))
    seen: dict[str, int] = {}
    for line in _outside_code(text).splitlines():
        if not line.startswith("#"):
            continue
        words = re.sub(r"<[^>]+>", "", line.lstrip("#")).strip().lower()
        slug = re.sub(r"[^\w\- ]", "", words).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if not count else f"{slug}-{count}")
    return found


def _outside_code(text: str) -> str:
    return re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)


def test_the_readme_is_a_page_not_a_manual():
    readme = (ROOT / "README.md").read_bytes()
    assert len(readme) <= README_LIMIT, f"README.md is {len(readme)} bytes"
    text = readme.decode("utf-8")
    for said in ("make run", "make test", ".ci/run", "## Dependencies, and why each is there"):
        assert said in text, said


def test_the_readme_names_every_dependency():
    """Each package the project installs has its line saying why it is there."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = project["dependencies"] + sum(project["optional-dependencies"].values(), [])
    declared = [re.match(r"[A-Za-z0-9_.-]+", line).group().lower() for line in wanted]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = [line.split("|")[1] for line in readme.splitlines() if line.startswith("| ")]
    named = " ".join(table).lower()
    missing = [name for name in declared if name not in named and name != "liverpool-scorekeeper"]
    assert len(declared) > 15
    assert missing == []


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_link_lands(page):
    """Each relative link names a file that exists, and a place in it that exists."""
    broken = []
    for target in LINK.findall(_outside_code(page.read_text(encoding="utf-8"))):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, place = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        landed = file.exists() and (
            not place or file.suffix != ".md" or place in anchors(file.read_text(encoding="utf-8"))
        )
        if not landed:
            broken.append(target)
    assert broken == []


def test_the_anchors_are_read_as_github_makes_them():
    text = "# Why HTTPS, and the two QR codes\n## Busy\n## Busy\n```\n# not a heading\n```\n"
    text += '## <a id="r4"></a>R4 Melds\n'
    assert anchors(text) == {"why-https-and-the-two-qr-codes", "busy", "busy-1", "r4", "r4-melds"}


@pytest.mark.parametrize("page", sorted(make_docs.PAGES))
def test_the_generated_pages_say_what_the_code_says(page):
    """Run `python tools/make_docs.py` after changing a docstring, an import or a rule's text."""
    committed = (DOCS / page).read_text(encoding="utf-8")
    assert make_docs.updated(page) == committed


def test_every_module_has_a_docstring_and_its_line_on_the_architecture_page():
    page = (DOCS / "architecture.md").read_text(encoding="utf-8")
    modules = make_docs.modules()
    assert len(modules) > 50
    assert [module.name for module in modules if not (module.docstring or "").strip()] == []
    for module in modules:
        said = make_docs.summary(module.docstring)
        if module.is_package:
            assert f"{said}\n" in page, module.name
        else:
            folder = module.path.parent if module.top_level else make_docs.PACKAGE / module.group
            shown = module.path.relative_to(folder).as_posix()
            assert f"- `{shown}`: {said}\n" in page, module.name


def test_the_layers_are_read_from_the_imports():
    layer = make_docs.layers(make_docs.modules())
    assert layer["rules"] == "engine"
    assert layer["games"] == layer["rulesets"] == layer["referee"] == "feature"
    assert layer["platform"] == "plumbing"
    assert layer["factory"] == "app"


def test_every_rule_the_code_cites_has_its_text_in_the_rulebook():
    page = (DOCS / "rulebook.md").read_text(encoding="utf-8")
    written = anchors(page)
    cited: dict[str, set[str]] = {}
    for folder in CITING:
        for path in sorted(folder.rglob("*")):
            if path.suffix in {".py", ".html", ".js", ".css", ".json"}:
                for rule in cited_rules(path.read_text(encoding="utf-8")):
                    cited.setdefault(rule, set()).add(path.relative_to(ROOT).as_posix())
    assert {"r1", "r4.3", "r5.4", "r11"} <= cited.keys()
    missing = {rule: sorted(where) for rule, where in cited.items() if rule not in written}
    assert missing == {}


def test_a_citation_with_no_text_is_seen():
    """The scan reads points and settings: `R5.9` is not in the rulebook, `R11:naturals` is R11."""
    written = anchors((DOCS / "rulebook.md").read_text(encoding="utf-8"))
    said = 'Problem("…", "R5.9") and R13, but rules.citation("naturals", "R11:naturals")'
    assert cited_rules(said) == {"r5.9", "r13", "r11"}
    assert cited_rules(said) - written == {"r5.9", "r13"}
