"""The app as a wheel: installed into a fresh virtual environment, it serves from anywhere."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import sysconfig
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

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


@pytest.fixture(scope="module")
def installed(built, tmp_path_factory) -> Path:
    """A new virtual environment holding the wheel built from this checkout; its python."""
    wheel, _ = built
    folder = tmp_path_factory.mktemp("installed")
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps"]
        + [str(wheel)],
        check=True,
        capture_output=True,
    )
    # The dependencies come from this environment's site-packages (a plain path: the checkout's
    # editable install is not carried over), so nothing is downloaded.
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    Path(site, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return python


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
