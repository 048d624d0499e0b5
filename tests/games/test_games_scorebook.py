"""The score book's bookkeeping: seats, deal, cut bonus, penalties, corrections, undo, winners."""

from __future__ import annotations

import re

import pytest

from scorekeeper import create_app
from scorekeeper.games import errors, ledger, service
from scorekeeper.games.models import Game, Round, RoundChange, RoundScore
from scorekeeper.games.roundvalues import RoundEntry
from scorekeeper.platform.database import db
from tests.support import book as through_the_api
from tests.support.config import TEST_CONFIG
from tests.support.names import NAMES


@pytest.fixture
def ctx(app):
    with app.app_context():
        yield


def new_game(names=NAMES, profile=None, first_dealer=0) -> Game:
    game, _key = service.create_game(names, profile, first_dealer)
    return game


def entry(out, cut_exact=False, **cards) -> RoundEntry:
    """A round by names: entry("Cat", Ann="A K", Bob="7", Dan="JK")."""
    seats = {name: seat for seat, name in enumerate(NAMES)}
    return RoundEntry.typed(
        out=None if out is None else seats[out],
        leftovers={seats[name]: text for name, text in cards.items()},
        cut_exact=cut_exact,
    )


def plain_round(out="Cat", cut_exact=False) -> RoundEntry:
    """Every player but `out` holds one 5: penalty 5 each."""
    return entry(out, cut_exact, **{name: "5" for name in NAMES if name != out})


# --- Seats and deal (R2, R3, R11) -------------------------------------------------------------


@pytest.mark.parametrize("first_dealer", range(4))
def test_seats_rotate_to_the_left_through_seven_rounds(ctx, first_dealer):
    game = new_game(first_dealer=first_dealer)
    for number in range(1, 8):
        state = ledger.game_json(game)
        dealer = (first_dealer + number - 1) % 4
        assert state["round"] == number
        assert state["dealer"] == NAMES[dealer]
        assert state["cutter"] == NAMES[(dealer - 1) % 4]  # the dealer's right
        assert state["first_player"] == NAMES[(dealer + 1) % 4]  # the dealer's left
        # Next round's dealer is this round's first player (R2).
        played = service.record_round(game, plain_round())
        assert (played.dealer, played.cutter) == (dealer, (dealer - 1) % 4)
    state = ledger.game_json(game)
    assert state["finished"] is True
    assert state["round"] is None
    for key in ("dealer", "cutter", "first_player", "contract", "deal", "exact_cut"):
        assert state[key] is None


CONTRACTS = [
    "2 sets",
    "1 set + 1 run",
    "2 runs",
    "3 sets",
    "2 sets + 1 run",
    "1 set + 2 runs",
    "3 runs",
]

# R11's table, copied by hand: the cards dealt in rounds 1-7 for each profile.
DEALS = {
    "liverpool": [10, 10, 10, 12, 12, 12, 12],
    "contract": [10, 10, 10, 12, 12, 12, 12],
    "online": [7, 10, 10, 10, 12, 12, 14],
    "family": [10, 10, 10, 10, 12, 12, 12],
}
PLAYER_COUNTS = {"liverpool": [4], "contract": [4], "online": [3, 4, 8], "family": [3, 5, 8]}


@pytest.mark.parametrize(
    ("profile", "players"),
    [(profile, count) for profile, counts in PLAYER_COUNTS.items() for count in counts],
)
def test_every_profile_deals_and_cut_numbers(ctx, profile, players):
    names = [f"P{seat}" for seat in range(players)]
    game = new_game(names, profile)
    for number in range(1, 8):
        state = ledger.game_json(game)
        deal = DEALS[profile][number - 1]
        assert state["deal"] == deal
        assert state["exact_cut"] == players * deal + 1  # R2, every profile (R11)
        assert state["contract"] == CONTRACTS[number - 1]
        leftovers = {seat: "5" for seat in range(1, players)}
        service.record_round(game, RoundEntry.typed(out=0, leftovers=leftovers))


def test_default_round_one_numbers_match_the_rulebook(ctx):
    """R2: 4 players, round 1: 40 dealt, 1 up, stock 66; exact cut 41 and 49 in rounds 4-7."""
    game = new_game()
    state = ledger.game_json(game)
    assert (state["deal"], state["exact_cut"], state["stock_after_deal"]) == (10, 41, 66)
    assert state["cut_bonus"] == -50
    for _ in range(3):
        service.record_round(game, plain_round())
    assert ledger.game_json(game)["exact_cut"] == 49


# --- Scoring (R10) ----------------------------------------------------------------------------


@pytest.mark.parametrize("number", range(1, 8))
@pytest.mark.parametrize(("profile", "bonus"), [("liverpool", -50), ("contract", 0)])
def test_cut_bonus_goes_to_the_cutter_in_every_round(ctx, number, profile, bonus):
    game = new_game(profile=profile, first_dealer=1)
    for _ in range(number - 1):
        service.record_round(game, plain_round())
    cutter = (1 + number - 1 - 1) % 4
    out = NAMES[(cutter + 2) % 4]
    played = service.record_round(game, plain_round(out=out, cut_exact=True))
    assert played.cutter == cutter
    scores = [line.score for line in played.scores]
    expected = [0 if NAMES[s] == out else 5 for s in range(4)]
    expected[cutter] += bonus
    assert scores == expected
    assert [line.bonus for line in played.scores] == [bonus if s == cutter else 0 for s in range(4)]


def test_the_cutter_who_went_out_still_gets_the_bonus(ctx):
    game = new_game(first_dealer=1)  # Bob deals, Ann cuts
    played = service.record_round(game, plain_round(out="Ann", cut_exact=True))
    assert [line.score for line in played.scores] == [-50, 5, 5, 5]


@pytest.mark.parametrize(
    ("cards", "penalty"),
    [
        ("A♠ K♦ 4♥", 29),  # R10's example
        ("K♣ A♥ 5♦ JK", 45),  # R10's example
        ("7 K", 17),  # ranks alone
        ("A", 15),
        ("2 3 4 5 6 7 8 9 10", 54),
        ("J Q K T", 40),
        ("JK", 15),
        ("jk, joker", 30),
        ("10s qh", 20),
    ],
)
def test_penalties(ctx, cards, penalty):
    game = new_game()
    played = service.record_round(game, entry("Cat", Ann=cards, Bob="2", Dan="3"))
    assert played.scores[0].penalty == penalty
    assert played.scores[0].score == penalty


def test_online_jokers_cost_25(ctx):
    game = new_game(profile="online")
    played = service.record_round(game, entry("Ann", Bob="JK", Cat="JK A", Dan="3"))
    assert [line.score for line in played.scores] == [0, 25, 40, 3]


def test_a_round_nobody_won_scores_every_hand(ctx):
    game = new_game()
    played = service.record_round(game, entry(None, Ann="A", Bob="K", Cat="2", Dan="JK"))
    assert played.out is None
    assert [line.score for line in played.scores] == [15, 10, 2, 15]
    assert ledger.round_json(game, played)["out"] is None


def test_a_round_nobody_won_needs_every_hand(ctx):
    game = new_game()
    with pytest.raises(errors.ScorebookError) as refused:
        service.record_round(game, entry(None, Ann="A", Bob="K", Cat="2"))
    assert set(refused.value.problems) == {3}
    assert "Dan" in refused.value.message
    assert db.session.scalar(db.select(db.func.count(Round.id))) == 0


def test_leftovers_are_stored_canonically(ctx):
    game = new_game()
    played = service.record_round(game, entry("Cat", Ann="kd, as 4h", Bob="jk 7", Dan="t"))
    assert [line.leftovers for line in played.scores] == ["A♠ 4♥ K♦", "7 JK", "", "10"]
    assert ledger.round_json(game, played)["leftovers"]["Ann"] == ["A♠", "4♥", "K♦"]


def test_copy_limits_count_across_the_whole_round(ctx):
    game = new_game()
    with pytest.raises(errors.ScorebookError) as refused:
        service.record_round(game, entry("Cat", Ann="7♠ 7♠", Bob="7♠", Dan="2"))
    # Neither hand alone holds too many: the two that hold them together are named.
    assert set(refused.value.problems) == {(0, 1)}
    assert refused.value.message.startswith("Ann and Bob between them: 3 × 7♠")


def test_errors_name_every_player_concerned(ctx):
    game = new_game()
    with pytest.raises(errors.ScorebookError) as refused:
        service.record_round(game, entry("Cat", Ann="7x", Bob="Q", Dan="ZZ"))
    assert set(refused.value.problems) == {0, 3}
    assert refused.value.message.startswith("Ann: ")
    assert "Dan: " in refused.value.message


# --- Totals, leaders and winners --------------------------------------------------------------


def test_totals_and_leaders_add_up_without_reset(ctx):
    game = new_game()
    service.record_round(game, entry("Ann", Bob="K", Cat="2", Dan="A"))  # 0 10 2 15
    service.record_round(game, entry("Bob", Ann="9", Cat="9", Dan="3"))  # 9 0 9 3
    state = ledger.game_json(game)
    assert state["totals"] == {"Ann": 9, "Bob": 10, "Cat": 11, "Dan": 18}
    assert state["leaders"] == ["Ann"]
    assert state["winners"] == []


def play_seven(game, last_scores):
    """Six rounds where everyone but Cat scores 5, then a last round with the given hands."""
    for _ in range(6):
        service.record_round(game, plain_round("Cat"))
    return service.record_round(game, last_scores)


def test_winner_after_round_seven(ctx):
    game = new_game()
    play_seven(game, entry("Ann", Bob="2", Cat="2", Dan="2"))
    state = ledger.game_json(game)
    assert state["finished"] is True
    assert state["totals"] == {"Ann": 30, "Bob": 32, "Cat": 2, "Dan": 32}
    assert state["winners"] == ["Cat"]
    assert game.finished_at is not None


def test_tied_lowest_totals_share_the_win(ctx):
    game = new_game()
    # Ann ends on 30 + 0 and Cat on 0 + 30: a tie at 30.
    play_seven(game, entry("Ann", Bob="K", Cat="K K K", Dan="K"))
    state = ledger.game_json(game)
    assert state["totals"] == {"Ann": 30, "Bob": 40, "Cat": 30, "Dan": 40}
    assert state["winners"] == ["Ann", "Cat"]
    book = ledger.book(game)
    assert [(line.place, line.name) for line in book.standings] == [
        (1, "Ann"),
        (1, "Cat"),
        (3, "Bob"),
        (3, "Dan"),
    ]


def test_a_finished_game_takes_no_more_rounds(ctx):
    game = new_game()
    play_seven(game, plain_round())
    with pytest.raises(errors.Conflict):
        service.record_round(game, plain_round())
    assert db.session.scalar(db.select(db.func.count(Round.id))) == 7


# --- Corrections and undo ---------------------------------------------------------------------


def test_correction_recomputes_totals_and_keeps_the_history(ctx):
    game = new_game()
    service.record_round(game, entry("Ann", Bob="K", Cat="2", Dan="A"))
    service.record_round(game, entry("Bob", Ann="9", Cat="9", Dan="3"))
    fixed = service.correct_round(game, 1, entry("Dan", cut_exact=True, Ann="2", Bob="K", Cat="2"))
    assert fixed.version == 2
    assert fixed.corrected_at is not None
    state = ledger.game_json(game)
    # Round 1 now: Dan out, and Dan (the first dealer Ann's right) cut exactly.
    assert state["rounds"][0]["out"] == "Dan"
    assert state["rounds"][0]["scores"] == {"Ann": 2, "Bob": 10, "Cat": 2, "Dan": -50}
    assert state["rounds"][0]["version"] == 2
    assert state["totals"] == {"Ann": 11, "Bob": 10, "Cat": 11, "Dan": -47}
    [change] = game.history
    assert (change.action, change.round_number) == ("corrected", 1)
    assert change.before["out"] == 0 and change.after["out"] == 3
    lines = ledger.book(game).changes[0].lines
    assert "went out: Ann → Dan" in lines
    assert "exact cut: no → yes" in lines
    assert "Ann: out = 0 → 2 = 2" in lines
    assert "Dan: A = 15 → out = 0, cut −50 = −50" in lines
    assert not any(line.startswith("Bob") for line in lines)  # unchanged


def test_each_correction_bumps_the_version(ctx):
    game = new_game()
    service.record_round(game, plain_round())
    for version in (2, 3, 4):
        out = ["Ann", "Bob", "Dan"][version - 2]
        assert service.correct_round(game, 1, plain_round(out)).version == version
    assert len(game.history) == 3


def test_a_correction_that_changes_nothing_is_not_a_new_version(ctx):
    game = new_game()
    service.record_round(game, entry("Cat", Ann="K", Bob="7", Dan="2"))
    played = service.correct_round(game, 1, entry("Cat", Ann="k", Bob="7", Dan="2"))
    assert played.version == 1
    assert game.history == []


def test_a_refused_correction_changes_nothing(ctx):
    game = new_game()
    service.record_round(game, entry("Cat", Ann="K", Bob="7", Dan="2"))
    with pytest.raises(errors.ScorebookError):
        service.correct_round(game, 1, entry("Cat", Ann="K", Bob="7"))
    db.session.expire_all()
    played = db.session.scalars(db.select(Round)).one()
    assert [line.score for line in played.scores] == [10, 7, 0, 2]
    assert played.version == 1
    assert db.session.scalar(db.select(db.func.count(RoundChange.id))) == 0


def test_undo_removes_only_the_latest_round_and_keeps_it_in_history(ctx):
    game = new_game()
    service.record_round(game, plain_round("Ann"))
    service.record_round(game, plain_round("Bob"))
    with pytest.raises(errors.Conflict):
        service.undo_round(game, 1)
    with pytest.raises(errors.Missing):
        service.undo_round(game, 5)
    before = service.undo_round(game, 2)
    assert before["out"] == 1
    assert [r.number for r in game.rounds] == [1]
    assert db.session.scalar(db.select(db.func.count(RoundScore.id))) == 4
    [change] = game.history
    assert (change.action, change.round_number, change.after) == ("undone", 2, None)
    assert ledger.book(game).changes[0].lines == [
        "Bob went out; Ann 5 = 5, Bob out = 0, Cat 5 = 5, Dan 5 = 5"
    ]
    # The round is recorded again with the same number.
    again = service.record_round(game, plain_round("Dan"))
    assert again.number == 2


def test_undoing_round_seven_reopens_the_game(ctx):
    game = new_game()
    play_seven(game, plain_round())
    service.undo_round(game, 7)
    assert not game.finished
    assert ledger.game_json(game)["round"] == 7
    service.record_round(game, plain_round("Ann"))
    assert game.finished


# --- Games and names --------------------------------------------------------------------------


def test_names_are_trimmed_and_seat_order_kept(ctx):
    game = new_game(["  Ann ", "Bob  Lee", "Cat", "Dan"])
    assert game.names == ["Ann", "Bob Lee", "Cat", "Dan"]


def test_first_dealer_drawn_at_random_when_not_chosen(ctx):
    seen = {new_game(first_dealer=None).first_dealer for _ in range(60)}
    assert seen == {0, 1, 2, 3}


def test_first_dealer_by_name_any_case(ctx):
    assert new_game(first_dealer=" cat ").first_dealer == 2


@pytest.mark.parametrize(
    ("names", "problem"),
    [
        (["Ann", "ann", "Cat", "Dan"], "already at the table"),
        (["Ann", "", "Cat", "Dan"], "empty"),
        (["Ann", "   ", "Cat", "Dan"], "empty"),
        (["Ann", "B" * 25, "Cat", "Dan"], "at most 24"),
        (["Ann", "Bob", "Cat"], "exactly 4"),
        (["Ann", "Bob", "Cat", "Dan", "Eve"], "exactly 4"),
    ],
)
def test_refused_names(ctx, names, problem):
    with pytest.raises(errors.ScorebookError) as refused:
        new_game(names)
    assert problem in refused.value.message
    assert db.session.scalar(db.select(db.func.count(Game.id))) == 0


def test_a_name_of_24_characters_is_fine(ctx):
    assert new_game(["A" * 24, "Bob", "Cat", "Dan"]).names[0] == "A" * 24


def test_the_game_page_loads_everything_in_one_go(ctx):
    game = new_game()
    service.record_round(game, plain_round())
    game_id = game.id
    db.session.expunge_all()
    loaded = ledger.get_game(game_id)
    assert loaded.names == NAMES
    assert len(loaded.rounds[0].scores) == 4


# --- Restart ----------------------------------------------------------------------------------


def test_recorded_games_survive_a_restart(tmp_path, fresh_database):
    config = dict(TEST_CONFIG, SQLALCHEMY_DATABASE_URI=fresh_database("book"))
    first = create_app(config, instance_path=str(tmp_path / "one"))
    client = first.test_client()
    game = through_the_api.new_game(client, profile=None)
    game_id = game.id
    client.environ_base["HTTP_X_GAME_KEY"] = game.key
    for out in ("Ann", "Bob"):
        through_the_api.record(client, game, out, {name: "K 7" for name in NAMES if name != out})
    client.put(
        f"/api/games/{game_id}/rounds/1",
        json={"out": "Ann", "leftovers": {"Bob": "A", "Cat": "A", "Dan": "A"}, "version": 1},
    )
    expected = client.get(f"/api/games/{game_id}").get_json()
    with first.app_context():
        db.engine.dispose()

    second = create_app(config, instance_path=str(tmp_path / "two"))
    again = second.test_client().get(f"/api/games/{game_id}").get_json()
    assert again == expected
    assert again["totals"] == {"Ann": 17, "Bob": 15, "Cat": 32, "Dan": 32}
    page = second.test_client().get(f"/games/{game_id}").get_data(as_text=True)
    assert "round 1 corrected" in page


# --- Versions inside one transaction ----------------------------------------------------------


def test_a_change_slipped_in_after_the_read_is_caught_at_the_write(ctx):
    """The UPDATE says WHERE version = <as read>: a row changed underneath fails it, whole."""
    game = new_game()
    service.record_round(game, plain_round("Cat"))
    played = game.rounds[0]
    assert [line.score for line in played.scores] == [5, 5, 0, 5]
    assert played.version == 1
    # The round was read; another device commits a correction before this one writes (as can
    # happen on a database without SQLite's whole-request lock).
    db.session().expire_on_commit = False
    db.session.commit()
    with db.engine.begin() as other_device:
        other_device.exec_driver_sql("UPDATE rounds SET version = 7")
    with pytest.raises(errors.Conflict) as refused:
        service.correct_round(game, 1, plain_round("Ann"), version=1)
    assert "now version 7" in refused.value.message
    assert refused.value.current.version == 7
    db.session.expire_all()
    stored_round = db.session.scalars(db.select(Round)).one()
    assert [line.score for line in stored_round.scores] == [5, 5, 0, 5]  # Cat still out
    assert db.session.scalar(db.select(db.func.count(RoundChange.id))) == 0


def test_an_undo_of_a_round_changed_underneath_deletes_nothing(ctx):
    game = new_game()
    service.record_round(game, plain_round("Cat"))
    assert [line.score for line in game.rounds[0].scores] == [5, 5, 0, 5]
    db.session().expire_on_commit = False
    db.session.commit()
    with db.engine.begin() as other_device:
        other_device.exec_driver_sql("UPDATE rounds SET version = 2")
    with pytest.raises(errors.Conflict):
        service.undo_round(game, 1, version=1)
    db.session.expire_all()
    assert db.session.scalar(db.select(db.func.count(Round.id))) == 1
    assert db.session.scalar(db.select(db.func.count(RoundScore.id))) == 4


def test_every_update_and_delete_of_a_round_names_its_version(app):
    statements = []
    with app.app_context():
        game = new_game()
        service.record_round(game, plain_round("Cat"))
        engine = db.engine

        def listener(conn, cursor, statement, parameters, context, executemany):
            statements.append(statement)

        from sqlalchemy import event

        event.listen(engine, "before_cursor_execute", listener)
        try:
            service.correct_round(game, 1, plain_round("Ann"), version=1)
            service.undo_round(game, 1, version=2)
        finally:
            event.remove(engine, "before_cursor_execute", listener)
    writes = [s for s in statements if s.startswith(("UPDATE rounds", "DELETE FROM rounds"))]
    assert len(writes) == 2
    assert all(re.search(r"rounds\.version = (\?|%\(\w+\)s)", s) for s in writes), writes
