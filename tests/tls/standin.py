"""A stand-in for `scorekeeper.tls.certificates` while serving is tested without it: the same
names and calls, a certificate authority and a server certificate it signs, made with
`cryptography`. Used only when the real module is not there (`install`)."""

from __future__ import annotations

import datetime as dt
import importlib
import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from ipaddress import ip_address
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

MODULE = "scorekeeper.tls.certificates"


@dataclass(frozen=True)
class Names:
    dns: tuple[str, ...]
    ips: tuple[str, ...]


@dataclass(frozen=True)
class Credentials:
    certificate: Path
    key: Path
    authority: Path
    made: tuple[str, ...] = ()
    left_out: tuple[str, ...] = ()


def machine_names(addresses: Iterable[str], extra: Iterable[str] = ()) -> Names:
    return Names(("localhost", *extra), (*addresses, "127.0.0.1", "::1"))


def ensure(folder: Path, names: Names, now: dt.datetime | None = None) -> Credentials:
    """The CA on first use, a server certificate whenever the names differ from the last."""
    now = now or dt.datetime.now(dt.UTC)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    made = []
    if not (folder / "ca.crt").exists():
        key = ec.generate_private_key(ec.SECP256R1())
        _write(folder, "ca", key, _certificate("Stand-in CA", key, key, None, now, ca=True))
        made.append(f"Made a certificate authority in {folder}.")
    wanted = json.dumps([names.dns, names.ips])
    record = folder / "names.json"
    if not record.exists() or record.read_text() != wanted:
        ca_key = serialization.load_pem_private_key((folder / "ca.key").read_bytes(), None)
        ca = x509.load_pem_x509_certificate((folder / "ca.crt").read_bytes())
        key = ec.generate_private_key(ec.SECP256R1())
        _write(folder, "server", key, _certificate("localhost", key, ca_key, ca, now, names=names))
        record.write_text(wanted)
        made.append(f"Made a server certificate for {', '.join(names.dns + names.ips)}.")
    return Credentials(folder / "server.crt", folder / "server.key", folder / "ca.crt", tuple(made))


def _certificate(common, key, signer, issuer, now, ca=False, names=None) -> x509.Certificate:
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer.subject if issuer else subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=30))
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
    )
    if ca:
        ski = x509.SubjectKeyIdentifier.from_public_key(key.public_key())
        builder = builder.add_extension(ski, critical=False)
    else:
        alternative = [x509.DNSName(name) for name in names.dns]
        alternative += [x509.IPAddress(ip_address(address)) for address in names.ips]
        builder = builder.add_extension(x509.SubjectAlternativeName(alternative), critical=False)
        builder = builder.add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(signer.public_key()), critical=False
        )
    return builder.sign(signer, hashes.SHA256())


def _write(folder: Path, stem: str, key, certificate: x509.Certificate) -> None:
    (folder / f"{stem}.key").write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    (folder / f"{stem}.key").chmod(0o600)
    (folder / f"{stem}.crt").write_bytes(certificate.public_bytes(serialization.Encoding.PEM))


def install() -> object:
    """The real module when it is there; else this one, put in its place."""
    try:
        return importlib.import_module(MODULE)
    except ModuleNotFoundError as missing:
        if missing.name != MODULE:
            raise
    import scorekeeper.tls

    standin = sys.modules[__name__]
    sys.modules[MODULE] = standin
    scorekeeper.tls.certificates = standin
    return standin
