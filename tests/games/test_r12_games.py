"""R12's games end to end through the score book's API: a Chilean family's ten-deal carioca,
dealt to the right and won on deals won when the totals tie, and a Spanish club's seven-deal
continental with its −10 for going down and out in one turn; every score and the winner by R12."""

from __future__ import annotations

from tests.support.names import NAMES

ANA, BEA, CRIS, DANI = NAMES  # seats 0-3, clockwise


def _start(client, profile: str) -> tuple[dict, dict]:
    answer = client.post(
        "/api/games", json={"players": NAMES, "profile": profile, "first_dealer": NAMES[0]}
    )
    assert answer.status_code == 201, answer.get_json()
    game = answer.get_json()
    return game, {"X-Game-Key": game["key"]}


def _play(client, game: dict, key: dict, out: str, leftovers: dict, **facts) -> dict:
    answer = client.post(
        f"/api/games/{game['id']}/rounds",
        json={"out": out, "leftovers": leftovers, **facts},
        headers=key,
    )
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def test_a_ten_deal_carioca_dealt_to_the_right_and_won_on_deals_won(client):
    game, key = _start(client, "carioca")
    state = client.get(f"/api/games/{game['id']}").get_json()
    # R12.1 point 2: the cutter on the dealer's left, the dealer's right plays first.
    assert (state["dealer"], state["cutter"], state["first_player"]) == (ANA, BEA, DANI)
    # Ana goes out in four deals, Bea in three, and both end on 120 (a king is 10); Cris and
    # Dani hold four high cards whenever they are not out.
    outs = [ANA, ANA, ANA, ANA, BEA, BEA, BEA, CRIS, CRIS, DANI]
    held = {ANA: iter(["K K"] * 6), BEA: iter(["K K"] * 5 + ["K", "K"])}
    for number, out in enumerate(outs, start=1):
        leftovers = {
            name: next(held[name]) if name in held else {CRIS: "Q Q J J", DANI: "10 10 9 9"}[name]
            for name in NAMES
            if name != out
        }
        _play(client, game, key, out, leftovers)
        state = client.get(f"/api/games/{game['id']}").get_json()
        if number < len(outs):
            assert state["dealer"] == NAMES[-number % 4], number  # the deal passes to the right
    assert state["finished"] and state["totals"][ANA] == state["totals"][BEA] == 120
    assert state["winners"] == [ANA] and state["deals_won"] == {ANA: 4, BEA: 3}


def test_a_seven_deal_continental_with_its_minus_ten(client):
    game, key = _start(client, "continental")
    state = client.get(f"/api/games/{game['id']}").get_json()
    assert state["round"] == 1 and state["last_round"] == 7
    # Deal 1 (7 cards): Bea draws, lays 8♠ 8♥ 8♦ 8♣ and Q♣ Q♦ Q♥ and discards: −10 (R12.5).
    first = _play(
        client,
        game,
        key,
        BEA,
        {ANA: "A♠ K♦ 4♥", CRIS: "K♣ A♥ 5♦ JK", DANI: "7♠"},
        out_in_one_turn=True,
    )
    assert first["scores"] == {ANA: 34, BEA: -10, CRIS: 85, DANI: 7}
    for _ in range(6):
        _play(client, game, key, DANI, {ANA: "2♠", BEA: "3♠", CRIS: "4♠"})
    state = client.get(f"/api/games/{game['id']}").get_json()
    assert state["finished"]
    assert state["totals"] == {ANA: 46, BEA: 8, CRIS: 109, DANI: 7}
    assert state["winners"] == [DANI] and state["deals_won"] is None
