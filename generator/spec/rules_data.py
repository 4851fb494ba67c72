"""The rules as data, in the shape of ``rules.yaml``: what ``export``, its conformance vectors
and the rule-change ``report`` all write (one module below the three, so none borrows another's)."""

from __future__ import annotations

import operator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rulesdoc.engine import scoring as engine
from rulesdoc.engine.model import Reason, Round, Rules
from rulesdoc.spec import fields

FORMAT_VERSION = 1  # raised on any change an app's reader would have to follow


def rule_values(rules: Rules, with_examples: bool = True) -> dict[str, Any]:
    """The values in the shape of ``rules.yaml``, cards as canonical codes, defaults spelled out."""
    values: dict[str, Any] = {}
    for path, field in fields.rule_values():
        section, key = path.split(".")
        value = operator.attrgetter(field.attribute)(rules)
        # Exact: the loader made the Fraction from the decimal text, which float() gives back.
        values.setdefault(section, {})[key] = float(value) if isinstance(value, Fraction) else value
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
