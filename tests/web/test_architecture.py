"""The shape of the code: the direction of imports, no cycles, no feature built on another's pages
or API, plumbing that names no feature, every write route write-once, the engine importing alone,
and the tests on the engine they say."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import make_url

from scorekeeper import create_app
from tests.support.config import ENGINE, TEST_CONFIG

PACKAGE = Path(__file__).resolve().parents[2] / "scorekeeper"


def in_package(name: str, package: str) -> bool:
    """Whether module `name` is `package` or inside it (`scorekeeper.rulesets` is not in
    `scorekeeper.rules`)."""
    return name == package or name.startswith(package + ".")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imports_of(name: str) -> set[str]:
    """The project modules `name` imports, anywhere in it (inside functions too); `from . import
    x` counts as importing the module x, not its package."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            submodules = {f"{target}.{alias.name}" for alias in node.names}
            found.update(submodules & MODULES.keys() or {target})
    return {module for module in found if module in MODULES and module != name}


GRAPH = {name: imports_of(name) for name in MODULES}


def test_there_is_no_import_cycle():
    """Every module can be read after the ones it imports: the graph has no cycle."""
    done: set[str] = set()
    path: list[str] = []

    def visit(name: str) -> None:
        if name in path:
            cycle = path[path.index(name) :] + [name]
            pytest.fail("import cycle: " + " -> ".join(cycle))
        if name in done:
            return
        path.append(name)
        for target in sorted(GRAPH[name]):
            visit(target)
        path.pop()
        done.add(name)

    for name in sorted(GRAPH):
        visit(name)


def test_the_engine_imports_nothing_outside_itself():
    for name, path in MODULES.items():
        if not in_package(name, "scorekeeper.rules"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                top = node.module.split(".")[0]
                assert top not in {"scorekeeper", "flask", "sqlalchemy", "wtforms"}, (name, top)
            if isinstance(node, ast.Import):
                for alias in node.names:
                    assert alias.name.split(".")[0] not in {"scorekeeper", "flask"}, name
        assert all(in_package(target, "scorekeeper.rules") for target in GRAPH[name]), name


# The layers, bottom up: rules <- platform <- games, rulesets <- referee, phones, season <- nights
# <- league <- app.
FEATURES_ABOVE = (
    "scorekeeper.referee",
    "scorekeeper.phones",
    "scorekeeper.season",
    "scorekeeper.nights",
    "scorekeeper.league",
)
APP = (
    "scorekeeper.home",
    "scorekeeper.organisers",
    "scorekeeper.factory",
    "scorekeeper.cli",
    "scorekeeper.serve",
    "scorekeeper.deployment",
    "scorekeeper.command",
)
ONE_WAY = [
    ("scorekeeper.platform", "scorekeeper.games"),
    ("scorekeeper.platform", "scorekeeper.rulesets"),
    *(("scorekeeper.platform", above) for above in FEATURES_ABOVE + APP),
    *(("scorekeeper.games", above) for above in FEATURES_ABOVE + APP),
    *(("scorekeeper.rulesets", above) for above in FEATURES_ABOVE + APP),
    *(("scorekeeper.tls", above) for above in FEATURES_ABOVE + APP),
    *((below, "scorekeeper.nights") for below in FEATURES_ABOVE[:3]),
    *((below, "scorekeeper.league") for below in FEATURES_ABOVE[:4]),
    ("scorekeeper.rules", "scorekeeper.platform"),
    ("scorekeeper.rules", "scorekeeper.games"),
]


@pytest.mark.parametrize(("layer", "never"), ONE_WAY)
def test_dependencies_point_one_way(layer, never):
    """rules <- platform <- games, rulesets <- referee, phones, season <- app: no layer reaches
    into one above it (the plumbing knows no feature, the score book none built on it)."""
    assert any(in_package(name, layer) for name in GRAPH), layer
    for name, targets in GRAPH.items():
        if in_package(name, layer):
            wrong = sorted(t for t in targets if in_package(t, never))
            assert not wrong, f"{name} imports {wrong}"


FEATURES = ("games", "rulesets", "phones", "season", "referee", "tls", "nights", "league")


def feature_of(name: str) -> str | None:
    parts = name.split(".")
    return parts[1] if len(parts) > 2 and parts[1] in FEATURES else None


def is_pages_or_api(name: str) -> bool:
    """A feature's requests answered: its pages (`views`, `pages`) or its JSON `api`."""
    return any(part in {"views", "pages", "api"} for part in name.split(".")[2:])


def test_no_feature_imports_another_features_pages_or_api():
    """A feature builds on another's service, queries and forms, never on its pages or API: the
    plumbing they share lives beneath every feature, in `scorekeeper.platform`."""
    wrong = sorted(
        f"{name} imports {target}"
        for name, targets in GRAPH.items()
        for target in targets
        if feature_of(name)
        and feature_of(target) not in (None, feature_of(name))
        and is_pages_or_api(target)
    )
    assert not wrong, wrong


# The plumbing under every feature: it names no feature's address or header (each feature
# gives its own, like a route's write-once `Scope`).
# The settings' catalogue is the exception: it describes every setting for people, features' too.
PLUMBING = [
    name
    for name in MODULES
    if in_package(name, "scorekeeper.platform") and name != "scorekeeper.platform.settings"
]
FEATURE_WORDS = ("/games", "/rulesets", "/players", "/join", "/referee", "X-Seat", "X-Game")


@pytest.mark.parametrize("name", PLUMBING)
def test_the_plumbing_names_no_features_address_or_header(name):
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    strings = [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]
    docstrings = {
        ast.get_docstring(node, clean=False)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef)
    }
    named = sorted(
        text
        for text in strings
        if text not in docstrings and any(word in text for word in FEATURE_WORDS)
    )
    assert not named, named


ENGINE_MODULES = sorted(name for name in MODULES if in_package(name, "scorekeeper.rules"))
# Run in a fresh interpreter: each import in turn, and every module it brought in that is neither
# the engine nor the standard library.
IMPORT_ALONE = """
import json, sys
outside = {}
for name in sys.argv[1:]:
    before = set(sys.modules)
    __import__(name)
    outside[name] = sorted(
        module
        for module in set(sys.modules) - before
        if module != "scorekeeper"
        and module.split(".")[:2] != ["scorekeeper", "rules"]
        and module.split(".")[0] not in sys.stdlib_module_names
    )
print(json.dumps(outside))
"""


def test_the_engine_imports_alone():
    """`import scorekeeper.rules` (and each of its modules) loads nothing but the engine and the
    standard library: no Flask, no SQLAlchemy, not the score book or the web shell."""
    answer = subprocess.run(
        [sys.executable, "-c", IMPORT_ALONE, *ENGINE_MODULES],
        cwd=PACKAGE.parent,
        capture_output=True,
        text=True,
        check=True,
    )
    outside = json.loads(answer.stdout)
    assert set(outside) == set(ENGINE_MODULES)
    assert {name: found for name, found in outside.items() if found} == {}


# The rule set's modules (R11): named, so a rename cannot drop them from the runs above.
RULE_SET_MODULES = [
    "scorekeeper.rules.errors",
    "scorekeeper.rules.citing",
    "scorekeeper.rules.ruleset",
    "scorekeeper.rules.document",
    "scorekeeper.rules.ruleset.schema",
    "scorekeeper.rules.ruleset.values",
    "scorekeeper.rules.ruleset.words",
]
# Fresh interpreters, one per module: import only it, then use a rule set as the score book and
# the referee do. `RuleSet` is defined above its settings, its reader and its words, so each of
# its methods is where Python finds it: whichever module comes first, all of it works.
USE_ALONE = """
import importlib, inspect, json, sys
importlib.import_module(sys.argv[1])
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.rules.errors import RuleSetError
# Each method is written in the class, not handed to it by a module that imports it.
home = inspect.getsourcefile(RuleSet)
for method in (RuleSet.parse, RuleSet.summary, RuleSet.differences, RuleSet.house):
    assert inspect.getsourcefile(method) == home, method
rules = RuleSet.parse('{"name": "Smith family", "values": {"JK": 50}}')
assert RuleSet.parse("shanghai").preset == "shanghai"
assert rules.differences() == (("values.JK", "a joker left in hand is 50"),)
assert rules.summary().startswith("Smith family · 7 deals")
try:
    RuleSet.parse({"cut_bonus": 5})
except RuleSetError as error:
    assert error.problems == {"cut_bonus": "must be from -100 to 0, not 5"}
print(json.dumps(sorted(name.split(".")[0] for name in sys.modules)))
"""
NEVER_WITH_THE_ENGINE = {"flask", "sqlalchemy", "wtforms", "flask_wtf", "jinja2", "werkzeug"}


def test_the_rule_set_modules_are_among_the_engines():
    assert set(RULE_SET_MODULES) <= set(ENGINE_MODULES)


@pytest.mark.parametrize("name", ["scorekeeper.rules", *RULE_SET_MODULES])
def test_a_rule_set_works_whichever_engine_module_is_imported_first(name):
    answer = subprocess.run(
        [sys.executable, "-c", USE_ALONE, name],
        cwd=PACKAGE.parent,
        capture_output=True,
        text=True,
        check=False,
    )
    assert answer.returncode == 0, answer.stderr
    assert not set(json.loads(answer.stdout)) & NEVER_WITH_THE_ENGINE


WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


def test_every_write_route_is_write_once_or_says_it_only_reads(app):
    """A route taking a write method either keeps its answer for a repeat (`write_once`) or is
    marked as writing nothing (`reads_only`, with its reason): none is forgotten."""
    from scorekeeper.platform import writeonce

    writes = [rule for rule in app.url_map.iter_rules() if rule.methods & WRITE_METHODS]
    assert len(writes) >= 10  # the walk reached the score book's routes
    forgotten = [
        f"{sorted(rule.methods & WRITE_METHODS)} {rule.rule}"
        for rule in writes
        if not getattr(app.view_functions[rule.endpoint], writeonce.WRITES_ONCE, False)
        and not getattr(app.view_functions[rule.endpoint], writeonce.READS_ONLY, "")
    ]
    assert not forgotten, forgotten


# --- The tests test the engine they say: one copy of their settings, and every app on it ---

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "tests").rglob("*.py")) + sorted((ROOT / "bench").rglob("*.py"))
SOURCES = [path for path in SOURCES if "node_modules" not in path.parts]


def top_level_names(path: Path) -> tuple[set[str], set[str]]:
    """(modules it imports, names it assigns at the top level)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
    assigned = {
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    return imported, assigned


def test_nothing_imports_a_conftest():
    """pytest imports tests/conftest.py as `conftest`: imported again as `tests.conftest` it
    would be a second module with a second copy of the settings."""
    importers = [
        str(path.relative_to(ROOT))
        for path in SOURCES
        if top_level_names(path)[0] & {"conftest", "tests.conftest", "tests.e2e.conftest"}
    ]
    assert importers == []


def test_the_players_and_the_settings_are_defined_once():
    owners = {"NAMES": "tests/support/names.py", "TEST_CONFIG": "tests/support/config.py"}
    for name, owner in owners.items():
        defined = [
            str(path.relative_to(ROOT)) for path in SOURCES if name in top_level_names(path)[1]
        ]
        assert defined == [owner], name


def test_an_app_made_from_the_test_settings_is_on_the_engine_under_test(tmp_path):
    app = create_app(dict(TEST_CONFIG), instance_path=str(tmp_path / "instance"))
    assert make_url(app.config["SQLALCHEMY_DATABASE_URI"]).get_backend_name() == ENGINE


def test_every_package_is_in_the_wheel():
    """pyproject names each package the wheel carries: one left out installs without its
    modules (the wheel's own test, which is slow, then fails to start the app)."""
    import tomllib

    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    packages = {name for name, path in MODULES.items() if path.name == "__init__.py"}
    assert packages - listed == set()
