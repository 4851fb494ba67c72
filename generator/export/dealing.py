"""Dealing the hands a conformance vector needs: cards of given values, two decks at most.

:mod:`rulesdoc.export.vector_plans` says what each vector is for; a :class:`Dealer` finds cards
whose values add up to what the plan wants under the current rules, or says it cannot
(:class:`Unbuildable`), so a vector is never silently wrong or dropped.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from rulesdoc.engine import scoring as engine
from rulesdoc.engine.cards import ALL_CARDS, COPIES_PER_CARD, JOKERS_PER_ROUND, Card, parse_card
from rulesdoc.engine.model import Hand, Round, Rules


class Unbuildable(Exception):
    """No hand of the wanted value can be dealt under these rules (reason in the message)."""


@cache
def _cards_by_value(rules_values: tuple[int, int, int]) -> tuple[tuple[int, tuple[Card, ...]], ...]:
    """Every physical card of two decks grouped by its value in hand, highest value first.

    All first copies come before the second ones: a dealt hand holds a card twice only when it must.
    """
    joker, ace, face = rules_values
    groups: dict[int, list[Card]] = {}
    for copy in range(max(COPIES_PER_CARD, JOKERS_PER_ROUND)):
        for card in ALL_CARDS:
            limit = JOKERS_PER_ROUND if card.is_joker else COPIES_PER_CARD
            if copy >= limit:
                continue
            if card.rank is None:
                value = joker
            elif card.rank.pips is not None:
                value = card.rank.pips
            else:
                value = face if card.rank.is_face else ace
            groups.setdefault(value, []).append(card)
    return tuple((value, tuple(cards)) for value, cards in sorted(groups.items(), reverse=True))


class Dealer:
    """Deals the hands of one round from two decks, never more copies of a card than they hold."""

    def __init__(self, rules: Rules) -> None:
        self.groups = _cards_by_value(
            (rules.card_values.joker, rules.card_values.ace, rules.card_values.face)
        )
        self.dealt: Counter[Card] = Counter()
        self.by_worth: Counter[Card] = Counter()  # the part of ``dealt`` that worth() chose

    def cards(self, codes: str) -> tuple[Card, ...]:
        """Exactly these cards (``"AH JK 5C"``)."""
        cards = tuple(parse_card(code) for code in codes.split())
        wanted = self.dealt + Counter(cards)
        for card in cards:
            limit = JOKERS_PER_ROUND if card.is_joker else COPIES_PER_CARD
            if self.by_worth[card] and wanted[card] > limit:
                # worth() took this card's copies for a high hand: a fixed hand holding it too would
                # be a hand no game deals, so the vector is unbuildable under these rules. (Fixed
                # cards alone may exceed two decks: that is how the invalid-round vectors are made.)
                raise Unbuildable(f"{codes} cannot be dealt: two decks hold {limit} of {card} at most")
        self.dealt = wanted
        return cards

    def worth(self, value: int) -> tuple[Card, ...]:
        """A hand worth exactly ``value``, of the highest cards still in the decks."""
        pools = []
        for card_value, cards in self.groups:
            left = Counter(cards) - self.dealt
            pool = []
            for card in cards:
                if left[card] > 0:
                    left[card] -= 1
                    pool.append(card)
            pools.append((card_value, pool))
        counts = (
            _choose(tuple((card_value, len(pool)) for card_value, pool in pools), value)
            if value > 0
            else None
        )
        if counts is None:
            raise Unbuildable(f"no hand worth exactly {value} can be dealt from the cards left")
        hand = [card for (_, pool), count in zip(pools, counts, strict=True) for card in pool[:count]]
        self.dealt.update(hand)
        self.by_worth.update(hand)
        return tuple(hand)


def _choose(groups: tuple[tuple[int, int], ...], value: int) -> tuple[int, ...] | None:
    """How many cards of each (value, available) group add up to exactly ``value``, highest first."""
    capacity = [0] * (len(groups) + 1)
    for index in range(len(groups) - 1, -1, -1):
        capacity[index] = capacity[index + 1] + groups[index][0] * groups[index][1]
    dead_ends: set[tuple[int, int]] = set()

    def search(index: int, rest: int) -> tuple[int, ...] | None:
        if rest == 0:
            return (0,) * (len(groups) - index)
        if rest > capacity[index] or (index, rest) in dead_ends:
            return None
        card_value, available = groups[index]
        for count in range(min(available, rest // card_value), -1, -1):
            found = search(index + 1, rest - count * card_value)
            if found is not None:
                return (count, *found)
        dead_ends.add((index, rest))  # remembered, so the search stays small for any values
        return None

    return search(0, value)


@dataclass(frozen=True)
class Plan:
    """A vector before its hands are dealt; ``deal`` may raise :class:`Unbuildable`."""

    id: str
    description: str
    deal: Callable[[Dealer], Sequence[Round]]  # given a fresh dealer; a game deals each round afresh
    game: bool = False
    error: str | None = None


# Hands of fixed cards, for seats whose exact cards do not matter to the rule at hand.
OPENED_HANDS = ("AH JK 5C", "KS QD 10C", "2D", "JC JC 9H", "AS 4S", "8C 6H 3S", "QH JK")
NEVER_OPENED_HANDS = ("KH KS QD JC 9H 8C 7D JK", "2C", "5D 6D", "AC", "QC 3C", "JD", "10H 4H")
FILLERS = ("2S", "3S", "4S", "6S", "7S", "8S", "9S", "10S")  # small hands of the other seats
# Blocked rounds, pips only, so the raw values do not depend on rules.yaml.
BLOCKED_LOWEST = ("9C", "2D 3D", "10H 2H", "7S", "8C 6C", "9D", "10S", "6H 4H")  # seat 1 lowest: 5
BLOCKED_TIE = ("5C", "2H 3H", "9D", "10S", "8C 4C", "7D 6D", "10C 9C", "8H 8H")  # seats 0 and 1: 5
BLOCKED_ALL_TIED = ("6C", "2D 4D", "3H 3S", "6S", "4C 2C", "3D 3C", "6D", "2H 4H")  # every seat: 6
BLOCKED_NEVER_OPENED = ("2C 2D", "5H", "9S", "10C", "7D 8D", "6C 6D", "9H 3H", "10D 10D")  # seat 0: 4


def deal_hands(dealer: Dealer, codes: Sequence[str], opened: bool = True) -> list[Hand]:
    return [Hand(dealer.cards(code), opened) for code in codes]


def one_round(deal: Callable[[Dealer], Round]) -> Callable[[Dealer], Sequence[Round]]:
    return lambda dealer: (deal(dealer),)


def cap_words(rules: Rules, n: int) -> str:
    """Which never-opened cap applies with ``n`` players, and why."""
    fixed, share = rules.never_opened_cap, engine.target_share(rules, n)
    fraction = f"{rules.cap_target_fraction} of the target"
    if fixed == share:
        return f"both caps are {fixed} (the fixed cap and {fraction}): the fixed cap is named"
    if fixed < share:
        return f"the fixed cap of {fixed} is below {fraction} ({share})"
    return f"{fraction} ({share}) is below the fixed cap of {fixed}"
