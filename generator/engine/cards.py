"""Cards of a Rami deck (two French decks and four jokers) and their values in hand."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from rulesdoc.errors import RulesdocError, short


class Suit(enum.Enum):
    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)


_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}


class Rank(enum.Enum):
    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"

    @property
    def pips(self) -> int | None:
        """The pip value of a number card; ``None`` for ace and face cards."""
        return int(self.value) if self.value.isdigit() else None

    @property
    def is_face(self) -> bool:
        return self in (Rank.JACK, Rank.QUEEN, Rank.KING)


@dataclass(frozen=True)
class Card:
    """One card. ``rank`` and ``suit`` are both ``None`` for a joker."""

    rank: Rank | None
    suit: Suit | None

    @property
    def is_joker(self) -> bool:
        return self.rank is None

    @property
    def code(self) -> str:
        if self.rank is None or self.suit is None:
            return JOKER_CODE
        return self.rank.value + self.suit.value

    def __str__(self) -> str:
        return self.code


JOKER_CODE = "JK"
JOKER = Card(None, None)
# Rami is played with two decks: every card twice, and four jokers.
COPIES_PER_CARD = 2
JOKERS_PER_ROUND = 4
# The players a round of Rami can have: two decks and four jokers cannot deal a round to more.
MIN_PLAYERS = 2
MAX_PLAYERS = 8

ALL_CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in Rank) + (JOKER,)


def parse_card(text: str) -> Card:
    """Parse ``AH``, ``10s``, ``qd`` or ``JK`` (case-insensitive)."""
    # ASCII only: str.upper() would turn the long s "ſ" into "S" and accept "Aſ" as the ace of spades.
    code = text.strip().upper() if text.isascii() else ""
    if code == JOKER_CODE:
        return JOKER
    rank_text, suit_text = code[:-1], code[-1:]
    try:
        return Card(Rank(rank_text), Suit(suit_text))
    except ValueError:
        raise RulesdocError(
            f"unknown card {short(text, 20)!r}: "
            "write rank (A 2-10 J Q K) then suit (C D H S), or JK for a joker"
        ) from None


def check_copies(cards: Iterable[Card]) -> None:
    """Refuse more copies of a card than two decks hold."""
    counts: dict[Card, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    for card, count in sorted(counts.items(), key=lambda item: item[0].code):
        limit = JOKERS_PER_ROUND if card.is_joker else COPIES_PER_CARD
        if count > limit:
            what = "jokers" if card.is_joker else f"copies of {card}"
            raise RulesdocError(f"{count} {what} in one round; two decks hold at most {limit}")
