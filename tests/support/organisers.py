"""A club with organisers in the tests: its password, its hash in the setting, and how an API
client signs its requests as an organiser (`Authorization: Basic`)."""

from __future__ import annotations

import base64

from argon2 import PasswordHasher

PASSWORD = "Thursday club 42"
# Its argon2 hash, made with the smallest costs argon2 allows: the tests sign in and verify
# thousands of times, and a hash carries its own costs, so the app verifies this one exactly as
# it verifies a club's (`flask organiser-password`'s, about 50 ms each), only sooner.
HASH = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1).hash(PASSWORD)
# The API's refusal of a request only an organiser may make, without a sign-in.
REFUSED = {"error": "only an organiser may do this: sign in first"}


def basic(password: str = PASSWORD) -> dict[str, str]:
    """The headers of an API request signed with this organiser password."""
    token = base64.b64encode(f"organiser:{password}".encode()).decode()
    return {"Authorization": f"Basic {token}"}
