"""The seat draw of a club night (scorekeeper/nights/draw.py): balanced table sizes within the rule
set's range, pinned members at their tables, the fewest repeated pairs over the last nights
(checked against every possible draw on small nights, and against a night that has exactly one
draw without a repeat, built from the affine plane of order 4), and the same draw for the same
seed; a season of the same players keeps its repeats at the figure measured (pinned below, so
that a worse draw fails). No timings here: bench/draw.py measures them."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.nights import schedules
from scorekeeper.nights.draw import (
    Draw,
    DrawError,
    Problem,
    draw,
    repeated_pairs,
    table_sizes,
)

DRAWN_NAMES = [f"P{number:02}" for number in range(80)]

# Sizes ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "least", "most", "sizes"),
    [
        (11, 3, 8, (4, 4, 3)),  # the example: never 8 + 3
        (24, 3, 8, (4,) * 6),
        (10, 3, 8, (5, 5)),
        (9, 3, 8, (5, 4)),
        (7, 3, 8, (4, 3)),
        (6, 3, 8, (6,)),  # one table of 6 rather than two of 3
        (3, 3, 8, (3,)),
        (13, 3, 8, (5, 4, 4)),
        (40, 3, 8, (4,) * 10),
        (12, 2, 4, (4, 4, 4)),
        (5, 2, 4, (3, 2)),
        (13, 6, 8, (7, 6)),  # a 6-8 rule set prefers 6
        (16, 6, 8, (8, 8)),
        (8, 8, 8, (8,)),
    ],
)
def test_sizes_are_balanced_near_four_or_five(players, least, most, sizes):
    assert table_sizes(players, least, most) == sizes


def outside(sizes, least, most):
    low = min(max(4, least), most)
    high = max(min(5, most), low)
    return sum(low - size if size < low else max(size - high, 0) for size in sizes)


@settings(max_examples=400, deadline=None)
@given(
    players=st.integers(1, 120),
    least=st.integers(1, 9),
    extra=st.integers(0, 6),
)
def test_hypothesis_sizes_are_the_best_balanced_split_or_none_exists(players, least, extra):
    most = least + extra
    # Every balanced split into any number of tables, found without the module's arithmetic.
    splits = []
    for tables in range(1, players + 1):
        sizes = sorted((len(range(seat, players, tables)) for seat in range(tables)), reverse=True)
        if least <= sizes[-1] and sizes[0] <= most:
            splits.append(tuple(sizes))
    try:
        sizes = table_sizes(players, least, most)
    except DrawError as error:
        assert not splits
        expected = Problem.TOO_FEW_PLAYERS if players < least else Problem.NO_SPLIT
        assert error.code is expected
        return
    assert sizes in splits
    assert sum(sizes) == players and max(sizes) - min(sizes) <= 1
    assert list(sizes) == sorted(sizes, reverse=True)
    assert all(least <= size <= most for size in sizes)
    best = min(outside(split, least, most) for split in splits)
    assert outside(sizes, least, most) == best
    assert len(sizes) == max(len(split) for split in splits if outside(split, least, most) == best)


@pytest.mark.parametrize(
    ("players", "least", "most", "code", "values"),
    [
        (5, 0, 8, Problem.BAD_RANGE, {"least": 0, "most": 8}),
        (5, 6, 4, Problem.BAD_RANGE, {"least": 6, "most": 4}),
        (2, 3, 8, Problem.TOO_FEW_PLAYERS, {"players": 2, "least": 3}),
        (0, 3, 8, Problem.TOO_FEW_PLAYERS, {"players": 0, "least": 3}),
        (7, 5, 5, Problem.NO_SPLIT, {"players": 7, "least": 5, "most": 5}),
        (9, 4, 4, Problem.NO_SPLIT, {"players": 9, "least": 4, "most": 4}),
    ],
)
def test_no_split_is_a_coded_error(players, least, most, code, values):
    with pytest.raises(DrawError) as raised:
        table_sizes(players, least, most)
    assert raised.value.code is code
    assert dict(raised.value.values) == values
    assert isinstance(raised.value, ValueError)
    with pytest.raises(DrawError) as raised:
        draw(DRAWN_NAMES[:players], least, most, seed=1)
    assert raised.value.code is code


# Refusals ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "pinned", "code", "values"),
    [
        (["Ann", "Bob", "Ann", "Cat"], {}, Problem.DUPLICATE_PLAYER, {"name": "Ann"}),
        (DRAWN_NAMES[:11], {"Zed": 1}, Problem.PINNED_NOT_PLAYING, {"name": "Zed"}),
        # 11 players are three tables: there is no table 4, and no table 0.
        (
            DRAWN_NAMES[:11],
            {"P03": 4},
            Problem.PINNED_TABLE,
            {"name": "P03", "table": 4, "tables": 3},
        ),
        (
            DRAWN_NAMES[:11],
            {"P03": 0},
            Problem.PINNED_TABLE,
            {"name": "P03", "table": 0, "tables": 3},
        ),
        # Five pinned to a table of at most 4.
        (
            DRAWN_NAMES[:11],
            {name: 2 for name in DRAWN_NAMES[:5]},
            Problem.TABLE_FULL,
            {"table": 2, "pinned": 5, "size": 4},
        ),
        # 13 players are 5 + 4 + 4: five pinned to table 2 and five to table 3, one table of 5.
        (
            DRAWN_NAMES[:13],
            {name: 2 + number // 5 for number, name in enumerate(DRAWN_NAMES[:10])},
            Problem.TABLE_FULL,
            {"table": 3, "pinned": 5, "size": 4},
        ),
    ],
)
def test_bad_players_and_pins_are_coded_errors(players, pinned, code, values):
    with pytest.raises(DrawError) as raised:
        draw(players, 3, 8, pinned=pinned, seed=7)
    assert raised.value.code is code
    assert dict(raised.value.values) == values


def test_a_negative_window_is_refused():
    with pytest.raises(DrawError) as raised:
        draw(DRAWN_NAMES[:8], 3, 8, seed=1, window=-1)
    assert raised.value.code is Problem.BAD_WINDOW


def test_the_error_says_its_code_and_values_only():
    error = DrawError(Problem.PINNED_TABLE, name="Ann", table=4, tables=3)
    assert error.args == ("draw.pinned_table", {"name": "Ann", "table": 4, "tables": 3})


# Pins ----------------------------------------------------------------------------------------


def test_a_table_with_more_pinned_than_the_small_size_takes_a_larger_size():
    """11 players are 4 + 4 + 3; four pinned to table 3 make it a table of 4."""
    pinned = {name: 3 for name in DRAWN_NAMES[:4]}
    result = draw(DRAWN_NAMES[:11], 3, 8, pinned=pinned, seed=3)
    assert result.sizes == (4, 3, 4)
    assert set(result.tables[2]) == set(DRAWN_NAMES[:4])


def test_pinned_members_sit_at_their_table_even_when_it_costs_a_repeat():
    """Last night's four tables of four (A, B, C, D); P00 and P01, who sat together at A, are
    both pinned to table 2. Their repeat forces a second: table 2 has room for two of B, C and
    D, so one of those, four players, meets again at the three other tables. Two, no more."""
    history = [[DRAWN_NAMES[start : start + 4] for start in range(0, 16, 4)]]
    pinned = {"P00": 2, "P01": 2}
    result = draw(DRAWN_NAMES[:16], 4, 4, pinned=pinned, history=history, seed=5)
    assert {"P00", "P01"} <= set(result.tables[1])
    assert ("P00", "P01") in result.repeated
    assert result.repeats == 2


# Any night -----------------------------------------------------------------------------------


@st.composite
def nights(draw_from):
    count = draw_from(st.integers(3, 40))
    least = draw_from(st.integers(2, 5))
    most = least + draw_from(st.integers(0, 4))
    players = draw_from(st.permutations(DRAWN_NAMES[:50]))[:count]
    try:
        tables = len(table_sizes(count, least, most))
    except DrawError:
        tables = 0
    pinned = {}
    if tables:
        chosen = draw_from(st.lists(st.sampled_from(players), max_size=4, unique=True))
        pinned = {name: draw_from(st.integers(1, tables)) for name in chosen}
    past = draw_from(st.integers(0, 7))
    rng = random.Random(draw_from(st.integers(0, 10**6)))
    history = []
    for _ in range(past):
        came = rng.sample(DRAWN_NAMES[:50], rng.randint(4, 30))
        history.append([came[start : start + 4] for start in range(0, len(came), 4)])
    return players, least, most, pinned, history, draw_from(st.integers(0, 2**32))


def seated(result: Draw) -> list[str]:
    return [name for table in result.tables for name in table]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(night=nights())
def test_hypothesis_every_player_is_seated_once_at_balanced_tables_pins_kept(night):
    players, least, most, pinned, history, seed = night
    try:
        result = draw(players, least, most, pinned=pinned, history=history, seed=seed, steps=2000)
    except DrawError as error:
        assert error.code in {
            Problem.TOO_FEW_PLAYERS,
            Problem.NO_SPLIT,
            Problem.TABLE_FULL,
        }
        return
    assert sorted(seated(result)) == sorted(players)
    assert sorted(result.sizes) == sorted(table_sizes(len(players), least, most))
    for name, table in pinned.items():
        assert name in result.tables[table - 1]
    assert result.seed == seed
    assert result.repeated == repeated_pairs(result.tables, history, 5)
    assert result.repeats == len(result.repeated)
    # The same arguments, players checked in in another order: the same draw.
    again = draw(
        list(reversed(players)), least, most, pinned=pinned, history=history, seed=seed, steps=2000
    )
    assert again == result


def test_different_seeds_give_different_draws():
    draws = {draw(DRAWN_NAMES[:12], 3, 8, seed=seed).tables for seed in range(10)}
    assert len(draws) > 5


def test_the_draw_does_not_touch_the_global_random():
    random.seed(11)
    before = random.random()
    random.seed(11)
    draw(
        DRAWN_NAMES[:24], 3, 8, seed=4, history=[[DRAWN_NAMES[i : i + 4] for i in range(0, 24, 4)]]
    )
    assert random.random() == before


def test_only_the_window_counts():
    players = ["Ann", "Bob", "Cat", "Dan"]
    history = [[["Eve", "Fay"]], [["Ann", "Bob"]]]
    assert draw(players, 4, 4, history=history, seed=1, window=1).repeats == 0
    result = draw(players, 4, 4, history=history, seed=1, window=2)
    assert result.repeated == (("Ann", "Bob"),)


# The fewest repeats --------------------------------------------------------------------------


def every_draw(players, sizes):
    """Every way to seat `players` at tables of `sizes` (tables of one size unordered)."""
    if not sizes:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes)):  # the first player's table, of each size there is
        others_sizes = list(sizes)
        others_sizes.remove(size)
        for others in combinations(rest, size - 1):
            table = [first, *others]
            left = [name for name in rest if name not in others]
            for tables in every_draw(left, others_sizes):
                yield [table, *tables]


def recency(tables, history, window=5):
    return sum(
        window - age
        for age, night in enumerate(history[:window])
        for past in night
        for table in tables
        for pair in combinations(table, 2)
        if set(pair) <= set(past)
    )


def random_history(rng, players, nights, sizes):
    history = []
    for _ in range(nights):
        came = rng.sample(players, rng.randint(len(players) // 2, len(players)))
        size = rng.choice(sizes)
        history.append([came[start : start + size] for start in range(0, len(came), size)])
    return history


@pytest.mark.parametrize("case", range(30))
def test_the_draw_is_as_good_as_every_possible_draw_on_small_nights(case):
    """Against all draws (up to 5,775 for 12 players at three tables of 4): the fewest repeats,
    and among those the oldest meetings."""
    rng = random.Random(case)
    count = rng.choice([6, 7, 8, 9, 10, 11, 12])
    players = DRAWN_NAMES[:count]
    history = random_history(rng, players, rng.randint(2, 6), [3, 4, 5])
    sizes = table_sizes(count, 3, 8)
    result = draw(players, 3, 8, history=history, seed=case)
    costs = [
        (len(repeated_pairs(tables, history)), recency(tables, history))
        for tables in every_draw(players, list(sizes))
    ]
    assert (result.repeats, recency(result.tables, history)) == min(costs)


# The affine plane of order 4: 16 points (x, y) over GF(4), 20 lines in 5 parallel classes of 4
# lines of 4 points; two points lie on exactly one line. Four classes as four nights leave one
# draw of 16 players at 4 tables of 4 without a repeat: the fifth class.
GF4_TIMES = [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]


def affine_plane() -> list[list[list[str]]]:
    def name(x, y):
        return f"P{4 * x + y:02}"

    classes = [[[name(c, y) for y in range(4)] for c in range(4)]]  # x = c
    for slope in range(4):  # y = slope * x + b
        classes.append([[name(x, GF4_TIMES[slope][x] ^ b) for x in range(4)] for b in range(4)])
    return classes


def test_the_affine_plane_is_a_resolvable_design():
    classes = affine_plane()
    pairs = [
        frozenset(pair) for night in classes for table in night for pair in combinations(table, 2)
    ]
    assert len(pairs) == len(set(pairs)) == 16 * 15 // 2
    for night in classes:
        assert sorted(name for table in night for name in table) == DRAWN_NAMES[:16]


def naive(players, least, most, seed, history):
    """A draw by shuffling and cutting, with no search."""
    shuffled = list(players)
    random.Random(seed).shuffle(shuffled)
    tables, start = [], 0
    for size in table_sizes(len(players), least, most):
        tables.append(shuffled[start : start + size])
        start += size
    return len(repeated_pairs(tables, history))


@pytest.mark.parametrize("left_out", range(5))
def test_after_four_nights_of_the_plane_the_fifth_class_is_found(left_out):
    classes = affine_plane()
    history = [night for number, night in enumerate(classes) if number != left_out]
    for seed in range(3):
        result = draw(DRAWN_NAMES[:16], 3, 8, history=history, seed=seed)
        assert result.repeats == 0
        assert {frozenset(table) for table in result.tables} == {
            frozenset(table) for table in classes[left_out]
        }


def test_a_naive_draw_repeats_where_the_search_does_not():
    """The test above fails on a draw that only shuffles: after four nights of the plane, each
    shuffled draw has a repeat (one draw in 2.6 million has none)."""
    history = affine_plane()[1:]
    naive_repeats = [naive(DRAWN_NAMES[:16], 3, 8, seed, history) for seed in range(20)]
    searched = [
        draw(DRAWN_NAMES[:16], 3, 8, history=history, seed=seed).repeats for seed in range(20)
    ]
    assert min(naive_repeats) > 0
    assert max(searched) == 0


def test_three_nights_of_the_plane_leave_two_draws_without_a_repeat():
    """The pairs left by three classes make a 4 x 4 grid, whose only tables of four without a
    repeat are its rows or its columns: the two classes not played."""
    classes = affine_plane()
    left = {frozenset(frozenset(table) for table in night) for night in classes[3:]}
    found = set()
    for seed in range(8):
        result = draw(DRAWN_NAMES[:16], 3, 8, history=classes[:3], seed=seed)
        assert result.repeats == 0
        found.add(frozenset(frozenset(table) for table in result.tables))
    assert found == left


def test_repeated_pairs_counts_a_pair_once_however_often_it_met():
    history = [
        [["Ann", "Bob", "Cat"], ["Dan", "Eve"]],
        [["Ann", "Bob"], ["Cat", "Dan", "Eve"]],
        [["Cat", "Eve", "Zed"]],
    ]
    tables = [["Bob", "Ann", "Eve"], ["Cat", "Dan"]]
    assert repeated_pairs(tables, history) == (("Ann", "Bob"), ("Cat", "Dan"))
    assert repeated_pairs(tables, history, window=1) == (("Ann", "Bob"),)
    assert repeated_pairs(tables, history, window=0) == ()


def test_the_draw_names_each_players_table():
    result = draw(DRAWN_NAMES[:11], 3, 8, pinned={"P05": 3}, seed=2)
    assert result.table_of("P05") == 3
    assert [result.table_of(name) for name in result.tables[0]] == [1] * 4
    with pytest.raises(KeyError):
        result.table_of("Zed")


def test_a_negative_budget_or_no_start_is_refused_and_no_steps_is_the_greedy_start():
    for steps, restarts in ((-1, 4), (100, 0)):
        with pytest.raises(DrawError) as raised:
            draw(DRAWN_NAMES[:8], 3, 8, seed=1, steps=steps, restarts=restarts)
        assert raised.value.code is Problem.BAD_STEPS
    result = draw(DRAWN_NAMES[:8], 3, 8, seed=1, steps=0)
    assert sorted(seated(result)) == DRAWN_NAMES[:8]


# A season ----------------------------------------------------------------------------------


def drawn_season(players, nights, season_seed, window=5):
    """Nights drawn one by one, each with the nights before as history (newest first), seeded
    as bench/draw.py seeds them; each night's repeats."""
    history, repeats = [], []
    for night in range(nights):
        result = draw(players, 3, 8, history=history, seed=season_seed * 100 + night)
        repeats.append(result.repeats)
        history.insert(0, [list(table) for table in result.tables])
    return repeats


def test_a_season_of_the_same_24_repeats_no_pair():
    """bench/draw.py's season 1 of 24 members coming every night: the draw plans six nights
    without a shared pair and follows them, so no night of ten repeats a pair of its window
    (as a social golfer schedule played in turn; bench/README.md, "Seat draw")."""
    repeats = drawn_season([f"M{number:02}" for number in range(24)], 10, 1)
    assert repeats == [0] * 10


@pytest.mark.parametrize("sizes", [(4,) * 6, (5, 4, 4, 4, 4, 4), (4,) * 7, (5, 5, 4, 4, 4, 4, 4)])
def test_a_planned_run_seats_no_pair_twice(sizes):
    """The plans the draw follows (the stored one for 24 at tables of 4, and ones it searches
    for): six nights, each seating every player once at tables of the sizes, no pair twice."""
    plan = schedules.plan(sizes, 6)
    assert plan is not None and len(plan) == 6
    players = sum(sizes)
    pairs = []
    for night in plan:
        assert sorted(player for table in night for player in table) == list(range(players))
        assert sorted(map(len, night), reverse=True) == list(sizes)
        pairs += [frozenset(pair) for table in night for pair in combinations(table, 2)]
    assert len(pairs) == len(set(pairs))


def test_twelve_players_have_no_plan():
    """Three tables of 4 for six nights would need 18 partners for each of 12 players."""
    assert schedules.plan((4, 4, 4), 6) is None


def test_a_planned_night_keeps_the_pins_and_is_the_same_for_the_same_seed():
    """The same 24 every night with one member pinned to table 2 each night: the pins are
    kept, no night repeats a pair, and drawing a night again with its seed gives it again."""
    players = [f"M{number:02}" for number in range(24)]
    history = []
    for night in range(8):
        pinned = {players[night]: 2}
        result = draw(players, 3, 8, pinned=pinned, history=history, seed=night)
        assert players[night] in result.tables[1]
        assert result.repeats == 0
        again = draw(list(reversed(players)), 3, 8, pinned=pinned, history=history, seed=night)
        assert again == result
        history.insert(0, [list(table) for table in result.tables])


def test_a_planned_night_gives_way_when_it_would_repeat_an_older_night():
    """Two nights of the same 24 follow a plan; an older night of the window seated two of the
    plan's next table together, so the draw does not follow the plan into that repeat and
    still finds a night without one."""
    players = [f"M{number:02}" for number in range(24)]
    history = []
    for night in range(2):
        tables = draw(players, 3, 8, history=history, seed=night).tables
        history.insert(0, [list(table) for table in tables])
    planned = draw(players, 3, 8, history=history, seed=9)
    assert planned.repeats == 0
    first, second = planned.tables[0][:2]
    result = draw(players, 3, 8, history=[*history, [[first, second]]], seed=9)
    assert result.repeats == 0
    assert result.table_of(first) != result.table_of(second)
