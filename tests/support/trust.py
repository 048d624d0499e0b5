"""The score book's certificate authority for tests, and a chromium that trusts it as a tablet
does after `/trust`: its own NSS database (what chromium reads on Linux, `~/.pki/nssdb`) holding
the authority, made with Debian's `certutil` (libnss3-tools) in a home folder of the test's
own."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography import x509

from scorekeeper.tls import certificates
from tests.support.browser import LAN_NAME, launch_whole
from tests.support.server import Server
from tests.support.tablet import noting_problems


def make_authority(folder: Path) -> x509.Certificate:
    """The authority and a server certificate in `folder`, made as `make run` makes them on a
    laptop at 192.168.1.20; the authority's certificate."""
    names = certificates.machine_names(["192.168.1.20"], hostname="ann-laptop", fqdn="ann-laptop")
    made = certificates.ensure(folder, names)
    return x509.load_pem_x509_certificate(made.authority.read_bytes())


def certutil() -> str:
    """Debian's certutil; missing: fail in CI, else skip."""
    found = shutil.which("certutil")
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail(
                "certutil is missing: .ci/run must install it (apt-get install libnss3-tools)"
            )
        pytest.skip("certutil is not installed (apt-get install libnss3-tools) - skipped")
    return found


def trusting_home(home: Path, authority: Path) -> Path:
    """`home` with an NSS database that trusts `authority` (a PEM file) to vouch for sites."""
    database = home / ".pki" / "nssdb"
    database.mkdir(parents=True)
    tool = certutil()
    where = f"sql:{database}"
    subprocess.run([tool, "-N", "-d", where, "--empty-password"], check=True)
    subprocess.run(
        [tool, "-A", "-d", where, "-n", "Liverpool Scorekeeper", "-t", "C,,", "-i", str(authority)],
        check=True,
    )
    return home


def launch_trusting(browser, home: Path):
    """The whole chromium beside the session's (`browser`), whose home is `home`: a tablet's
    browser, trusting what the NSS database there trusts (the headless shell reads none)."""
    return launch_whole(browser, env={**os.environ, "HOME": str(home)})


def lan_https_server(tmp_path_factory, module_database, label: str, ports=(0, 0)) -> Iterator:
    """`python -m scorekeeper.serve --https yes` as its own process on a module's database, the
    LAN name among its certificate's names, its authority in a folder of the test's own; for a
    module-scoped fixture to yield from."""
    folder = tmp_path_factory.mktemp(label)
    env = {"TLS_FOLDER": str(folder / "tls"), "HTTPS_NAMES": LAN_NAME}
    running = Server(module_database("book"), folder / "server.log", env, https=True)
    running.start(ports=ports)
    try:
        yield running
    finally:
        running.stop()


def trusting_chromium(browser, server: Server, tmp_path_factory) -> Iterator:
    """A chromium whose NSS database holds the authority `server` made at its first start; for
    a fixture to yield from."""
    home = trusting_home(tmp_path_factory.mktemp("tablet-home"), server.tls_folder / "ca.crt")
    chromium = launch_trusting(browser, home)
    try:
        yield chromium
    finally:
        chromium.close()


class Profiles:
    """Fresh browser profiles of any chromium, each at its own size, by touch; `close` closes
    every one opened."""

    def __init__(self) -> None:
        self.contexts: list = []

    def open(self, chromium, viewport: dict, **options):
        """A page of a new profile; `page.problems` holds its script errors."""
        context = chromium.new_context(viewport=viewport, has_touch=True, **options)
        context.set_default_timeout(10_000)
        self.contexts.append(context)
        return noting_problems(context.new_page())

    def close(self) -> None:
        for context in self.contexts:
            context.close()
