"""The running-totals chart and the finished game's summary, as the game page serves them."""

from __future__ import annotations

import re
from html import unescape

from tests.support.book import new_game, play

# (out, exact cut?, cards). Ann deals round 1: cutters Dan, Ann, Bob, Cat, Dan, Ann, Bob (R2).
ROUNDS = [
    ("Ann", True, {"Bob": "7 K", "Cat": "A", "Dan": "3"}),  # Dan cuts: 3 − 50
    ("Bob", False, {"Ann": "Q J", "Cat": "5", "Dan": "JK"}),
    (None, False, {"Ann": "2", "Bob": "4", "Cat": "6", "Dan": "8"}),
    ("Cat", True, {"Ann": "K", "Bob": "9", "Dan": "A A"}),  # Cat cuts and goes out: −50
    ("Ann", False, {"Bob": "3", "Cat": "2", "Dan": "K"}),
    ("Dan", True, {"Ann": "7", "Bob": "8", "Cat": "9"}),  # Ann cuts: 7 − 50
    ("Bob", False, {"Ann": "A", "Cat": "K Q", "Dan": "JK JK"}),
]
RUNNING = {
    "Ann": [0, 20, 22, 32, 32, -11, 4],
    "Bob": [17, 17, 21, 30, 33, 41, 41],
    "Cat": [15, 20, 26, -24, -22, -13, 7],
    "Dan": [-47, -32, -24, 6, 16, 16, 46],
}


# Ann and Bob take turns going out, then Cat goes out: Ann and Bob 20 each, Cat 30.
SHARED = [
    ("Ann" if n % 2 else "Bob", False, {"Cat": "5", ("Bob" if n % 2 else "Ann"): "5"})
    for n in range(6)
] + [("Cat", False, {"Ann": "5", "Bob": "5"})]


def series(page):
    """{name: (totals, the group's markup)} for each line of the chart."""
    found = re.findall(
        r'<g class="series[^"]*" data-player="([^"]+)" data-totals="([^"]*)">(.*?)</g>', page
    )
    return {
        unescape(name): ([int(v) for v in totals.split(",")], body) for name, totals, body in found
    }


def test_no_chart_before_the_first_round(client):
    game = new_game(client)
    page = client.get(f"/games/{game.id}").get_data(as_text=True)
    assert 'id="chart"' not in page and "<svg" not in page


def test_the_chart_holds_each_players_running_totals(client):
    game = new_game(client)
    play(client, game, ROUNDS[:4])
    page = client.get(f"/games/{game.id}").get_data(as_text=True)  # a spectator sees it too
    lines = series(page)
    assert {name: totals for name, (totals, _) in lines.items()} == {
        name: values[:4] for name, values in RUNNING.items()
    }
    svg = re.search(r"<svg [^>]*>", page).group(0)
    assert 'role="img"' in svg
    label = unescape(re.search(r'aria-label="([^"]+)"', svg).group(1))
    assert label == (
        "Running totals after round 4 of 7: Cat leads. "
        "Totals, lowest first: Cat −24; Dan 6; Bob 30; Ann 32."
    )
    # Told apart by more than colour: each line its own colour and marker shape, and a label.
    colours = {re.search(r'stroke="(#[0-9a-f]{6})"', body).group(1) for _, body in lines.values()}
    assert len(colours) == 4
    assert len({_shape(body) for _, body in lines.values()}) == 4
    assert "★ Cat −24<" in lines["Cat"][1]
    assert 'class="series lead"' in page and page.count('class="series lead"') == 1
    # The ledger stays the table beside it.
    assert page.index('id="chart"') < page.index('<table class="ledger">')
    # Drawn on the server: the chart needs no script and asks for nothing from elsewhere.
    drawing = re.search(r"<svg .*?</svg>", page, re.S).group(0)
    assert "http://" not in drawing and "https://" not in drawing and "<script" not in drawing


def _shape(body):
    """A marker's kind: a filled circle, a ring, or a polygon's outline."""
    marker = re.search(r"<(circle|polygon)([^>]*)>", body)
    if marker.group(1) == "circle":
        return "ring" if 'fill="#fff"' in marker.group(2) else "circle"
    points = [
        tuple(map(float, pair.split(",")))
        for pair in re.search(r'points="([^"]+)"', marker.group(2)).group(1).split()
    ]
    return tuple((round(x - points[0][0]), round(y - points[0][1])) for x, y in points)


def test_the_finished_chart_marks_shared_winners(client):
    names = ["Ann", "Bob", "Cat"]
    game = new_game(client, names, "family")
    play(client, game, SHARED)
    page = client.get(f"/games/{game.id}").get_data(as_text=True)
    assert page.count('class="series lead"') == 2
    label = unescape(re.search(r'<svg [^>]*aria-label="([^"]+)"', page).group(1))
    assert label.startswith("Running totals after round 7 of 7: Ann and Bob win.")


def test_the_summary_of_a_finished_game(client):
    game = new_game(client)
    play(client, game, ROUNDS)
    page = client.get(f"/games/{game.id}").get_data(as_text=True)
    summary = re.search(r'<section id="summary".*?</section>', page, re.S).group(0)
    text = " ".join(unescape(re.sub(r"<[^>]+>", " ", summary)).split())
    assert "Ann wins" in text
    assert "1. Ann 4 winner 2. Cat 7 3. Bob 41 4. Dan 46" in text
    assert "Most rounds went out: Ann and Bob (2 each)" in text
    assert "Exact-cut bonuses: Ann ×1 (−50), Cat ×1 (−50), Dan ×1 (−50)" in text
    assert "The stock ran out in round 3" in text
    assert "Ann round 6: −43 round 2: 20" in text
    assert "Cat round 4: −50 round 7: 20" in text
    assert "Dan round 1: −47 round 4: 30"  # the earlier of two 30s in text
    assert "Play again" not in text  # a spectator cannot start the next game
    assert page.index('id="summary"') < page.index('id="chart"') < page.index('id="ledger"')


def test_a_shared_win_is_said_to_be_shared(client):
    names = ["Ann", "Bob", "Cat"]
    game = new_game(client, names, "family")
    play(client, game, SHARED)
    client.set_cookie(f"gk_{game.id}", game.key)
    page = client.get(f"/games/{game.id}").get_data(as_text=True)
    assert "Ann and Bob share the win" in page
    assert "A shared win: 2 players finished level on 20." in page
    assert "Play again with this table" in page and "Bob deals first" in page  # the seat after Ann


def test_the_chart_runs_to_the_games_own_last_deal(client):
    game = new_game(client, rules="shanghai")
    play(client, game, ROUNDS[:3])
    page = client.get(f"/games/{game.id}").get_data(as_text=True)
    svg = re.search(r"<svg .*?</svg>", page, re.S).group(0)
    label = unescape(re.search(r'aria-label="([^"]+)"', svg).group(1))
    assert label.startswith("Running totals after round 3 of 10:")
    axis = [unescape(text) for text in re.findall(r"<text[^>]*>([^<]+)</text>", svg)]
    assert {"start", "8", "9", "10"} <= set(axis)


def _x(tag, attribute):
    return float(re.search(rf'{attribute}="([-0-9.]+)"', tag).group(1))


def test_the_lines_stop_at_the_last_round_played(client):
    game = new_game(client)
    play(client, game, ROUNDS[:3])
    svg = re.search(r"<svg .*?</svg>", client.get(f"/games/{game.id}").get_data(as_text=True), re.S)
    axis = {
        unescape(text): float(x)
        for x, text in re.findall(
            r'<text x="([0-9.]+)" y="[0-9.]+" text-anchor="middle"[^>]*>([^<]+)<', svg.group(0)
        )
    }
    for totals, body in series(svg.group(0)).values():
        assert len(totals) == 3
        line = re.search(r'points="([^"]+)"', body).group(1).split()
        assert float(line[-1].split(",")[0]) == axis["3"]  # the line ends at round 3
        # Its label and the stroke to it start right after round 3, well before round 4.
        leader = re.search(r"<line [^>]*>", body).group(0)
        label = re.search(r"<text [^>]*>", body).group(0)
        assert axis["3"] < _x(leader, "x2") < _x(label, "x") < (axis["3"] + axis["4"]) / 2


def test_one_finished_game_is_a_point_with_its_value_not_a_line(client):
    game = new_game(client)
    play(client, game, ROUNDS)
    page = client.get("/players/Ann").get_data(as_text=True)
    # The final totals' chart (the rating's has a class of its own).
    svg = re.search(r'<svg class="chart player-chart" .*?</svg>', page, re.S).group(0)
    [(totals, body)] = series(svg).values()
    assert totals == [4] and "<polyline" not in body
    marker = re.search(r"<circle [^>]*>", body).group(0)
    ticks = [float(x) for x in re.findall(r'<line x1="([0-9.]+)" x2=', svg)]
    ends = [float(x) for x in re.findall(r'<line x1="[0-9.]+" x2="([0-9.]+)"', svg)]
    middle = (ticks[0] + ends[0]) / 2
    assert _x(marker, "cx") == middle  # in the middle, with its game's number under it
    assert re.search(rf'<text x="{middle:.1f}"[^>]*>1</text>', svg)
    # Its value beside it, with no stroke drawn on across the chart to reach it.
    leader = re.search(r'<line x1="([0-9.]+)" y1="[0-9.]+" x2="([0-9.]+)"', body)
    assert float(leader.group(2)) - float(leader.group(1)) < 10
    assert ">Liverpool 4<" in body  # the line is the rule set's
    assert "One finished game so far" in page
