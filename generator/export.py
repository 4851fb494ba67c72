"""``rulesdoc export``: the rules as a versioned bundle an app can consume and test against.

Three files, written all at once (a temporary folder beside the output, then renamed):

- ``rules.json``: the values of ``rules.yaml`` in its own shape (so ``rules.schema.json``
  validates ``rules.json["rules"]`` too), and the target and never-opened cap per player count;
- ``rules.schema.json``: the JSON Schema of ``rules.yaml`` (:mod:`generator.schema`);
- ``conformance.json``: test vectors, each an input (the ``score`` command's input) and the
  engine's expected result: every worked example, then a generated set covering every rule
  and edge under the current values.

The generated vectors depend only on the values, in a fixed order: the same rules give the
same bytes. A vector whose hands cannot be dealt under the values (a cap no hand reaches)
is listed under ``uncovered`` with the reason, never silently dropped.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from generator import engine
from generator.cards import ALL_CARDS, COPIES_PER_CARD, JOKERS_PER_ROUND, Card, Rank, Suit, parse_card
from generator.errors import Location, RulesdocError, display_path
from generator.model import Hand, Reason, Round, Rules
from generator.schema import SCHEMA_FILE, schema_text

FORMAT_VERSION = 1  # raised on any change an app's reader would have to follow
RULES_FILE = "rules.json"
CONFORMANCE_FILE = "conformance.json"


# ---------------------------------------------------------------- the rules as data


def rule_values(rules: Rules, with_examples: bool = True) -> dict[str, Any]:
    """The values in the shape of ``rules.yaml``, cards as canonical codes, defaults spelled out."""
    values: dict[str, Any] = {
        "players": {"min": rules.players_min, "max": rules.players_max},
        "card_values": {
            "joker": rules.card_values.joker,
            "ace": rules.card_values.ace,
            "face": rules.card_values.face,
        },
        "melds": {"ace_low": rules.ace_low},
        "hand_rummy": {"penalty": rules.hand_rummy_penalty},
        "never_opened": {
            "surcharge": rules.never_opened_surcharge,
            "cap": rules.never_opened_cap,
            # Exact: the loader made the Fraction from the decimal text, which float() gives back.
            "cap_target_fraction": float(rules.cap_target_fraction),
        },
        "target": {"per_opponent": rules.target_per_opponent},
    }
    if with_examples:
        values["examples"] = [
            {
                "id": example.id,
                "title": example.title,
                **({"note": example.note} if example.note is not None else {}),
                **({"illustrates": example.illustrates.value} if example.illustrates else {}),
                "situation": situation_input(example.situation),
            }
            for example in rules.examples
        ]
    return values


@dataclass(frozen=True)
class PlayerCount:
    """What depends on the number of players: the target and the never-opened cap."""

    players: int
    target: int
    never_opened_cap: int
    cap_rule: Reason  # which cap binds: CAPPED_FIXED (also when both are equal) or CAPPED_TARGET_SHARE


def player_counts(rules: Rules) -> tuple[PlayerCount, ...]:
    return tuple(
        PlayerCount(n, engine.target(rules, n), *engine.never_opened_cap(rules, n))
        for n in rules.player_counts
    )


def situation_input(situation: Round) -> dict[str, Any]:
    """A round as the ``score`` command reads it, every field explicit."""
    return {
        "hands": [
            {"cards": [card.code for card in hand.cards], "opened": hand.opened} for hand in situation.hands
        ],
        "went_out": situation.went_out,
        "hand_rummy": situation.hand_rummy,
    }


def round_expected(result: engine.RoundResult) -> dict[str, Any]:
    """The ``score`` command's output for a round, with each seat's raw hand value."""
    return {
        "scores": result.scores,
        "winners": result.winners,
        "reasons": [player.reason.value for player in result.players],
        "hand_values": [player.hand_value for player in result.players],
        "target": result.target,
    }


def game_expected(result: engine.GameResult) -> dict[str, Any]:
    return {
        "rounds": [round_expected(r) for r in result.rounds],
        "totals": list(result.totals),
        "target": result.target,
        "finished": result.finished,
        "winner": result.winner,
        "extra_round": result.extra_round,
    }


# ---------------------------------------------------------------- conformance vectors


@dataclass(frozen=True)
class Vector:
    """One test case: a round (or a game's rounds) and, for an impossible input, why it is refused."""

    id: str
    description: str
    rounds: tuple[Round, ...]
    game: bool = False
    error: str | None = None  # the refusal's code (see ERRORS); None: the input scores


# Why an input is refused: the codes an app's test compares, the engine's English messages aside.
ERRORS = {
    "players": "fewer or more players than the rules allow",
    "copies": "more than two copies of a card in one round (two decks)",
    "jokers": "more than four jokers in one round (two decks)",
    "seat": "went_out names a seat that does not exist",
    "winner_holds_cards": "the seat that went out still holds cards",
    "winner_not_opened": "the seat that went out never opened",
    "empty_hand": "a seat that did not go out holds no cards",
    "hand_rummy_blocked": "hand rummy in a blocked round (nobody went out)",
    "hand_rummy_opened": "hand rummy while an opponent had opened",
    "no_rounds": "a game without rounds",
    "players_changed": "a game's round with another number of players",
    "round_after_end": "a round after the game ended",
}


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

    def cards(self, codes: str) -> tuple[Card, ...]:
        """Exactly these cards (``"AH JK 5C"``)."""
        cards = tuple(parse_card(code) for code in codes.split())
        self.dealt.update(cards)
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


# ---------------------------------------------------------------- the generated set


@dataclass(frozen=True)
class Plan:
    """A vector before its hands are dealt; ``deal`` may raise :class:`Unbuildable`."""

    id: str
    description: str
    deal: Callable[[Dealer], Sequence[Round]]  # given a fresh dealer; a game deals each round afresh
    game: bool = False
    error: str | None = None


# Hands of fixed cards, for seats whose exact cards do not matter to the rule at hand.
_OPENED_HANDS = ("AH JK 5C", "KS QD 10C", "2D", "JC JC 9H", "AS 4S", "8C 6H 3S", "QH JK")
_NEVER_OPENED_HANDS = ("KH KS QD JC 9H 8C 7D JK", "2C", "5D 6D", "AC", "QC 3C", "JD", "10H 4H")
_FILLERS = ("2S", "3S", "4S", "6S", "7S", "8S", "9S", "10S")  # small hands of the other seats
# Blocked rounds, pips only, so the raw values do not depend on rules.yaml.
_BLOCKED_LOWEST = ("9C", "2D 3D", "10H 2H", "7S", "8C 6C", "9D", "10S", "6H 4H")  # seat 1 lowest: 5
_BLOCKED_TIE = ("5C", "2H 3H", "9D", "10S", "8C 4C", "7D 6D", "10C 9C", "8H 8H")  # seats 0 and 1: 5
_BLOCKED_ALL_TIED = ("6C", "2D 4D", "3H 3S", "6S", "4C 2C", "3D 3C", "6D", "2H 4H")  # every seat: 6
_BLOCKED_NEVER_OPENED = ("2C 2D", "5H", "9S", "10C", "7D 8D", "6C 6D", "9H 3H", "10D 10D")  # seat 0: 4


def _hands(dealer: Dealer, codes: Sequence[str], opened: bool = True) -> list[Hand]:
    return [Hand(dealer.cards(code), opened) for code in codes]


def _one_round(deal: Callable[[Dealer], Round]) -> Callable[[Dealer], Sequence[Round]]:
    return lambda dealer: (deal(dealer),)


def _cap_words(rules: Rules, n: int) -> str:
    """Which never-opened cap applies with ``n`` players, and why."""
    fixed, share = rules.never_opened_cap, engine.target_share(rules, n)
    fraction = f"{rules.cap_target_fraction} of the target"
    if fixed == share:
        return f"both caps are {fixed} (the fixed cap and {fraction}): the fixed cap is named"
    if fixed < share:
        return f"the fixed cap of {fixed} is below {fraction} ({share})"
    return f"{fraction} ({share}) is below the fixed cap of {fixed}"


def _card_value_plans(rules: Rules) -> Iterator[Plan]:
    """Each rank and the joker alone in a loser's hand: every card value."""
    n = rules.players_min
    suits = list(Suit)
    cards = [Card(rank, suits[index % len(suits)]) for index, rank in enumerate(Rank)]
    for card in (*cards, *ALL_CARDS[-1:]):
        code = card.code

        def deal(dealer: Dealer, code: str = code) -> Round:
            others = _hands(dealer, _FILLERS[: n - 2])
            return Round((Hand(()), Hand(dealer.cards(code)), *others), went_out=0)

        yield Plan(f"round/card-value/{code}", f"{n} players: the loser holds {code} only", _one_round(deal))


def _player_count_plans(rules: Rules, n: int) -> Iterator[Plan]:
    prefix = f"round/{n}-players"
    last = n - 1

    def hand_values(dealer: Dealer) -> Round:
        losers = _hands(dealer, _OPENED_HANDS[: n - 1])
        return Round((*losers, Hand(())), went_out=last)

    yield Plan(
        f"{prefix}/hand-values",
        f"{n} players, seat {last} went out: every opponent had opened and pays the cards in hand",
        _one_round(hand_values),
    )

    cap, _ = engine.never_opened_cap(rules, n)
    surcharge = rules.never_opened_surcharge
    for delta, name, words in (
        (-1, "below-cap", "one below"),
        (0, "at-cap", "exactly"),
        (1, "above-cap", "one above"),
    ):
        value = cap + delta - surcharge

        def never_opened(dealer: Dealer, value: int = value) -> Round:
            if value < 1:
                raise Unbuildable(
                    f"with the surcharge of {surcharge}, every never-opened hand is above the cap"
                )
            hand = Hand(dealer.worth(value), opened=False)
            others = [
                Hand(dealer.cards(code), opened=seat % 2 == 0) for seat, code in enumerate(_FILLERS[: n - 2])
            ]
            return Round((Hand(()), hand, *others), went_out=0)

        yield Plan(
            f"{prefix}/never-opened/{name}",
            f"{n} players: seat 1 never opened and holds {value}; with the surcharge of {surcharge} "
            f"that is {words} the cap: {_cap_words(rules, n)}; seats 2 and up alternate opened and not",
            _one_round(never_opened),
        )

    out = n // 2

    def hand_rummy(dealer: Dealer) -> Round:
        losers = _hands(dealer, _NEVER_OPENED_HANDS[: n - 1], opened=False)
        return Round((*losers[:out], Hand(()), *losers[out:]), went_out=out, hand_rummy=True)

    yield Plan(
        f"{prefix}/hand-rummy",
        f"{n} players, hand rummy by seat {out}: every opponent (none had opened) pays "
        f"{rules.hand_rummy_penalty}, whatever they hold",
        _one_round(hand_rummy),
    )

    def blocked(
        codes: Sequence[str], never_opened_seats: Sequence[int]
    ) -> Callable[[Dealer], Sequence[Round]]:
        def deal(dealer: Dealer) -> Round:
            hands = _hands(dealer, codes[:n])
            return Round(
                tuple(Hand(h.cards, seat not in never_opened_seats) for seat, h in enumerate(hands)),
                went_out=None,
            )

        return _one_round(deal)

    yield Plan(
        f"{prefix}/blocked/lowest-wins",
        f"{n} players, a blocked round: seat 1 holds the lowest hand (5) and wins; the others pay "
        "as in any round, seat 0 (never opened, 9) with the surcharge and caps",
        blocked(_BLOCKED_LOWEST, [0]),
    )
    tied = "both players tie" if n == 2 else "seats 0 and 1 tie"
    yield Plan(
        f"{prefix}/blocked/tie",
        f"{n} players, a blocked round: {tied} for the lowest hand (5): every tied player wins and scores 0",
        blocked(_BLOCKED_TIE, []),
    )
    if n > 2:
        yield Plan(
            f"{prefix}/blocked/all-tied",
            f"{n} players, a blocked round: every hand is worth 6: everybody wins and scores 0",
            blocked(_BLOCKED_ALL_TIED, []),
        )
    yield Plan(
        f"{prefix}/blocked/never-opened-lowest",
        f"{n} players, a blocked round: seat 0 never opened but holds the lowest raw value (4): "
        "the surcharge does not count for the lowest hand, seat 0 wins",
        blocked(_BLOCKED_NEVER_OPENED, [0]),
    )


def _two_decks_plans(rules: Rules) -> Iterator[Plan]:
    n = rules.players_min

    def round_of(loser: str, went_out: int | None = 0) -> Callable[[Dealer], Sequence[Round]]:
        def deal(dealer: Dealer) -> Round:
            first = Hand(()) if went_out == 0 else Hand(dealer.cards("7H"))
            return Round((first, Hand(dealer.cards(loser)), *_hands(dealer, _FILLERS[: n - 2])), went_out)

        return _one_round(deal)

    yield Plan(
        "round/two-decks/two-copies-in-a-hand", f"{n} players: QS twice in one hand", round_of("QS QS")
    )
    yield Plan(
        "round/two-decks/two-copies-in-two-hands",
        f"{n} players, a blocked round: 7H in two hands",
        round_of("7H 2C", went_out=None),
    )
    yield Plan(
        "round/two-decks/four-jokers", f"{n} players: four jokers in one hand", round_of("JK JK JK JK")
    )
    yield Plan(
        "round/invalid/three-copies", f"{n} players: QS three times", round_of("QS QS QS"), error="copies"
    )
    yield Plan(
        "round/invalid/five-jokers", f"{n} players: five jokers", round_of("JK JK JK JK JK"), error="jokers"
    )


def _invalid_round_plans(rules: Rules) -> Iterator[Plan]:
    """Impossible rounds, each with exactly one fault, so any order of checks finds the same one."""
    n = rules.players_min

    def plan(name: str, description: str, error: str, deal: Callable[[Dealer], Round]) -> Plan:
        return Plan(f"round/invalid/{name}", description, _one_round(deal), error=error)

    def fillers(dealer: Dealer, count: int, opened: bool = True) -> list[Hand]:
        return _hands(dealer, _FILLERS[:count], opened)

    def seats(count: int, went_out: int = 0) -> Callable[[Dealer], Round]:
        return lambda d: Round((Hand(()), *fillers(d, count - 1)), went_out)

    def winner(hand: Hand) -> Callable[[Dealer], Round]:
        return lambda d: Round((hand, *fillers(d, n - 1)), 0)

    yield plan("too-few-players", f"{n - 1} player(s), below players.min", "players", seats(n - 1))
    yield plan(
        "too-many-players",
        f"{rules.players_max + 1} players, above players.max",
        "players",
        seats(rules.players_max + 1),
    )
    yield plan("seat-out-of-range", f"{n} players, went_out is seat {n}", "seat", seats(n, went_out=n))
    yield plan(
        "winner-holds-cards",
        "the seat that went out holds 5C",
        "winner_holds_cards",
        winner(Hand((parse_card("5C"),))),
    )
    yield plan(
        "winner-never-opened",
        "the seat that went out never opened",
        "winner_not_opened",
        winner(Hand((), opened=False)),
    )
    yield plan(
        "empty-hand",
        "seat 1 holds no cards but did not go out",
        "empty_hand",
        lambda d: Round((Hand(()), Hand(()), *fillers(d, n - 2)), 0),
    )
    yield plan(
        "hand-rummy-blocked",
        "hand rummy in a blocked round",
        "hand_rummy_blocked",
        lambda d: Round(tuple(fillers(d, n, opened=False)), None, hand_rummy=True),
    )
    yield plan(
        "hand-rummy-opened",
        "hand rummy, but seat 1 had opened",
        "hand_rummy_opened",
        lambda d: Round((Hand(()), *fillers(d, 1), *fillers(d, n - 2, opened=False)), 0, hand_rummy=True),
    )


def _game_plans(rules: Rules) -> Iterator[Plan]:
    """Games: short of the target, exactly at it (reaching means ≥), a tie that asks for an extra round."""

    def losing(went_out: int, losses: Mapping[int, int], seats: int) -> Round:
        """Seat ``went_out`` goes out, each seat of ``losses`` holds exactly that much, the others 2."""
        dealer = Dealer(rules)  # every round is dealt from full decks
        hands = [
            Hand(()) if seat == went_out else Hand(dealer.worth(losses.get(seat, 2))) for seat in range(seats)
        ]
        return Round(tuple(hands), went_out)

    def all_tied(seats: int) -> Round:
        """A blocked round in which everybody scores 0: it never ends a game."""
        return Round(tuple(_hands(Dealer(rules), _BLOCKED_ALL_TIED[:seats])), None)

    def game(
        seats: int, *specs: tuple[int, Mapping[int, int]], least: int = 0
    ) -> Callable[[Dealer], Sequence[Round]]:
        def deal(_: Dealer) -> Sequence[Round]:
            if seats > rules.players_max:
                raise Unbuildable(f"needs {seats} players; players.max is {rules.players_max}")
            if engine.target(rules, seats) < least:
                raise Unbuildable(f"needs a target of at least {least}")
            return tuple(losing(out, losses, seats) for out, losses in specs)

        return deal

    n = rules.players_min
    goal = engine.target(rules, n)
    prefix = f"game/{n}-players"
    # Seat 0 goes out every round: its total 0 is the one lowest when seat 1 reaches the target.
    exactly = ((0, {1: goal // 2}), (0, {1: goal - goal // 2}))
    yield Plan(
        f"{prefix}/not-reached",
        f"{n} players, one round: seat 1 totals {goal - 1}, one below the target of {goal}: the game goes on",
        game(n, (0, {1: goal - 1}), least=3),  # the other losers' 2 points stay below it too
        game=True,
    )
    yield Plan(
        f"{prefix}/reaches-target-exactly",
        f"{n} players, two rounds: seat 1 totals exactly the target of {goal} (reaching means ≥): "
        "the game ends and the lowest total wins",
        game(n, *exactly),
        game=True,
    )

    def hand_rummy(dealer: Dealer) -> Sequence[Round]:
        others = _hands(dealer, _NEVER_OPENED_HANDS[: n - 1], opened=False)
        return (Round((Hand(()), *others), went_out=0, hand_rummy=True),)

    yield Plan(
        f"{prefix}/hand-rummy",
        f"{n} players, the first round is a hand rummy: each opponent pays {rules.hand_rummy_penalty} "
        f"against a target of {goal}",
        hand_rummy,
        game=True,
    )
    yield Plan("game/invalid/no-rounds", "a game without rounds", lambda _: (), game=True, error="no_rounds")

    def players_changed(_: Dealer) -> Sequence[Round]:
        if n + 1 > rules.players_max:
            raise Unbuildable("players.min equals players.max: no other player count is allowed")
        return (all_tied(n), all_tied(n + 1))

    yield Plan(
        "game/invalid/players-changed",
        f"round 1 (a blocked round that scores nothing) has {n} players, round 2 has {n + 1}",
        players_changed,
        game=True,
        error="players_changed",
    )
    yield Plan(
        "game/invalid/round-after-end",
        f"{n} players: the rounds of {prefix}/reaches-target-exactly, then one more",
        game(n, *exactly, (0, {})),
        game=True,
        error="round_after_end",
    )

    # A tie for the lowest total needs three players: with two, one of them scores 0 each round.
    three = max(3, n)
    goal3 = engine.target(rules, three)
    prefix3 = f"game/{three}-players"
    low = 2
    # Seats 0 and 2 lose 2 each, seat 1 reaches the target; seats beyond 2 lose 2 twice (4).
    tie = ((0, {1: goal3 // 2, 2: low}), (2, {0: low, 1: goal3 - goal3 // 2}))
    yield Plan(
        f"{prefix3}/several-reach",
        f"{three} players, one round: seats 1 and 2 both reach the target of {goal3}; the lowest total wins",
        game(three, (0, {1: goal3, 2: goal3 + 1})),
        game=True,
    )
    yield Plan(
        f"{prefix3}/extra-round",
        f"{three} players, two rounds: seat 1 reaches the target of {goal3} while seats 0 and 2 tie "
        f"for the lowest total ({low}): one more round",
        game(three, *tie, least=low + 1),
        game=True,
    )
    yield Plan(
        f"{prefix3}/extra-round-played",
        f"{prefix3}/extra-round, then the extra round: seat 0 goes out, the tie is broken",
        game(three, *tie, (0, {1: 2, 2: 3}), least=low + 1),
        game=True,
    )

    def tied_again(dealer: Dealer) -> Sequence[Round]:
        played = game(three, *tie, least=low + 1)(dealer)
        blocked = Dealer(rules)
        hands = (Hand(blocked.cards("2C")), Hand(blocked.cards("9D")), Hand(blocked.cards("2D")))
        return (*played, Round(hands + tuple(Hand(blocked.worth(9)) for _ in range(three - 3)), None))

    yield Plan(
        f"{prefix3}/extra-round-tied-again",
        f"{prefix3}/extra-round, then a blocked extra round in which seats 0 and 2 tie again (2 each): "
        "still no winner, one more round",
        tied_again,
        game=True,
    )


def planned_vectors(rules: Rules) -> list[Plan]:
    """The generated set, in a fixed order: cards, every player count, two decks, refusals, games."""
    plans = list(_card_value_plans(rules))
    for n in rules.player_counts:
        plans.extend(_player_count_plans(rules, n))
    plans.extend(_two_decks_plans(rules))
    plans.extend(_invalid_round_plans(rules))
    plans.extend(_game_plans(rules))
    return plans


def generated_vectors(rules: Rules) -> tuple[list[Vector], list[tuple[str, str]]]:
    """The dealt vectors, and the (id, reason) of those no hand can be dealt for under these values."""
    vectors, uncovered = [], []
    for plan in planned_vectors(rules):
        try:
            rounds = tuple(plan.deal(Dealer(rules)))
        except Unbuildable as reason:
            uncovered.append((plan.id, str(reason)))
            continue
        vector = Vector(plan.id, plan.description, rounds, plan.game, plan.error)
        if plan.error is None and plan.game and _ends_early(rules, vector):
            # With tiny values (a target of 2) the least a loser can pay already ends the game.
            uncovered.append((plan.id, "under these values the game ends before the planned last round"))
            continue
        vectors.append(vector)
    return vectors, uncovered


def _ends_early(rules: Rules, vector: Vector) -> bool:
    try:
        engine.score_game(rules, vector.rounds)
    except engine.GameError as error:
        return "comes after the game ended" in error.message
    except RulesdocError:
        return False
    return False


def example_vectors(rules: Rules) -> list[Vector]:
    return [
        Vector(f"example/{example.id}", example.title, (example.situation,)) for example in rules.examples
    ]


def expected(rules: Rules, vector: Vector) -> dict[str, Any]:
    """The engine's result; an impossible input must be refused, a possible one must score."""
    try:
        if vector.game:
            result = game_expected(engine.score_game(rules, vector.rounds))
        else:
            result = round_expected(engine.score_round(rules, vector.rounds[0]))
    except RulesdocError as error:
        if vector.error is None:
            raise AssertionError(f"vector {vector.id} should score but: {error}") from None
        return {"error": vector.error}
    if vector.error is not None:
        raise AssertionError(f"vector {vector.id} should be refused ({vector.error}) but scores")
    return result


def vector_json(rules: Rules, vector: Vector) -> dict[str, Any]:
    situations = [situation_input(situation) for situation in vector.rounds]
    return {
        "id": vector.id,
        "kind": "game" if vector.game else "round",
        "description": vector.description,
        "input": {"rounds": situations} if vector.game else situations[0],
        "expected": expected(rules, vector),
    }


def conformance(rules: Rules) -> dict[str, Any]:
    generated, uncovered = generated_vectors(rules)
    return {
        "format": "rulesdoc-conformance",
        "version": FORMAT_VERSION,
        "rules": rule_values(rules, with_examples=False),
        "errors": ERRORS,
        "vectors": [vector_json(rules, vector) for vector in example_vectors(rules) + generated],
        "uncovered": [{"id": vector_id, "reason": reason} for vector_id, reason in uncovered],
    }


def rules_document(rules: Rules) -> dict[str, Any]:
    return {
        "format": "rulesdoc-rules",
        "version": FORMAT_VERSION,
        "rules": rule_values(rules),
        "player_counts": [
            {
                "players": count.players,
                "target": count.target,
                "never_opened_cap": count.never_opened_cap,
                "never_opened_cap_rule": count.cap_rule.value,
            }
            for count in player_counts(rules)
        ],
    }


def _json(document: Mapping[str, Any]) -> str:
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def bundle(rules: Rules) -> dict[str, str]:
    """The bundle's files by name, as text: the same rules give the same bytes."""
    return {
        RULES_FILE: _json(rules_document(rules)),
        SCHEMA_FILE: schema_text(),
        CONFORMANCE_FILE: _json(conformance(rules)),
    }


# ---------------------------------------------------------------- writing, all or nothing


def write_bundle(files: Mapping[str, str], out: Path) -> list[Path]:
    """Replace the folder ``out`` with exactly ``files``, or leave it as it was.

    The files are written into a new folder beside ``out``, which then takes its place by
    renaming: a reader sees the old bundle or the new one, never a mix. A folder holding
    anything else is refused rather than replaced (``--out .`` must not empty a project).
    """
    where = Location(display_path(out))
    if out.exists() and not out.is_dir():
        raise RulesdocError("is not a folder; export writes a folder of files", where)
    if out.is_dir():
        others = sorted(path.name for path in out.iterdir() if path.name not in files)
        if others:
            raise RulesdocError(
                f"holds {others[0]!r}, which is not part of the bundle; export into a new or empty folder",
                where,
            )
    parent = out.resolve().parent
    staging = parent / f".{out.name}.new-{secrets.token_hex(4)}"
    retired = parent / f".{out.name}.old-{secrets.token_hex(4)}"
    try:
        parent.mkdir(parents=True, exist_ok=True)
        staging.mkdir()  # the usual permissions, not mkdtemp's owner-only ones
        for name, text in files.items():
            (staging / name).write_text(text, encoding="utf-8", newline="\n")
        if out.is_dir():
            os.rename(out, retired)
        os.rename(staging, out)
    except OSError as error:
        raise RulesdocError(f"cannot write the bundle: {error.strerror}", where) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        shutil.rmtree(retired, ignore_errors=True)
    return [out / name for name in files]
