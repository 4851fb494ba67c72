"""Plain, immutable data shared by the loader, the engine and the view model."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction

from rulesdoc.engine.cards import Card


class Reason(enum.Enum):
    """The rule that decided a player's score in a round."""

    WINNER = "winner"
    HAND_VALUE = "hand_value"
    NEVER_OPENED = "never_opened"
    CAPPED_FIXED = "capped_fixed"
    CAPPED_TARGET_SHARE = "capped_target_share"
    HAND_RUMMY = "hand_rummy"
    BLOCKED_WINNER = "blocked_winner"


@dataclass(frozen=True)
class Hand:
    """What one seat holds at the end of a round; a tuple since two decks allow duplicates."""

    cards: tuple[Card, ...]
    opened: bool = True


@dataclass(frozen=True)
class Round:
    """A round *situation*: never a result."""

    hands: tuple[Hand, ...]
    went_out: int | None  # seat index; None for a blocked round
    hand_rummy: bool = False

    @property
    def players(self) -> int:
        return len(self.hands)


@dataclass(frozen=True)
class CardValues:
    joker: int
    ace: int
    face: int


@dataclass(frozen=True)
class Example:
    """A worked example: a situation, its title, and the rule it is meant to illustrate."""

    id: str
    title: str
    situation: Round
    note: str | None = None
    illustrates: Reason | None = None
    line: int | None = None  # where the example starts in rules.yaml


@dataclass(frozen=True)
class Rules:
    players_min: int
    players_max: int
    card_values: CardValues
    ace_low: int
    hand_rummy_penalty: int
    never_opened_surcharge: int
    never_opened_cap: int
    cap_target_fraction: Fraction
    target_per_opponent: int
    examples: tuple[Example, ...] = ()
    source: str = "rules.yaml"

    @property
    def player_counts(self) -> range:
        return range(self.players_min, self.players_max + 1)
