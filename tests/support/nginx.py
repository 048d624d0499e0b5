"""A real nginx on loopback in front of a test's server, serving the score book under a sub-path
(`/cards/`) as Home Assistant's ingress does: the prefix cut from the path on the way in and
named in `X-Forwarded-Prefix`, with the client's address, scheme and host forwarded too.

nginx runs as a process of the test's own (`-p <folder>`, no daemon, its pid file and temporary
files in the folder, its log on stderr): no root, nothing of the machine's nginx touched. Missing
nginx skips the test outside CI and fails it in CI (`CI=true`), where .ci/run installs it."""

from __future__ import annotations

import contextlib
import datetime
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from tests.support.server import LOOPBACK, free_port

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


def debian_tool(name: str, package: str) -> str:
    """The program `name` (looked for in /usr/sbin too, which a user's PATH may leave out);
    missing: fail in CI (.ci/run installs it), else skip saying why."""
    found = shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/bin")
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{name} is missing: .ci/run must install it (apt-get install {package})")
        pytest.skip(f"{name} is not installed (apt-get install {package}) - skipped")
    return found


def nginx_path() -> str:
    """Debian's nginx; missing: fail in CI, else skip."""
    return debian_tool("nginx", "nginx")


def certificate_pair(folder: Path, name: str = "scores.club.example") -> tuple[Path, Path]:
    """A self-signed certificate for `name` and its key, for nginx to load."""
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .sign(key, hashes.SHA256())
    )
    certificate_file, key_file = folder / "scores.pem", folder / "scores.key"
    certificate_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return certificate_file, key_file


def start(config: str, folder: Path, port: int, timeout: float = 10) -> subprocess.Popen:
    """nginx as a process of the test's own on the configuration `config` (its files in
    `folder`, its log in folder/nginx.log), once it listens on `port`."""
    path = folder / "nginx.conf"
    path.write_text(config, encoding="utf-8")
    log = folder / "nginx.log"
    directives = f"daemon off; pid {folder / 'nginx.pid'}; error_log stderr;"
    command = [nginx_path(), "-e", "stderr", "-p", str(folder), "-c", str(path)]
    with open(log, "ab") as out:
        process = subprocess.Popen(
            [*command, "-g", directives], stdout=out, stderr=subprocess.STDOUT
        )
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"nginx stopped on start:\n{log.read_text()}")
        with contextlib.suppress(OSError), socket.create_connection((LOOPBACK, port), 1):
            return process
        time.sleep(0.02)
    stop(process)
    raise RuntimeError(f"nginx did not listen within {timeout} s:\n{log.read_text()}")


def stop(process: subprocess.Popen | None) -> None:
    if process is not None and process.poll() is None:
        process.terminate()  # SIGTERM: nginx's fast shutdown
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


CLUB = "scores.club.example"


@contextlib.contextmanager
def generated(folder: Path, upstreams: tuple[str, ...], prefix: str) -> Iterator[int]:
    """nginx on the file `scorekeeper config nginx` writes for the club's name (a certificate of
    the test's own, its files in `folder`) in front of `upstreams`: its HTTPS port."""
    from scorekeeper import deployment

    certificate, key = certificate_pair(folder, CLUB)
    https_port = free_port()
    config = deployment.Nginx(
        server_names=(CLUB,),
        upstreams=upstreams,
        prefix=prefix,
        certificate=str(certificate),
        key=str(key),
        logs=str(folder),
        http_port=free_port(),
        https_port=https_port,
    )
    with running(deployment.nginx(config), folder, https_port):
        yield https_port


@contextlib.contextmanager
def running(config: str, folder: Path, port: int) -> Iterator[subprocess.Popen]:
    """`start`, stopped when the block ends."""
    process = start(config, folder, port)
    try:
        yield process
    finally:
        stop(process)


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

    def start(self) -> None:
        """Start on `port` (a free one, chosen once, the first time), and wait until it
        answers."""
        self.port = self.port or free_port()
        temp = self.folder / "temp"
        temp.mkdir(parents=True, exist_ok=True)
        config = CONFIG.format(
            temp=temp, host=LOOPBACK, port=self.port, prefix=PREFIX, upstream=self.upstream
        )
        self.process = start(config, self.folder, self.port)

    def stop(self) -> None:
        stop(self.process)

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
