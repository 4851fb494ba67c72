"""Random ``score`` inputs from a seed: rounds and games, possible and impossible, as JSON data.

For property tests comparing two scorers (tests/test_scoring_js.py). The inputs are shaped as
the ``score`` command reads them (every field explicit); their faults come by chance and by
design: a player count one outside the rules, a third copy of a card, a fifth joker, a seat
that went out still holding cards or never opened, hand rummy in a blocked round.
"""

from __future__ import annotations

import random
from typing import Any

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
CODES = tuple(rank + suit for suit in "CDHS" for rank in RANKS) + ("JK",)


def random_round(
    rng: random.Random, players_min: int, players_max: int, players: int | None = None, faults: bool = True
) -> dict[str, Any]:
    """One round; ``faults=False``: none by design (by chance a card may still come thrice)."""
    fault = (lambda p: rng.random() < p) if faults else (lambda p: False)
    n = players if players is not None else rng.randint(players_min, players_max)
    if players is None and fault(0.1):
        n = rng.choice((players_min - 1, players_max + 1))
    hands: list[dict[str, Any]] = [
        {"cards": [rng.choice(CODES) for _ in range(rng.randint(1, 5))], "opened": rng.random() < 0.6}
        for _ in range(n)
    ]
    if fault(0.1):  # a third card or a fifth joker
        code = rng.choice(("JK", "JK") + CODES[:4])
        hands[0]["cards"] += [code] * (5 if code == "JK" else 3)
    went_out: int | None = rng.randrange(n) if rng.random() < 0.8 else None
    if went_out is not None:
        if fault(0.05):
            went_out = n  # a seat beyond the table
        elif not fault(0.05):  # else the winner keeps its cards
            hands[went_out] = {"cards": [], "opened": not fault(0.05)}
    if fault(0.03):
        hands[rng.randrange(n)]["cards"] = []  # an empty hand (the winner's, if it is: no fault)
    hand_rummy = rng.random() < 0.15 or (went_out is None and fault(0.03))
    if hand_rummy and not fault(0.2):  # mostly possible: nobody but the winner opened
        for seat, hand in enumerate(hands):
            if seat != went_out:
                hand["opened"] = False
    return {"hands": hands, "went_out": went_out, "hand_rummy": hand_rummy}


def tied_round(rng: random.Random, players: int) -> dict[str, Any]:
    """A blocked round that seats 0 and 1 win with a 2 each: their totals stay tied at 0."""
    hands = [{"cards": ["2C"], "opened": True}, {"cards": ["2D"], "opened": rng.random() < 0.5}]
    for seat in range(2, players):  # a face card each, so more than 2, and a random card
        face = ("KS", "KH", "QS", "QH", "JS", "JH")[seat - 2]
        hands.append({"cards": [face, rng.choice(CODES)], "opened": rng.random() < 0.5})
    return {"hands": hands, "went_out": None, "hand_rummy": False}


def random_game(rng: random.Random, players_min: int, players_max: int) -> dict[str, Any]:
    """A game of up to eight rounds; now and then a round of another player count, or none."""
    if rng.random() < 0.02:
        return {"rounds": []}
    players = rng.randint(players_min, players_max)
    if rng.random() < 0.15 and players > 2:
        return {"rounds": [tied_round(rng, players) for _ in range(rng.randint(1, 8))]}
    rounds = []
    for _ in range(rng.randint(1, 8)):
        count = players if rng.random() < 0.97 else rng.randint(players_min, players_max)
        rounds.append(random_round(rng, players_min, players_max, count, faults=rng.random() < 0.05))
    return {"rounds": rounds}


def random_inputs(seed: int, count: int, players_min: int, players_max: int) -> list[dict[str, Any]]:
    """``count`` inputs, two rounds for every game, the same for the same seed."""
    rng = random.Random(seed)
    return [
        random_game(rng, players_min, players_max)
        if rng.random() < 1 / 3
        else random_round(rng, players_min, players_max)
        for _ in range(count)
    ]
