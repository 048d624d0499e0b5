"""What a tablet downloads to trust the score book: the certificate authority's certificate
(`certificates.read_authority`) as DER, as PEM, and wrapped in an iPadOS/iOS configuration
profile. Only the certificate is read: the key beside it (`ca.key`) never leaves the machine."""

from __future__ import annotations

import plistlib
import uuid

from .certificates import ORGANISATION, Authority

DISPLAY_NAME = ORGANISATION
PROFILE_IDENTIFIER = "lan.scorekeeper.trust"
# The namespace of the profile's UUIDs: the same certificate always gives the same profile, so
# installing it again replaces the one installed rather than adding a second.
PROFILE_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_DNS, "trust.scorekeeper.lan")


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
