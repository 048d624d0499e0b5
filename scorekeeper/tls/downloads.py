"""What a tablet downloads to trust the score book: the certificate authority's certificate
(`ca.crt` in the tls folder, PEM) as DER, as PEM, and wrapped in an iPadOS/iOS configuration
profile. Only the certificate is read: the key beside it (`ca.key`) never leaves the machine."""

from __future__ import annotations

import plistlib
import uuid
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization

CERTIFICATE_FILE = "ca.crt"
DISPLAY_NAME = "Liverpool Scorekeeper"
PROFILE_IDENTIFIER = "lan.scorekeeper.trust"
# The namespace of the profile's UUIDs: the same certificate always gives the same profile, so
# installing it again replaces the one installed rather than adding a second.
PROFILE_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_DNS, "trust.scorekeeper.lan")


@dataclass(frozen=True)
class Authority:
    """The certificate authority's certificate, read from its PEM file."""

    pem: bytes
    der: bytes
    fingerprint: str  # SHA-256 of the DER, "AB:CD:…", as a system's certificate details show it
    subject: str  # the certificate's common name


def read_authority(folder: Path) -> Authority | None:
    """The certificate authority in `folder`, or None when none was made (or its file is not a
    certificate: the pages then say there is no secure address)."""
    try:
        data = (folder / CERTIFICATE_FILE).read_bytes()
        certificate = x509.load_pem_x509_certificate(data)
    except (OSError, ValueError):
        return None
    der = certificate.public_bytes(serialization.Encoding.DER)
    names = certificate.subject.get_attributes_for_oid(x509.NameOID.COMMON_NAME)
    return Authority(
        pem=certificate.public_bytes(serialization.Encoding.PEM),
        der=der,
        fingerprint=":".join(f"{byte:02X}" for byte in certificate.fingerprint(hashes.SHA256())),
        subject=str(names[0].value) if names else DISPLAY_NAME,
    )


def mobileconfig(authority: Authority) -> bytes:
    """An unsigned configuration profile holding the certificate as one root payload, which
    Safari hands to Settings → Profile Downloaded; its UUIDs come from the fingerprint."""
    profile_uuid = uuid.uuid5(PROFILE_NAMESPACE, authority.fingerprint)
    payload_uuid = uuid.uuid5(PROFILE_NAMESPACE, "root:" + authority.fingerprint)
    profile = {
        "PayloadType": "Configuration",
        "PayloadVersion": 1,
        "PayloadIdentifier": PROFILE_IDENTIFIER,
        "PayloadUUID": str(profile_uuid).upper(),
        "PayloadDisplayName": DISPLAY_NAME,
        "PayloadDescription": (
            "Lets this tablet open the score book's secure address on the home network."
        ),
        "PayloadOrganization": DISPLAY_NAME,
        "PayloadRemovalDisallowed": False,
        "PayloadContent": [
            {
                "PayloadType": "com.apple.security.root",
                "PayloadVersion": 1,
                "PayloadIdentifier": f"{PROFILE_IDENTIFIER}.root",
                "PayloadUUID": str(payload_uuid).upper(),
                "PayloadDisplayName": authority.subject,
                "PayloadCertificateFileName": "scorekeeper-ca.crt",
                "PayloadContent": authority.der,
            }
        ],
    }
    return plistlib.dumps(profile, fmt=plistlib.FMT_XML)
