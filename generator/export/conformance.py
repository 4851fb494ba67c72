"""``conformance.json``: test vectors, each an input and the engine's expected result.

Every worked example, then the generated set of :mod:`rulesdoc.export.vector_plans`. The
vectors depend only on the values, in a fixed order: the same rules give the same bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulesdoc.engine import scoring as engine
from rulesdoc.engine.model import Round, Rules
from rulesdoc.errors import RulesdocError
from rulesdoc.export.dealing import Dealer, Unbuildable
from rulesdoc.export.vector_plans import planned_vectors
from rulesdoc.spec.rules_data import FORMAT_VERSION, rule_values, situation_input


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
