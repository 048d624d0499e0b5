"""A certificate authority for the tests of the pages that hand it out: a self-signed CA
certificate written as `ca.crt` (PEM) in a tls folder, its key beside it as `ca.key`, as the
score book keeps them."""

from __future__ import annotations

import datetime
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec

COMMON_NAME = "Liverpool Scorekeeper test authority"


def make_authority(folder: Path) -> x509.Certificate:
    """Write ca.crt and ca.key in `folder` (made if missing); the certificate written."""
    folder.mkdir(parents=True, exist_ok=True)
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(x509.NameOID.COMMON_NAME, COMMON_NAME)])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=30))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .sign(key, hashes.SHA256())
    )
    (folder / "ca.crt").write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    (folder / "ca.key").write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    (folder / "ca.key").chmod(0o600)
    return certificate
