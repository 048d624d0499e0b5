"""The app as a wheel: installed into a fresh virtual environment outside the checkout, with
its dependencies from PyPI as a family's install gets them, its `scorekeeper` program serves from
anywhere, its data in the platform's user data folder; and `pipx install` of it does the same.

The environment is a real, clean one (`python -m venv`, then `pip install WHEEL`): nothing of
this test environment's site-packages is seen, so a dependency missing from pyproject.toml fails
here. Making it takes about a minute on a busy 2-core machine (pip's cache warm; the first time
about as long again), and pipx's install as long: both are downloads from PyPI, which is
reachable here and in CI, the one choice that tests what a family's install really gets."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.support.config import ENGINE
from tests.support.server import ANNOUNCED_PORT

ROOT = Path(__file__).resolve().parents[2]
# One process builds the shared fixture, once.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("wheel")]


def tracked_copy(target: Path) -> Path:
    """The checkout's tracked files, copied: the wheel is built from them alone, never from
    what the checkout's own `build/` and `*.egg-info` hold or from files other tests are
    writing meanwhile (a database under instance/, bytecode of the migrations)."""
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z"], check=True, capture_output=True
    ).stdout.decode("utf-8")
    for name in filter(None, listed.split("\0")):
        if (ROOT / name).is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, target / name)
    return target


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, str]:
    """The wheel built from this checkout, and what the build printed (not quietened: the
    build backend's warnings are what a first `make run` shows)."""
    folder = tmp_path_factory.mktemp("wheel")
    source = tracked_copy(folder / "source")
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation"]
        + ["--wheel-dir", str(folder / "dist"), str(source)],
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stderr[-4000:]
    (wheel,) = (folder / "dist").glob("liverpool_scorekeeper-*.whl")
    return wheel, build.stdout + build.stderr


def test_the_build_warns_of_nothing(built):
    """Every folder the wheel carries is declared: setuptools prints no "Package would be
    ignored" (one screenful per folder) before the first run's QR code."""
    _, printed = built
    assert "would be ignored" not in printed
    assert "SetuptoolsDeprecationWarning" not in printed, printed[-4000:]


def requirement(wheel: Path) -> str:
    """The wheel as pip installs it, with PostgreSQL's driver when the suite runs on it."""
    return f"{wheel}[postgres]" if ENGINE != "sqlite" else str(wheel)


@pytest.fixture(scope="module")
def installed(built, tmp_path_factory) -> Path:
    """A new, clean virtual environment holding the wheel built from this checkout and its
    dependencies from PyPI; its python."""
    wheel, _ = built
    folder = tmp_path_factory.mktemp("installed")
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", requirement(wheel)],
        cwd=folder,
        capture_output=True,
        text=True,
    )
    assert install.returncode == 0, install.stderr[-4000:]
    return python


def served(command: list[str], log: Path, env: dict[str, str], cwd: Path):
    """Start the server; (the process, its port) once it says where it serves."""
    with open(log, "wb") as out:
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
    port = None
    deadline = time.monotonic() + 60
    while port is None and time.monotonic() < deadline:
        if process.poll() is not None:
            break
        found = ANNOUNCED_PORT.search(log.read_text())
        port = found and int(found.group(1))
        time.sleep(0.1)
    if port is None:
        process.terminate()
        process.wait(timeout=10)
        pytest.fail(f"the server never said its port:\n{log.read_text()}")
    return process, port


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    process.wait(timeout=10)


def test_the_wheel_carries_the_templates_static_files_migrations_and_catalogs(installed, tmp_path):
    shown = subprocess.run(
        [str(installed), "-c", "import scorekeeper, sys; print(scorekeeper.__file__)"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    package = Path(shown).parent
    assert ROOT not in package.parents, shown  # the installed copy, not this checkout
    assert (package / "templates" / "base.html").is_file()
    assert (package / "templates" / "errors" / "404.html").is_file()
    assert (package / "static" / "style.css").is_file()
    assert (package / "migrations" / "env.py").is_file()
    assert (package / "translations" / "messages.pot").is_file()
    # Every language's compiled catalog, so an installed app speaks each with no step of its own.
    for code in ("de", "es", "es_CL", "es_ES", "es_MX", "fi", "fr"):
        assert (package / "translations" / code / "LC_MESSAGES" / "messages.mo").is_file(), code


def test_the_installed_app_serves_pages_with_their_styles_from_another_folder(
    installed, tmp_path, fresh_database
):
    log = tmp_path / "serve.log"
    env = {
        "DATABASE_URL": fresh_database("wheel"),
        "SECRET_KEY": "wheel-test",
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path / "home"),  # the data folder under it, not this user's
    }
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [str(installed), "-m", "scorekeeper.serve", "--host", "127.0.0.1", "--port", "0"],
            cwd=tmp_path,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        port = None
        deadline = time.monotonic() + 30
        while port is None and time.monotonic() < deadline:
            assert process.poll() is None, log.read_text()
            found = ANNOUNCED_PORT.search(log.read_text())
            port = found and int(found.group(1))
            time.sleep(0.1)
        assert port, log.read_text()
        base = f"http://127.0.0.1:{port}"
        with urllib.request.urlopen(base + "/games/new", timeout=10) as answer:
            page = answer.read().decode()
        assert "Start the game" in page
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(base + "/no-such-page", timeout=10)
        assert missing.value.code == 404
        assert "There is no page at" in missing.value.read().decode()
        sheets = re.findall(r'<link rel="stylesheet" href="([^"]+)"', page)
        assert any("style" in sheet for sheet in sheets), sheets
        for sheet in sheets:
            with urllib.request.urlopen(base + sheet, timeout=10) as answer:
                assert answer.headers["Content-Type"].startswith("text/css")
                assert len(answer.read()) > 1000
    finally:
        process.terminate()
        process.wait(timeout=10)


def family_environment(home: Path, fresh_database) -> dict[str, str]:
    """A user's environment with nothing of the score book's set: HOME, PATH and the locale;
    on PostgreSQL the database too (SQLite's is the data folder's own file)."""
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
    if ENGINE != "sqlite":
        env["DATABASE_URL"] = fresh_database("family")
    return env


def test_the_scorekeeper_program_serves_the_home_page_with_its_data_in_the_users_folder(
    installed, tmp_path, fresh_database
):
    program = installed.with_name("scorekeeper")
    assert program.is_file()
    home = tmp_path / "home"
    env = family_environment(home, fresh_database)
    data = home / ".local" / "share" / "scorekeeper"  # platformdirs' folder on Linux
    where = subprocess.run(
        [str(program), "where"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert where.returncode == 0, where.stderr
    assert where.stdout.splitlines()[0] == f"Data folder: {data}"
    log = tmp_path / "serve.log"
    command = [str(program), "serve", "--host", "127.0.0.1", "--port", "0", "--https", "no"]
    process, port = served(command, log, env, cwd=tmp_path)
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as answer:
            assert answer.status == 200
            page = answer.read().decode()
        assert "New game" in page
        printed = log.read_text()
        assert f"Data folder: {data}" in printed
        assert "Database at revision" in printed
    finally:
        stop(process)
    assert (data / "secret_key").is_file()
    assert (data / "scorekeeper.sqlite").is_file() == (ENGINE == "sqlite")
    assert oct(data.stat().st_mode & 0o777) == oct(0o700)


def test_pipx_installs_the_wheel_as_the_scorekeeper_program(built, tmp_path):
    """What a family does (docs/installation.md): `pipx install`, then `scorekeeper`."""
    pipx = shutil.which("pipx")
    if pipx is None:
        if os.environ.get("CI") == "true":
            pytest.fail("pipx is missing: .ci/run must install it (apt-get install pipx)")
        pytest.skip("pipx is not installed (apt-get install pipx) - skipped")
    wheel, _ = built
    env = {
        "HOME": str(tmp_path / "home"),
        "PATH": "/usr/bin:/bin",
        "PIPX_HOME": str(tmp_path / "pipx"),
        "PIPX_BIN_DIR": str(tmp_path / "bin"),
        "PIPX_MAN_DIR": str(tmp_path / "man"),
        "LANG": "C.UTF-8",
    }
    install = subprocess.run(
        [pipx, "install", "--python", sys.executable, str(wheel)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert install.returncode == 0, install.stderr[-4000:]
    program = tmp_path / "bin" / "scorekeeper"
    version = subprocess.run(
        [str(program), "--version"], env=env, capture_output=True, text=True, check=True
    )
    assert version.stdout.strip() == "0.1.0"
    where = subprocess.run([str(program), "where"], env=env, capture_output=True, text=True)
    assert where.returncode == 0, where.stderr
    assert where.stdout.startswith(f"Data folder: {tmp_path / 'home' / '.local/share/scorekeeper'}")
