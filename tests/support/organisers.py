"""A club with organisers in the tests: its password, its hash in the setting, and how an API
client signs its requests as an organiser (`Authorization: Basic`)."""

from __future__ import annotations

import base64

from scorekeeper.platform.organisers import hash_password

PASSWORD = "Thursday club 42"
HASH = hash_password(PASSWORD)
# The API's refusal of a request only an organiser may make, without a sign-in.
REFUSED = {"error": "only an organiser may do this: sign in first"}


def basic(password: str = PASSWORD) -> dict[str, str]:
    """The headers of an API request signed with this organiser password."""
    token = base64.b64encode(f"organiser:{password}".encode()).decode()
    return {"Authorization": f"Basic {token}"}
