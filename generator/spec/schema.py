"""The JSON Schema (draft 2020-12) of ``rules.yaml``, as data.

Editors validate and complete ``rules.yaml`` with it (its first line names it for the YAML
language server), apps read it beside ``rules.json`` in the export bundle, and the site
publishes it as ``rules.schema.json``. It states everything the loader checks *value by
value*: types, ranges, card syntax, required and unknown keys, the example id pattern.
What needs two values at once (``players.min`` ≤ ``players.max``, a seat that exists,
unique ids, two decks' card limits, an example showing its rule) only the loader checks:
a JSON Schema cannot compare one value with another.

The bounds come from the loader's own constants, so the two cannot disagree.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from generator.engine.cards import JOKER_CODE, Rank, Suit
from generator.engine.model import Reason
from generator.spec.rules import MAX_PLAYERS, MAX_VALUE

DIALECT = "https://json-schema.org/draft/2020-12/schema"
SCHEMA_FILE = "rules.schema.json"
MIN_PLAYERS = 2
# The loader's pattern (generator/spec/rules.py): lowercase words joined by "-".
EXAMPLE_ID_PATTERN = "^[a-z0-9]+(-[a-z0-9]+)*$"
# Title and note: any text with something other than whitespace in it.
NON_EMPTY_TEXT_PATTERN = r"\S"


def _either_case(letters: str) -> str:
    return "".join(letter.upper() + letter.lower() for letter in letters)


def card_pattern() -> str:
    """``parse_card``'s syntax: rank then suit in either case (``AH``, ``10s``, ``qd``), or ``JK``."""
    letters = _either_case("".join(rank.value for rank in Rank if not rank.value.isdigit()))
    suits = _either_case("".join(suit.value for suit in Suit))
    joker = "".join(f"[{_either_case(letter)}]" for letter in JOKER_CODE)
    return f"^(?:(?:10|[2-9{letters}])[{suits}]|{joker})$"


def _positive(description: str) -> dict[str, Any]:
    return {"type": "integer", "minimum": 1, "maximum": MAX_VALUE, "description": description}


def _section(
    description: str, properties: dict[str, Any], required: list[str] | None = None
) -> dict[str, Any]:
    """A mapping of these keys and no other; all required unless ``required`` names some."""
    return {
        "type": "object",
        "description": description,
        "properties": properties,
        "required": list(properties) if required is None else required,
        "additionalProperties": False,
    }


def _situation() -> dict[str, Any]:
    hand = _section(
        "What one seat holds when the round ends.",
        {
            "cards": {
                "type": "array",
                "description": "Cards left in hand; empty only for the seat that went out. "
                "Two decks: at most two copies of a card and four jokers in one round.",
                "items": {
                    "type": "string",
                    "pattern": card_pattern(),
                    "description": "Rank (A, 2-10, J, Q, K) then suit (C, D, H, S), "
                    "in either case: AH, 10S, qd; JK for a joker.",
                },
            },
            "opened": {
                "type": "boolean",
                "default": True,
                "description": "Whether the player had laid down melds; false for a player "
                "who never opened (surcharge and caps apply).",
            },
        },
        required=["cards"],
    )
    return _section(
        "A round as it ends: never a result, which the engine computes.",
        {
            "hands": {
                "type": "array",
                "description": "One hand per seat, seat 0 first.",
                "minItems": MIN_PLAYERS,
                "maxItems": MAX_PLAYERS,
                "items": hand,
            },
            "went_out": {
                "type": ["integer", "null"],
                "minimum": 0,
                "maximum": MAX_PLAYERS - 1,
                "description": "The seat that went out; leave it out (or null) for a blocked round.",
            },
            "hand_rummy": {
                "type": "boolean",
                "default": False,
                "description": "The seat that went out did so in one turn: every opponent, "
                "none of whom had opened, pays the hand rummy penalty.",
            },
        },
        required=["hands"],
    )


def rules_schema() -> dict[str, Any]:
    """The schema as a JSON-ready mapping; keys in the order a reader meets them in rules.yaml."""
    example = {
        "type": "object",
        "description": "A worked example: a situation the pages score, in every language.",
        "properties": {
            "id": {
                "type": "string",
                "pattern": EXAMPLE_ID_PATTERN,
                "description": "Lowercase words joined by '-', unique among the examples.",
            },
            "title": {
                "type": "string",
                "pattern": NON_EMPTY_TEXT_PATTERN,
                "description": "English source text, translated in the catalogs.",
            },
            "note": {
                "type": "string",
                "pattern": NON_EMPTY_TEXT_PATTERN,
                "description": "Optional English sentence shown below the title.",
            },
            "illustrates": {
                "enum": [reason.value for reason in Reason],
                "description": "The rule the example is there to show: the build fails if "
                "another rule decides it.",
            },
            "situation": _situation(),
        },
        "required": ["id", "title", "situation"],
        "additionalProperties": False,
    }
    players = {
        "type": "integer",
        "minimum": MIN_PLAYERS,
        "maximum": MAX_PLAYERS,
    }
    top = _section(
        "The scoring rules of Rami: the single source of truth of the rules pages and the app.",
        {
            "players": _section(
                "Allowed player counts; min must not be above max.",
                {
                    "min": {**players, "description": "The fewest players (two at least)."},
                    "max": {**players, "description": "The most players (two decks deal at most eight)."},
                },
            ),
            "card_values": _section(
                "What a card costs when it is still in hand; two to ten count their pip value.",
                {
                    "joker": _positive("A joker left in hand."),
                    "ace": _positive("An ace left in hand."),
                    "face": _positive("A jack, queen or king left in hand."),
                },
            ),
            "melds": _section(
                "Values of cards laid in melds.",
                {"ace_low": _positive("An ace laid low in a sequence (A-2-3).")},
            ),
            "hand_rummy": _section(
                "Going out in one turn.",
                {"penalty": _positive("Charged to every opponent, whatever they hold.")},
            ),
            "never_opened": _section(
                "A loser who never opened pays hand value + surcharge, capped by the lower "
                "of cap and cap_target_fraction × target (rounded down).",
                {
                    "surcharge": _positive("Added to the hand value of a loser who never opened."),
                    "cap": _positive("Never more than this."),
                    "cap_target_fraction": {
                        "type": "number",
                        "exclusiveMinimum": 0,
                        "maximum": 1,
                        "description": "Nor more than this share of the game target (above 0, at most 1).",
                    },
                },
            ),
            "target": _section(
                "The game ends after the round in which a total reaches the target.",
                {"per_opponent": _positive("The target is this × (players − 1).")},
            ),
        },
    )
    top["properties"]["examples"] = {
        "type": "array",
        "description": "Worked examples, shown on the scoring page in every language.",
        "items": example,
    }
    return {
        "$schema": DIALECT,
        "title": "Rami rules (rulesdoc rules.yaml)",
        **top,
    }


def schema_text() -> str:
    """The schema as the bundle and the site publish it: stable bytes, one trailing newline."""
    return json.dumps(rules_schema(), ensure_ascii=False, indent=2) + "\n"


def publish_schema(site_dir: Path) -> Path:
    """Write ``rules.schema.json`` at the root of a built site (the MkDocs plugin's hook)."""
    path = site_dir / SCHEMA_FILE
    path.write_text(schema_text(), encoding="utf-8", newline="\n")
    return path
