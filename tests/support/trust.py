"""The score book's certificate authority for tests, and a chromium that trusts it as a tablet
does after `/trust`: its own NSS database (what chromium reads on Linux, `~/.pki/nssdb`) holding
the authority, made with Debian's `certutil` (libnss3-tools) in a home folder of the test's
own."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from cryptography import x509

from scorekeeper.tls import certificates
from tests.support.browser import CHROMIUM_ARGS, chromium_path


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
    """Another chromium beside the session's (`browser`), whose home is `home`."""
    return browser.browser_type.launch(
        executable_path=chromium_path(),
        headless=True,
        args=CHROMIUM_ARGS,
        env={**os.environ, "HOME": str(home)},
    )
