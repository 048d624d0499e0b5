"""A real nginx on loopback in front of a test's server, serving the score book under a sub-path
(`/cards/`) as Home Assistant's ingress does: the prefix cut from the path on the way in and
named in `X-Forwarded-Prefix`, with the client's address, scheme and host forwarded too.

nginx runs as a process of the test's own (`-p <folder>`, no daemon, its pid file and temporary
files in the folder, its log on stderr): no root, nothing of the machine's nginx touched. Missing
nginx skips the test outside CI and fails it in CI (`CI=true`), where .ci/run installs it."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

LOOPBACK = "127.0.0.1"
PREFIX = "/cards"

CONFIG = """\
worker_processes 1;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    server {{
        listen {host}:{port};
        location = {prefix} {{ return 301 {prefix}/; }}
        location {prefix}/ {{
            proxy_pass http://{upstream}/;
            proxy_http_version 1.1;
            proxy_buffering off;
            proxy_request_buffering off;
            proxy_set_header Host              $http_host;
            proxy_set_header X-Forwarded-For   $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header X-Forwarded-Host  $http_host;
            proxy_set_header X-Forwarded-Prefix {prefix};
        }}
    }}
}}
"""


def nginx_path() -> str:
    """Debian's nginx; missing: fail in CI, else skip."""
    for candidate in (shutil.which("nginx"), "/usr/sbin/nginx"):
        if candidate and os.path.exists(candidate):
            return candidate
    if os.environ.get("CI") == "true":
        pytest.fail("nginx is missing: .ci/run must install it (apt-get install nginx)")
    pytest.skip("nginx is not installed (apt-get install nginx) - proxied tests skipped")


def unused_port() -> int:
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind((LOOPBACK, 0))
        return probe.getsockname()[1]


@dataclass
class Nginx:
    """nginx in front of `upstream` (`127.0.0.1:<port>`), listening on `port`."""

    folder: Path
    upstream: str
    port: int = 0
    process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        """The score book's address through the proxy, with its slash: `http://…/cards/`."""
        return f"http://{LOOPBACK}:{self.port}{PREFIX}/"

    def start(self, timeout: float = 10) -> None:
        """Start on `port` (a free one, chosen once, the first time), and wait until it
        answers."""
        self.port = self.port or unused_port()
        temp = self.folder / "temp"
        temp.mkdir(parents=True, exist_ok=True)
        config = self.folder / "nginx.conf"
        config.write_text(
            CONFIG.format(
                temp=temp, host=LOOPBACK, port=self.port, prefix=PREFIX, upstream=self.upstream
            )
        )
        log = self.folder / "nginx.log"
        directives = f"daemon off; pid {self.folder / 'nginx.pid'}; error_log stderr;"
        command = [nginx_path(), "-e", "stderr", "-p", str(self.folder), "-c", str(config)]
        with open(log, "ab") as out:
            self.process = subprocess.Popen(
                [*command, "-g", directives], stdout=out, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"nginx stopped on start:\n{log.read_text()}")
            with contextlib.suppress(OSError), socket.create_connection((LOOPBACK, self.port), 1):
                return
            time.sleep(0.02)
        raise RuntimeError(f"nginx did not listen within {timeout} s:\n{log.read_text()}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()  # SIGTERM: nginx's fast shutdown
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)

    def log(self) -> str:
        path = self.folder / "nginx.log"
        return path.read_text(errors="replace") if path.exists() else ""


@contextlib.contextmanager
def nginx_in_front(upstream: str, folder: Path) -> Iterator[Nginx]:
    """nginx serving `upstream` (`http://127.0.0.1:<port>`) under `/cards/`, its files in
    `folder`; stopped when the block ends."""
    proxy = Nginx(folder, upstream.split("://", 1)[-1])
    proxy.start()
    try:
        yield proxy
    finally:
        proxy.stop()
