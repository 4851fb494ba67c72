"""``rulesdoc export``: the rules as a versioned bundle an app can consume and test against.

Three files, written all at once (a temporary folder beside the output, then swapped in):

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
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator import engine
from generator.errors import Location, RulesdocError, display_path
from generator.files import replacing
from generator.model import Reason, Round, Rules
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
    from generator.conformance import conformance  # it reads this module's rules data: no cycle at import

    return {
        RULES_FILE: _json(rules_document(rules)),
        SCHEMA_FILE: schema_text(),
        CONFORMANCE_FILE: _json(conformance(rules)),
    }


# ---------------------------------------------------------------- writing, all or nothing


def write_bundle(files: Mapping[str, str], out: Path) -> list[Path]:
    """Replace the folder ``out`` with exactly ``files``, or leave it as it was.

    The files are written into a new folder beside ``out``, which then takes its place
    (:class:`generator.files.FolderSwap`): a reader sees the old bundle or the new one, never a
    mix, and a second export waits for the first. A folder holding anything else is refused
    rather than replaced (``--out .`` must not empty a project).
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
    try:
        with replacing(out, f"rulesdoc: waiting for another export writing {display_path(out)}") as staging:
            for name, text in files.items():
                (staging / name).write_text(text, encoding="utf-8", newline="\n")
    except OSError as error:
        raise RulesdocError(f"cannot write the bundle: {error.strerror}", where) from None
    return [out / name for name in files]
