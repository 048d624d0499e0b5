"""Saved rule sets made as the table makes them, through `POST /api/rulesets`.

`smith_document()` is a family's own rule set like the issue's (joker 50, ace 20, 11 cards every
deal, one more deal "3 runs of 5", 3 buys a game); `save_ruleset` keeps a document under a name
and checks the app took it.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.rules.ruleset import LIVERPOOL

SMITH = "Smith family"


def smith_document(name: str = SMITH) -> dict[str, Any]:
    """The family's rule set, built from the Liverpool preset."""
    document = LIVERPOOL.to_json()
    document["name"] = name
    document["values"].update(JK=50, A=20)
    document["buying"]["per_game"] = 3
    for deal in document["deals"]:
        deal["cards"] = 11
    document["deals"].append(
        {"cards": 11, "contract": [{"kind": "run", "size": 5}] * 3, "whole_hand": False}
    )
    return document


def save_ruleset(client, rules: Any = None, name: str | None = None, **headers) -> dict[str, Any]:
    """`POST /api/rulesets` (the Smith family's rules unless told); the saved rule set's answer."""
    body: dict[str, Any] = {"rules": smith_document() if rules is None else rules}
    if name is not None:
        body["name"] = name
    answer = client.post("/api/rulesets", json=body, headers=headers)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()
