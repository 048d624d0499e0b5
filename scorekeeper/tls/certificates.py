"""The score book's own certificate authority, and the server certificate it signs.

A browser gives a page its table features (the screen kept on, the offline page, install to the
home screen) only in a secure context, and a laptop on the home Wi-Fi has no public name a public
authority would vouch for. So the first start makes an authority of its own in the instance
folder; each tablet trusts it once (`/trust`), and every later certificate it signs for this
machine is trusted with it. The authority is name-constrained to this machine's own full names
(`laptop.local`, the router's name for it, `HTTPS_NAMES`) and the networks its interfaces were on
when it was made, so that its key, if stolen, cannot vouch for any other site a tablet visits nor
for another machine's address elsewhere.

Nothing here is downloaded and nothing reads Flask: `ensure` is called by `make run` at start and
while it runs. Both keys are written 0600 and never leave this folder.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import ipaddress
import os
import re
import socket
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
from flask_babel import gettext as _

AUTHORITY_KEY = "ca.key"
AUTHORITY_CERTIFICATE = "ca.crt"
SERVER_KEY = "server.key"
SERVER_CERTIFICATE = "server.crt"
LOCK = ".lock"

ORGANISATION = "Liverpool Scorekeeper"
AUTHORITY_YEARS = 10
# The longest a server certificate may live that browsers accept (398 days), less a day's margin.
SERVER_DAYS = 397
# A server certificate this close to its end is replaced at the next start (or check).
RENEW_DAYS = 30
# Certificates start an hour back, so that a tablet whose clock runs a little slow accepts them.
CLOCK_SLACK = dt.timedelta(hours=1)

# Loopback: what the authority may vouch for besides the networks this machine is on.
LOOPBACK_NETWORKS = (ipaddress.ip_network("127.0.0.0/8"), ipaddress.ip_network("::1/128"))
# The one name without a dot the authority vouches for: every machine's own (RFC 6761). Any other
# one-label name (`dev`, `app`) would be a constraint over a whole top-level domain, since a DNS
# name constraint always takes in every name below it (RFC 5280, 4.2.1.10).
LOOPBACK_NAME = "localhost"
LOOPBACK_ADDRESSES = ("127.0.0.1", "::1")
_LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")


@dataclass(frozen=True)
class Names:
    """The host names and addresses a server certificate holds."""

    dns: tuple[str, ...]
    ips: tuple[str, ...]
    # The networks of this machine's interfaces ("192.168.1.0/24"): an authority made now may
    # vouch for any address in them, so that a new lease on the same network needs nothing new.
    networks: tuple[str, ...] = ()

    def __str__(self) -> str:
        return ", ".join(self.dns + self.ips)

    def __iter__(self) -> Iterator[str]:
        return iter(self.dns + self.ips)


@dataclass(frozen=True)
class Credentials:
    """Where the server's certificate and key are, and what this call made or left out."""

    certificate: Path
    key: Path
    authority: Path
    made: tuple[str, ...] = ()  # what was made or renewed, in words; empty when nothing
    left_out: tuple[str, ...] = ()  # names and addresses the authority cannot vouch for
    advice: tuple[str, ...] = ()  # about the authority itself (one of wider constraints), in words


def host_name(text: str) -> str | None:
    """`text` as a host name a certificate can hold (lower case, no trailing dot), or None."""
    name = text.strip().rstrip(".").lower()
    if not name or len(name) > 253:
        return None
    return name if all(_LABEL.match(label) for label in name.split(".")) else None


def machine_names(
    addresses: Iterable[str],
    extra: Iterable[str] = (),
    hostname: str | None = None,
    fqdn: str | None = None,
    networks: Iterable[str] = (),
) -> Names:
    """Every name and address a tablet may open this machine by: `localhost`,
    `<host name>.local`, the fully qualified name, the `extra` names (HTTPS_NAMES), the given
    addresses and loopback's; and the `networks` this machine is on. The bare host name (`vm`)
    is not among them: no name constraint can take in `vm` without every `*.vm` site. A host
    name no certificate can hold (`my_laptop`) is skipped; an extra name that is not a host name
    with a dot raises ValueError naming it."""
    hostname = socket.gethostname() if hostname is None else hostname
    fqdn = socket.getfqdn() if fqdn is None else fqdn
    wanted: list[str] = [LOOPBACK_NAME]
    short = host_name(hostname.split(".")[0])
    if short:
        wanted.append(f"{short}.local")
    full = host_name(fqdn)
    if full and "." in full and not full.startswith("localhost"):
        wanted.append(full)
    bad = []
    for text in extra:
        if not text.strip():
            continue
        name = host_name(text)
        if name is None or "." not in name:
            bad.append(repr(text.strip()))
        else:
            wanted.append(name)
    if bad:
        raise ValueError(
            _(
                "not a host name with a dot a certificate can hold (scores.lan): %(names)s",
                names=", ".join(bad),
            )
        )
    ips = [str(ipaddress.ip_address(text)) for text in addresses]
    return Names(
        dns=tuple(dict.fromkeys(wanted)),
        ips=tuple(dict.fromkeys([*ips, *LOOPBACK_ADDRESSES])),
        networks=tuple(dict.fromkeys(str(ipaddress.ip_network(text)) for text in networks)),
    )


def ensure(folder: Path, names: Names, now: dt.datetime | None = None) -> Credentials:
    """The server certificate for `names`, signed by the folder's authority: the authority is
    made on first run (or when it is unreadable or expired); the server certificate is made
    again when it is missing, near its end, not the authority's, or for other names."""
    now = now or dt.datetime.now(dt.UTC)
    folder = Path(folder)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    with _locked(folder):
        made: list[str] = []
        authority = _usable_authority(folder, now)
        if authority is None:
            authority = _make_authority(folder, names, now)
            made.append(
                _(
                    "Made a certificate authority for this score book in %(folder)s: "
                    "each tablet trusts it once (step 1).",
                    folder=folder,
                )
            )
        ca_key, ca_certificate = authority
        covered, left_out = _covered(ca_certificate, names)
        if not _server_is_current(folder, ca_certificate, covered, now):
            _make_server(folder, ca_key, ca_certificate, covered, now)
            made.append(_("Made a server certificate for %(names)s.", names=covered))
        for key in (AUTHORITY_KEY, SERVER_KEY):
            os.chmod(folder / key, 0o600)
        return Credentials(
            certificate=folder / SERVER_CERTIFICATE,
            key=folder / SERVER_KEY,
            authority=folder / AUTHORITY_CERTIFICATE,
            made=tuple(made),
            advice=_advice(folder, ca_certificate),
            left_out=tuple(
                _(
                    "The certificate leaves out %(name)s: it is outside the names and networks "
                    "the authority was made for (remove the folder to make a new one for the "
                    "networks this machine is on now; every tablet then trusts again).",
                    name=name,
                )
                for name in left_out
            ),
        )


@dataclass(frozen=True)
class Authority:
    """The authority's certificate as a tablet downloads it (never its key)."""

    pem: bytes
    der: bytes
    fingerprint: str  # SHA-256 of the DER, "AB:CD:…", as a system's certificate details show it
    subject: str  # its common name, which iPadOS's Certificate Trust Settings list


def read_authority(folder: Path) -> Authority | None:
    """The folder's authority, or None when none was made (or its file is not a certificate:
    the pages then say there is no secure address)."""
    certificate = _read_certificate(Path(folder) / AUTHORITY_CERTIFICATE)
    if certificate is None:
        return None
    der = certificate.public_bytes(serialization.Encoding.DER)
    names = certificate.subject.get_attributes_for_oid(NameOID.COMMON_NAME)
    return Authority(
        pem=certificate.public_bytes(serialization.Encoding.PEM),
        der=der,
        fingerprint=":".join(f"{byte:02X}" for byte in hashlib.sha256(der).digest()),
        subject=str(names[0].value) if names else ORGANISATION,
    )


# --- the authority ---------------------------------------------------------------------------


def _usable_authority(folder: Path, now: dt.datetime):
    """The folder's authority key and certificate when they match and are in date, else None."""
    pair = _read_pair(folder, AUTHORITY_KEY, AUTHORITY_CERTIFICATE)
    if pair is None:
        return None
    certificate = pair[1]
    if not certificate.not_valid_before_utc <= now < certificate.not_valid_after_utc:
        return None
    return pair


def _make_authority(folder: Path, names: Names, now: dt.datetime):
    key = ec.generate_private_key(ec.SECP256R1())
    host = next((name.split(".")[0] for name in names.dns if name != LOOPBACK_NAME), "this machine")
    subject = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, ORGANISATION),
            x509.NameAttribute(
                NameOID.COMMON_NAME, f"{ORGANISATION} on {host} ({now:%Y-%m-%d})"[:64]
            ),
        ]
    )
    public = key.public_key()
    certificate = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(public)
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - CLOCK_SLACK)
        .not_valid_after(now + dt.timedelta(days=365 * AUTHORITY_YEARS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(_key_usage(signs_certificates=True), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False)
        .add_extension(_constraints(names), critical=True)
        .sign(key, hashes.SHA256())
    )
    _write(folder / AUTHORITY_KEY, _key_bytes(key), private=True)
    _write(folder / AUTHORITY_CERTIFICATE, certificate.public_bytes(serialization.Encoding.PEM))
    # A server certificate of an earlier authority is of no use now.
    (folder / SERVER_CERTIFICATE).unlink(missing_ok=True)
    return key, certificate


def _constraints(names: Names) -> x509.NameConstraints:
    """This machine's names with a dot, and `localhost`; the networks of its interfaces,
    loopback, and each of its addresses outside them."""
    dns: list[str] = []
    for name in names.dns:
        if ("." in name or name == LOOPBACK_NAME) and not _name_within(name, dns):
            dns.append(name)
    networks = [*LOOPBACK_NETWORKS]
    for text in names.networks:
        network = ipaddress.ip_network(text)
        if network not in networks:
            networks.append(network)
    for text in names.ips:
        address = ipaddress.ip_address(text)
        if not any(address in network for network in networks):
            networks.append(ipaddress.ip_network(address))
    permitted: list[x509.GeneralName] = [x509.DNSName(name) for name in dns]
    permitted += [x509.IPAddress(network) for network in networks]
    return x509.NameConstraints(permitted_subtrees=permitted, excluded_subtrees=None)


def _advice(folder: Path, authority: x509.Certificate) -> tuple[str, ...]:
    """A sentence when the authority was made with the wider constraints of earlier versions
    (every private range, all of `.local`, the bare host name): it keeps working, and removing
    the folder narrows it, at the price of every tablet trusting again."""
    try:
        constraints = authority.extensions.get_extension_for_class(x509.NameConstraints).value
    except x509.ExtensionNotFound:
        return ()
    subtrees = constraints.permitted_subtrees or []
    names = [item.value for item in subtrees if isinstance(item, x509.DNSName)]
    if all("." in name or name == LOOPBACK_NAME for name in names):
        return ()
    return (
        _(
            "The certificate authority in %(folder)s was made by an earlier version, with wider "
            "constraints (every private network, all of .local and the bare host name); it keeps "
            "working. To narrow it to this machine's own names and networks, remove the folder "
            "and start again: every tablet then trusts the new one (step 1).",
            folder=folder,
        ),
    )


def _covered(authority: x509.Certificate, names: Names) -> tuple[Names, list[str]]:
    """The names the authority's constraints permit, and those it does not."""
    try:
        constraints = authority.extensions.get_extension_for_class(x509.NameConstraints).value
    except x509.ExtensionNotFound:
        return names, []
    subtrees = constraints.permitted_subtrees or []
    dns = [item.value for item in subtrees if isinstance(item, x509.DNSName)]
    networks = [item.value for item in subtrees if isinstance(item, x509.IPAddress)]
    kept_dns = tuple(name for name in names.dns if _name_within(name, dns))
    kept_ips = tuple(
        text for text in names.ips if any(ipaddress.ip_address(text) in net for net in networks)
    )
    left_out = [name for name in names if name not in kept_dns + kept_ips]
    return Names(dns=kept_dns, ips=kept_ips), left_out


def _name_within(name: str, permitted: Iterable[str]) -> bool:
    """RFC 5280's rule for a DNS name constraint: the name itself or any name below it."""
    return any(name == base or name.endswith("." + base) for base in permitted)


# --- the server certificate ------------------------------------------------------------------


def _server_is_current(
    folder: Path, authority: x509.Certificate, names: Names, now: dt.datetime
) -> bool:
    pair = _read_pair(folder, SERVER_KEY, SERVER_CERTIFICATE)
    if pair is None:
        return False
    certificate = pair[1]
    try:
        certificate.verify_directly_issued_by(authority)
    except (ValueError, TypeError, InvalidSignature):
        return False
    renew_at = certificate.not_valid_after_utc - dt.timedelta(days=RENEW_DAYS)
    if not certificate.not_valid_before_utc <= now < renew_at:
        return False
    return _names_of(certificate) == (set(names.dns), set(names.ips))


def _make_server(
    folder: Path, ca_key, authority: x509.Certificate, names: Names, now: dt.datetime
) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key()
    starts = now - CLOCK_SLACK
    ends = min(starts + dt.timedelta(days=SERVER_DAYS), authority.not_valid_after_utc)
    alternative: list[x509.GeneralName] = [x509.DNSName(name) for name in names.dns]
    alternative += [x509.IPAddress(ipaddress.ip_address(text)) for text in names.ips]
    certificate = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, ORGANISATION)]))
        .issuer_name(authority.subject)
        .public_key(public)
        .serial_number(x509.random_serial_number())
        .not_valid_before(starts)
        .not_valid_after(ends)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(_key_usage(signs_certificates=False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectAlternativeName(alternative), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()),
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )
    _write(folder / SERVER_KEY, _key_bytes(key), private=True)
    _write(folder / SERVER_CERTIFICATE, certificate.public_bytes(serialization.Encoding.PEM))


def _names_of(certificate: x509.Certificate) -> tuple[set[str], set[str]]:
    """The DNS names and the addresses (as text) a certificate holds."""
    try:
        alternative = certificate.extensions.get_extension_for_class(
            x509.SubjectAlternativeName
        ).value
    except x509.ExtensionNotFound:
        return set(), set()
    dns = set(alternative.get_values_for_type(x509.DNSName))
    ips = {str(address) for address in alternative.get_values_for_type(x509.IPAddress)}
    return dns, ips


# --- files -----------------------------------------------------------------------------------


def _key_usage(*, signs_certificates: bool) -> x509.KeyUsage:
    return x509.KeyUsage(
        digital_signature=not signs_certificates,
        content_commitment=False,
        key_encipherment=False,
        data_encipherment=False,
        key_agreement=False,
        key_cert_sign=signs_certificates,
        crl_sign=signs_certificates,
        encipher_only=False,
        decipher_only=False,
    )


def _public(key) -> bytes:
    return key.public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )


def _key_bytes(key) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def _read_pair(folder: Path, key_name: str, certificate_name: str):
    """A key and the certificate of that key, or None when either is missing, unreadable or
    they do not belong together."""
    key = _read_key(folder / key_name)
    certificate = _read_certificate(folder / certificate_name)
    if key is None or certificate is None:
        return None
    if _public(key.public_key()) != _public(certificate.public_key()):
        return None
    return key, certificate


def _read_key(path: Path):
    try:
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except (OSError, ValueError, TypeError):
        return None
    return key if isinstance(key, ec.EllipticCurvePrivateKey) else None


def _read_certificate(path: Path) -> x509.Certificate | None:
    try:
        return x509.load_pem_x509_certificate(path.read_bytes())
    except (OSError, ValueError):
        return None


def _write(path: Path, data: bytes, private: bool = False) -> None:
    """Write a file whole or not at all; a key is 0600 from its first byte."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.unlink(missing_ok=True)  # a stale one could carry another mode
    mode = 0o600 if private else 0o644
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """One process at a time makes or renews (two servers started at once share one authority)."""
    try:
        import fcntl
    except ImportError:  # Windows: one server per folder is the rule there
        yield
        return
    with open(folder / LOCK, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
