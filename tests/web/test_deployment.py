"""`scorekeeper config nginx` and `config systemd`: files nginx and systemd take (Debian's
`nginx -t`, `systemd-analyze verify`), with the headers and settings the app needs behind one
proxy, and a backup unit whose command line really backs the book up."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import ssl
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from scorekeeper import deployment
from tests.support.config import ENGINE
from tests.support.nginx import certificate_pair, generated, nginx_path
from tests.support.saved import save_ruleset
from tests.support.server import free_port, serving


def nginx_check(text: str, folder: Path) -> subprocess.CompletedProcess:
    """`nginx -t -c FILE` on the text, with nginx's own files (logs, temporary bodies, its pid)
    in `folder`, so that it needs no root."""
    nginx = nginx_path()
    config = folder / "nginx.conf"
    config.write_text(text, encoding="utf-8")
    return subprocess.run(
        [nginx, "-t", "-e", "stderr", "-p", str(folder), "-c", str(config)]
        + ["-g", f"pid {folder / 'nginx.pid'};"],
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("prefix", ["/", "/cards/"])
def test_nginx_takes_the_file_it_is_given(tmp_path, prefix):
    certificate, key = certificate_pair(tmp_path)
    text = deployment.nginx(
        deployment.Nginx(
            server_names=("scores.club.example", "scores.lan"),
            upstreams=("127.0.0.1:5001", "127.0.0.1:5002", "[::1]:5003"),
            prefix=prefix,
            certificate=str(certificate),
            key=str(key),
            logs=str(tmp_path),
            # Ports any user may listen on: `nginx -t` binds them.
            http_port=free_port(),
            https_port=free_port(),
        )
    )
    checked = nginx_check(text, tmp_path)
    assert checked.returncode == 0, checked.stderr
    assert "test is successful" in checked.stderr


def test_nginx_refuses_a_file_whose_certificate_is_missing(tmp_path):
    """The check is a real one: a file nginx cannot serve fails it."""
    text = deployment.nginx(
        deployment.Nginx(
            certificate=str(tmp_path / "none.pem"),
            key=str(tmp_path / "none.key"),
            logs=str(tmp_path),
        )
    )
    checked = nginx_check(text, tmp_path)
    assert checked.returncode != 0
    assert "none.pem" in checked.stderr


def test_nginx_sets_the_headers_the_app_believes_behind_one_proxy():
    text = deployment.nginx(
        deployment.Nginx(upstreams=("127.0.0.1:5001", "127.0.0.1:5002"), prefix="/cards")
    )
    assert "server 127.0.0.1:5001;" in text and "server 127.0.0.1:5002;" in text
    for header, value in (
        ("X-Forwarded-For", "$proxy_add_x_forwarded_for"),
        ("X-Forwarded-Proto", "$scheme"),
        ("X-Forwarded-Host", "$host"),
        ("X-Forwarded-Port", "$server_port"),
        ("X-Forwarded-Prefix", "/cards"),
    ):
        assert re.search(rf"proxy_set_header {header} +{re.escape(value)};", text), header
    # The prefix is taken off the path (proxy_pass with its own /) and told by the header.
    assert "location /cards/ {" in text and "proxy_pass http://scorekeeper/;" in text
    assert "listen 443 ssl;" in text and "return 301 https://$host$request_uri;" in text
    assert "TRUSTED_PROXIES=1" in text
    assert "--https no" in text
    at_root = deployment.nginx(deployment.Nginx())
    assert "X-Forwarded-Prefix" not in at_root and "proxy_pass http://scorekeeper;" in at_root


def test_nginx_options_that_cannot_be_written_are_refused_together():
    with pytest.raises(deployment.ConfigProblem) as refused:
        deployment.nginx(
            deployment.Nginx(
                server_names=("scores club",),
                upstreams=("127.0.0.1", "host:99999", "[nope]:80"),
                certificate="relative.pem",
                key="/etc/key; include /etc/passwd",
            )
        )
    assert len(refused.value.problems) == 6, refused.value.problems


# --- systemd ---------------------------------------------------------------------------------


def parse_unit(text: str) -> dict[str, dict[str, list[str]]]:
    """A unit file's sections, each key with every value it is given, in order."""
    sections: dict[str, dict[str, list[str]]] = {}
    current = None
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        key, equals, value = line.partition("=")
        assert equals and current is not None, line
        current.setdefault(key, []).append(value)
    return sections


def test_the_units_run_the_app_behind_the_proxy_and_the_nightly_backup():
    units = deployment.systemd(deployment.Systemd(command=("/opt/sk/bin/scorekeeper",)))
    assert set(units) == {
        "scorekeeper@.service",
        "scorekeeper-backup.service",
        "scorekeeper-backup.timer",
    }
    app = parse_unit(units["scorekeeper@.service"])
    assert app["Service"]["ExecStart"] == [
        "/opt/sk/bin/scorekeeper serve --host 127.0.0.1 --port %i --https no"
    ]
    assert "TRUSTED_PROXIES=1" in app["Service"]["Environment"]
    assert "SCOREKEEPER_DATA=/var/lib/scorekeeper" in app["Service"]["Environment"]
    assert app["Service"]["StateDirectoryMode"] == ["0700"]
    assert app["Install"]["WantedBy"] == ["multi-user.target"]
    backup = parse_unit(units["scorekeeper-backup.service"])
    assert backup["Service"]["Type"] == ["oneshot"]
    assert "backup" in backup["Service"]["ExecStart"][0]
    timer = parse_unit(units["scorekeeper-backup.timer"])
    assert timer["Timer"]["OnCalendar"] == ["*-*-* 04:00:00"]
    assert timer["Timer"]["Persistent"] == ["true"]
    assert timer["Install"]["WantedBy"] == ["timers.target"]


def test_systemd_analyze_verifies_the_units(tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not here (no systemd) - skipped")
    units = deployment.systemd(deployment.Systemd())  # this Python running the command
    for name, text in units.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    # A template is verified through an instance of it.
    shutil.copy(tmp_path / "scorekeeper@.service", tmp_path / "scorekeeper@5001.service")
    names = ["scorekeeper@5001.service", "scorekeeper-backup.service", "scorekeeper-backup.timer"]
    checked = subprocess.run(
        [analyze, "verify", *(str(tmp_path / name) for name in names)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert checked.returncode == 0, checked.stderr
    assert "scorekeeper" not in checked.stderr, checked.stderr  # no warning about our units


def systemd_words(value: str) -> list[str]:
    """An ExecStart line as systemd runs it: `%%` and `$$` are `%` and `$`, quoted as a shell
    quotes (the specifiers and variables our lines use are only these escapes)."""
    return shlex.split(value.replace("%%", "%").replace("$$", "$"))


def test_the_backup_units_command_line_backs_the_book_up(tmp_path, fresh_database):
    data = tmp_path / "data"
    units = deployment.systemd(deployment.Systemd(data=str(data)))
    (start,) = parse_unit(units["scorekeeper-backup.service"])["Service"]["ExecStart"]
    (made,) = parse_unit(units["scorekeeper-backup.service"])["Service"]["ExecStartPre"]
    env = dict(
        os.environ,
        SCOREKEEPER_DATA=str(data),
        DATABASE_URL=fresh_database("units"),
        SECRET_KEY="units-test",
    )
    # A score book already served: its database at this version.
    upgrade = [*deployment.default_command(), "db", "upgrade"]
    subprocess.run(upgrade, env=env, check=True, capture_output=True, timeout=120)
    for line in (made, start):
        ran = subprocess.run(
            systemd_words(line), env=env, capture_output=True, text=True, timeout=120
        )
        assert ran.returncode == 0, ran.stderr
    (written,) = (data / "backups").iterdir()
    assert re.fullmatch(r"scorekeeper-[A-Z][a-z]{2}\.backup", written.name), written.name
    starts = b"SQLite format 3\0" if ENGINE == "sqlite" else b"{"
    assert written.read_bytes().startswith(starts)


# --- nginx in front of the app, for real --------------------------------------------------------


@pytest.mark.parametrize("prefix", ["/", "/cards/"])
def test_behind_nginx_the_app_gives_links_at_the_address_the_tablet_used(
    app_with, tmp_path, prefix
):
    """nginx serving the generated file in front of the app with TRUSTED_PROXIES=1: a saved
    rule set's share link is the tablet's HTTPS address (scheme, name, port and sub-path), as
    the headers the file sets tell it."""
    app = app_with(TRUSTED_PROXIES=1)
    saved = save_ruleset(app.test_client())
    with serving(app) as base:
        upstream = base.removeprefix("http://")
        with generated(tmp_path, (upstream,), prefix) as https_port:
            page = https_page(https_port, f"{nginx_prefix(prefix)}rulesets/{saved['id']}")
    shared = re.search(r"https?://[^\"'<\s]+/rulesets/shared/[^\"'<\s]+", page)
    assert shared, page[:2000]
    expected = f"https://scores.club.example:{https_port}{nginx_prefix(prefix)}rulesets/shared/"
    assert shared.group().startswith(expected), shared.group()


def nginx_prefix(prefix: str) -> str:
    return deployment.nginx_prefix(prefix)


def https_page(port: int, path: str) -> str:
    """The page at `path` over HTTPS from nginx on `port`, asked by the club's name (the
    certificate is the test's own, not checked), once nginx answers."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    deadline = time.monotonic() + 20
    while True:
        request = urllib.request.Request(
            f"https://127.0.0.1:{port}{path}", headers={"Host": "scores.club.example"}
        )
        try:
            with urllib.request.urlopen(request, context=context, timeout=10) as answer:
                return answer.read().decode()
        except (ConnectionError, urllib.error.URLError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
