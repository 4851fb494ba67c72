"""Cards: parsing the codes of a two-deck Rami set, and the copy limits of two decks."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesdoc.engine.cards import (
    ALL_CARDS,
    JOKER,
    Card,
    Rank,
    Suit,
    check_copies,
    parse_card,
)
from rulesdoc.errors import RulesdocError

RANK_CODES = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUIT_CODES = ["C", "D", "H", "S"]


# ---------------------------------------------------------------- parsing


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("AH", Rank.ACE, Suit.HEARTS),
        ("ah", Rank.ACE, Suit.HEARTS),
        ("aH", Rank.ACE, Suit.HEARTS),
        ("Ah", Rank.ACE, Suit.HEARTS),
        ("10S", Rank.TEN, Suit.SPADES),
        ("10s", Rank.TEN, Suit.SPADES),
        ("QD", Rank.QUEEN, Suit.DIAMONDS),
        ("qd", Rank.QUEEN, Suit.DIAMONDS),
        ("2C", Rank.TWO, Suit.CLUBS),
        ("9c", Rank.NINE, Suit.CLUBS),
        ("JH", Rank.JACK, Suit.HEARTS),
        ("jh", Rank.JACK, Suit.HEARTS),
        ("KS", Rank.KING, Suit.SPADES),
        ("ks", Rank.KING, Suit.SPADES),
    ],
)
def test_parse_card_is_case_insensitive(text: str, rank: Rank, suit: Suit) -> None:
    card = parse_card(text)
    assert card == Card(rank, suit)
    assert not card.is_joker


@pytest.mark.parametrize("text", ["JK", "jk", "Jk", "jK"])
def test_parse_joker(text: str) -> None:
    card = parse_card(text)
    assert card == JOKER
    assert card.is_joker
    assert card.rank is None and card.suit is None
    assert card.code == "JK"
    assert str(card) == "JK"


def test_jack_of_clubs_is_not_a_joker() -> None:
    # "JC" is the jack of clubs; only "JK" is the joker.
    assert parse_card("JC") == Card(Rank.JACK, Suit.CLUBS)
    assert not parse_card("JC").is_joker


@pytest.mark.parametrize("rank", RANK_CODES)
@pytest.mark.parametrize("suit", SUIT_CODES)
def test_every_code_round_trips(rank: str, suit: str) -> None:
    code = rank + suit
    card = parse_card(code)
    assert card.code == code
    assert str(card) == code
    assert parse_card(code.lower()) == card


def test_ten_is_the_only_two_character_rank() -> None:
    assert parse_card("10H").rank is Rank.TEN
    assert Rank.TEN.pips == 10


@pytest.mark.parametrize(
    "text",
    [
        "",
        "H",  # suit only
        "A",  # rank only
        "10",  # rank only
        "1H",  # no rank 1: the ace is A
        "11H",
        "0S",
        "AX",  # no suit X
        "ZZ",
        "AHH",
        "KK",
        "JOKER",
        "JKR",
        "1 0S",
        "A-H",
    ],
)
def test_unknown_cards_are_refused(text: str) -> None:
    with pytest.raises(RulesdocError) as info:
        parse_card(text)
    message = str(info.value)
    assert repr(text) in message
    assert "unknown card" in message
    assert "\n" not in message


def test_unknown_card_message_explains_the_notation() -> None:
    with pytest.raises(RulesdocError) as info:
        parse_card("1X")
    assert str(info.value) == (
        "unknown card '1X': write rank (A 2-10 J Q K) then suit (C D H S), or JK for a joker"
    )


def test_all_cards_is_one_deck_and_a_joker() -> None:
    # 13 ranks x 4 suits + the joker = 53 distinct cards.
    assert len(ALL_CARDS) == 53
    assert len(set(ALL_CARDS)) == 53
    assert sum(1 for card in ALL_CARDS if card.is_joker) == 1


def test_rank_properties() -> None:
    assert [rank.pips for rank in Rank] == [None, 2, 3, 4, 5, 6, 7, 8, 9, 10, None, None, None]
    assert [rank for rank in Rank if rank.is_face] == [Rank.JACK, Rank.QUEEN, Rank.KING]


def test_suit_colours_and_symbols() -> None:
    assert {suit for suit in Suit if suit.is_red} == {Suit.DIAMONDS, Suit.HEARTS}
    assert [suit.symbol for suit in Suit] == ["♣", "♦", "♥", "♠"]


@settings(max_examples=2 * settings.default.max_examples, deadline=None)  # 200 in `make test`
@given(card=st.sampled_from(ALL_CARDS), data=st.data())
def test_any_casing_parses_to_the_same_card(card: Card, data: st.DataObject) -> None:
    flips = data.draw(st.lists(st.booleans(), min_size=len(card.code), max_size=len(card.code)))
    text = "".join(ch.lower() if flip else ch for ch, flip in zip(card.code, flips, strict=True))
    assert parse_card(text) == card


# ---------------------------------------------------------------- copy limits


def cards(text: str) -> list[Card]:
    return [parse_card(code) for code in text.split()]


def test_two_copies_of_a_card_are_allowed() -> None:
    check_copies(cards("AH AH"))


def test_same_rank_other_suits_do_not_count_as_copies() -> None:
    check_copies(cards("AH AH AD AD AC AC AS AS"))


def test_three_copies_are_refused() -> None:
    with pytest.raises(RulesdocError) as info:
        check_copies(cards("AH 5C AH 7D ah"))
    assert str(info.value) == "3 copies of AH in one round; two decks hold at most 2"


def test_four_jokers_are_allowed() -> None:
    check_copies(cards("JK JK JK JK"))


def test_five_jokers_are_refused() -> None:
    with pytest.raises(RulesdocError) as info:
        check_copies(cards("JK JK jk JK 2C JK"))
    assert str(info.value) == "5 jokers in one round; two decks hold at most 4"


def test_two_full_decks_and_four_jokers_are_allowed() -> None:
    # 2 x 52 cards + 4 jokers = 108 cards, every one at its limit.
    full = [card for card in ALL_CARDS if not card.is_joker] * 2 + [JOKER] * 4
    assert len(full) == 108
    check_copies(full)
    with pytest.raises(RulesdocError):
        check_copies(full + cards("10S"))
    with pytest.raises(RulesdocError):
        check_copies(full + [JOKER])


def test_check_copies_accepts_any_iterable() -> None:
    check_copies(iter(cards("QD QD")))
    check_copies(())
    with pytest.raises(RulesdocError):
        check_copies(card for card in cards("QD QD QD"))
