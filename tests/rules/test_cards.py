"""R1 Cards and notation: every accepted form, the canonical output, errors that name the token."""

import pytest

from scorekeeper.rules.cards import JOKER, Card, check_copies, format_cards, parse_cards
from scorekeeper.rules.errors import CardError, CopyLimitError, SizeError


@pytest.mark.parametrize(
    ("token", "canonical"),
    [
        ("10♠", "10♠"),
        ("10s", "10♠"),
        ("Ts", "10♠"),
        ("tS", "10♠"),
        ("qh", "Q♥"),
        ("Q♥", "Q♥"),
        ("A♦", "A♦"),
        ("ad", "A♦"),
        ("2c", "2♣"),
        ("K♣", "K♣"),
        ("7♠\ufe0f", "7♠"),  # an emoji keyboard's spade
        ("7♤", "7♠"),
        ("JK", "JK"),
        ("jk", "JK"),
        ("JOKER", "JK"),
        ("joker", "JK"),
        ("*", "JK"),
        ("🃏", "JK"),
        ("JK=7♠", "JK=7♠"),
        ("jk=7s", "JK=7♠"),
        ("JK=7", "JK=7"),
        ("*=ah", "JK=A♥"),
        # R1's spellings: the white suit symbols, JKR.
        ("7♡", "7♥"),
        ("Q♢", "Q♦"),
        ("10♧", "10♣"),
        ("JKR", "JK"),
        ("jkr", "JK"),
        ("JKR=7♤", "JK=7♠"),
    ],
)
def test_accepted_forms_and_canonical_output(token, canonical):
    card = Card.parse(token)
    assert str(card) == canonical
    assert Card.parse(canonical) == card


def test_separators_are_spaces_commas_or_semicolons():
    cards = parse_cards("7♠, 7h,7d  JK")
    assert format_cards(cards) == "7♠ 7♥ 7♦ JK"
    assert format_cards(parse_cards("7♠; 7h;7d ;JKR")) == "7♠ 7♥ 7♦ JK"


@pytest.mark.parametrize(
    ("token", "words"),
    [
        ("JK=", "declares nothing after '='"),
        ("JK=JK", "a joker cannot stand for a joker"),
        ("JKR=joker", "a joker cannot stand for a joker"),
        ("JK=7♠=8♠", "declares more than one position"),
        ("JK=Z", "'Z' is not a card or a rank"),
        ("2♠=", "declares nothing after '='"),
        ("2♠=JK", "a 2 cannot stand for a joker"),
        ("2♠=7♠=8♠", "declares more than one position"),
        ("2h=Z", "'Z' is not a card or a rank"),
    ],
)
def test_a_malformed_declaration_is_an_error_never_dropped(token, words):
    with pytest.raises(CardError) as caught:
        parse_cards(f"5♠ 6♠ {token} 8♠")
    assert caught.value.token == token
    assert caught.value.position == 3
    assert words in str(caught.value)
    example = "JK=7♠" if token.startswith("JK") else f"{Card.parse(token.split('=')[0]).face()}=7♠"
    assert example in str(caught.value)


@pytest.mark.parametrize("token", ["[7♠]", "(JK)", "{Q♥}", "<10♣>", "[7♠", "JK)"])
def test_brackets_are_an_error_naming_the_token(token):
    with pytest.raises(CardError) as caught:
        parse_cards(f"5♠ {token}")
    assert caught.value.token == token
    assert caught.value.position == 2
    assert "brackets are not part of the notation" in str(caught.value)


def test_only_the_rulebook_joker_spellings():
    with pytest.raises(CardError):
        Card.parse("JOKR")


def test_list_of_strings_is_accepted():
    assert parse_cards(["7s", "8s 9s"]) == parse_cards("7♠ 8♠ 9♠")


@pytest.mark.parametrize("token", ["7♠=8♠", "K♥=7", "A♣=2♣"])
def test_only_a_joker_or_a_2_is_declared(token):
    with pytest.raises(CardError, match="only a joker or a 2 can be declared"):
        parse_cards(token)


def test_a_declared_2_keeps_the_card_it_is():
    card = Card.parse("2h=7s")
    assert (card.rank, card.suit, card.natural, card.declared) == (2, "H", True, True)
    assert (str(card), card.physical, card.stands_for) == ("2♥=7♠", Card(2, "H"), Card(7, "S"))
    assert Card.parse("2♥=7").stands_for == Card(7, None)
    assert not Card.parse("2♥").declared


def test_repr_rebuilds_the_card():
    for card in parse_cards("10♠ JK JK=7♠ JK=7 2♥=7♠ 2♣=Q"):
        assert eval(repr(card)) == card  # noqa: S307


def test_deuces_are_natural_and_only_jokers_wild():
    two, joker = parse_cards("2♠ JK")
    assert two.natural and not two.joker
    assert joker.joker and joker == JOKER


def test_declared_joker_carries_its_position():
    run_joker, set_joker = parse_cards("JK=8♠ JK=8")
    assert (run_joker.rank, run_joker.suit, run_joker.declared) == (8, "S", True)
    assert (set_joker.rank, set_joker.suit, set_joker.declared) == (8, None, True)
    assert not JOKER.declared


@pytest.mark.parametrize(
    ("text", "token", "position"),
    [
        ("5♠ 6♠ Zq 8♠", "Zq", 3),
        ("11s", "11s", 1),
        ("7♠ 7x", "7x", 2),
        ("1s", "1s", 1),
        ("JK=Z", "JK=Z", 1),
        ("7s=3", "7s=3", 1),
        ("A♠ K♦ 4", "4", 3),  # a suit is needed outside leftovers
    ],
)
def test_errors_name_the_bad_token_and_its_position(text, token, position):
    with pytest.raises(CardError) as caught:
        parse_cards(text)
    assert caught.value.token == token
    assert caught.value.position == position
    assert f"'{token}' (card {position})" in str(caught.value)


def test_rank_only_cards_where_the_suit_does_not_matter():
    cards = parse_cards("7 K JK 10", rank_only=True)
    assert [str(c) for c in cards] == ["7", "K", "JK", "10"]
    assert all(c.suit is None for c in cards)


def test_non_text_in_a_list_is_an_error_not_a_crash():
    with pytest.raises(CardError):
        parse_cards(["7s", 7])


def test_size_limit():
    with pytest.raises(SizeError, match="41 cards"):
        parse_cards(" ".join(["7♠"] * 41))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("7♠ 7♠ 7♠", "3 × 7♠"),
        ("JK JK JK JK", "4 jokers"),
        ("7 7 7 7 7 7 7 7 7", "9 cards of rank 7"),
    ],
)
def test_copy_limits_two_packs_three_jokers(text, message):
    with pytest.raises(CopyLimitError, match=message):
        check_copies(parse_cards(text, rank_only=True), packs=2, jokers=3)


def test_copy_limits_allow_what_the_packs_hold():
    check_copies(parse_cards("7♠ 7♠ 7 7 7 7 7 7 JK JK JK", rank_only=True), packs=2, jokers=3)
    check_copies(parse_cards("7♠ 7♠ 7♠"), packs=3, jokers=6)
