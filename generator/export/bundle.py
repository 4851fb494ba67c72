"""``rulesdoc export``: the rules as a versioned bundle an app can consume and test against.

Four files, written all at once (a temporary folder beside the output, then swapped in):

- ``rules.json``: the values of ``rules.yaml`` in its own shape (so ``rules.schema.json``
  validates ``rules.json["rules"]`` too), and the target and never-opened cap per player count;
- ``rules.schema.json``: the JSON Schema of ``rules.yaml`` (:mod:`rulesdoc.spec.schema`);
- ``conformance.json``: test vectors, each an input (the ``score`` command's input) and the
  engine's expected result: every worked example, then a generated set covering every rule
  and edge under the current values;
- ``scoring.mjs``: a JavaScript scorer (no dependency, no network) that reads ``rules.json``
  and returns what the vectors expect; ``tests/test_scoring_js.py`` runs every vector through it.

The generated vectors depend only on the values, in a fixed order: the same rules give the
same bytes. A vector whose hands cannot be dealt under the values (a cap no hand reaches)
is listed under ``uncovered`` with the reason, never silently dropped.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from rulesdoc.engine.model import Rules
from rulesdoc.errors import Location, RulesdocError, display_path
from rulesdoc.export.conformance import conformance
from rulesdoc.io.folders import replacing
from rulesdoc.spec.rules_data import FORMAT_VERSION, player_counts, rule_values
from rulesdoc.spec.schema import SCHEMA_FILE, schema_text

RULES_FILE = "rules.json"
CONFORMANCE_FILE = "conformance.json"
SCORER_FILE = "scoring.mjs"  # package data beside this module, shipped as it is


# ---------------------------------------------------------------- the rules as data


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
        SCORER_FILE: scorer_text(),
    }


def scorer_text() -> str:
    """The JavaScript scorer, the same for any rules: it reads them from ``rules.json``."""
    return resources.files(__package__).joinpath(SCORER_FILE).read_text("utf-8")


# ---------------------------------------------------------------- writing, all or nothing


def write_bundle(files: Mapping[str, str], out: Path) -> list[Path]:
    """Replace the folder ``out`` with exactly ``files``, or leave it as it was.

    The files are written into a new folder beside ``out``, which then takes its place
    (:class:`rulesdoc.io.folders.FolderSwap`): a reader sees the old bundle or the new one, never a
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
