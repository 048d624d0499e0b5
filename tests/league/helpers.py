"""Nights with games through the API, each table's rounds recorded by name, for the league's
tests: who goes out and every other player's points, then the game ended after its last round
(or left in play)."""

from __future__ import annotations

from typing import Any


def post(client, path, body=None, key=None, **headers):
    if key is not None:
        headers["Idempotency-Key"] = key
    return client.post(path, json=body if body is not None else {}, headers=headers)


def night(
    client,
    held_on: str,
    tables: list[list[str]],
    rounds: dict[int, list[tuple[str, dict[str, int]]]],
    rules: str = "liverpool",
    in_play: tuple[int, ...] = (),
    headers: dict[str, str] | None = None,
) -> dict[str, Any]:
    """A drawn night: `tables` the players pinned to each table (from 1); `rounds` each table's
    rounds as (who went out, {player: points}); every table ends after its last round but those
    `in_play`."""
    headers = headers or {}
    players = [
        {"name": name, "table": number}
        for number, names in enumerate(tables, start=1)
        for name in names
    ]
    made = post(client, "/api/nights", {"rules": rules, "held_on": held_on}, **headers)
    assert made.status_code == 201, made.json
    checked = post(
        client, f"/api/nights/{made.json['id']}/players", {"players": players}, **headers
    )
    assert checked.status_code == 201, checked.json
    drawn = post(client, f"/api/nights/{made.json['id']}/draw", **headers)
    assert drawn.status_code == 201, drawn.json
    body = drawn.json
    for table in body["tables"]:
        key = {"X-Game-Key": body["keys"][str(table["game"])]}
        played = rounds.get(table["number"], [])
        for out, points in played:
            recorded = client.post(
                f"/api/games/{table['game']}/rounds",
                json={"out": out, "points": points},
                headers=key,
            )
            assert recorded.status_code == 201, recorded.json
        if played and table["number"] not in in_play:
            ended = client.post(
                f"/api/games/{table['game']}/end", json={"after": len(played)}, headers=key
            )
            assert ended.status_code == 200, ended.json
    return body


def two_nights(client) -> tuple[dict, dict, dict]:
    """Night A (two tables of Liverpool), night B (one table, two rounds), night C (a table in
    play): the nights the scoring tests work out by hand."""
    a = night(
        client,
        "2026-11-05",
        [["Ann", "Bob", "Cat", "Dan"], ["Eve", "Fay", "Gus", "Hal"]],
        {
            1: [("Ann", {"Bob": 10, "Cat": 20, "Dan": 20})],
            2: [("Eve", {"Fay": 5, "Gus": 5, "Hal": 50})],
        },
    )
    b = night(
        client,
        "2026-11-12",
        [["Ann", "Bob", "Eve", "Fay"]],
        {
            1: [
                ("Bob", {"Ann": 15, "Eve": 30, "Fay": 15}),
                ("Fay", {"Ann": 5, "Bob": 25, "Eve": 10}),
            ]
        },
    )
    c = night(
        client,
        "2026-11-19",
        [["Cat", "Dan", "Gus", "Hal"]],
        {1: [("Cat", {"Dan": 5, "Gus": 5, "Hal": 5})]},
        in_play=(1,),
    )
    return a, b, c
