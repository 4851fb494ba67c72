"""conformance.json read as an app's test reads it, and scored by a scorer written here.

This module imports nothing of ``rulesdoc``: it runs ``rulesdoc export`` like any consumer
and checks every vector with a scorer written from the rules as the app developer's guide states them. The
engine computed the expected values; this scorer agreeing proves them a second time.
"""

from __future__ import annotations

import ast
import json
import math
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml
from support import ROOT


@pytest.fixture(scope="module")
def conformance(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("bundle") / "export"
    subprocess.run(
        [sys.executable, "-m", "rulesdoc", "--root", str(ROOT), "export", "--out", str(out)],
        check=True, capture_output=True,
    )  # fmt: skip
    assert sorted(path.name for path in out.iterdir()) == [
        "conformance.json",
        "rules.json",
        "rules.schema.json",
        "scoring.mjs",
    ]
    document: dict[str, Any] = json.loads((out / "conformance.json").read_text("utf-8"))
    return document


# ---------------------------------------------------------------- an independent scorer
# From the app developer's guide ("The rules the scores follow", manual/apps.md), not from generator/engine/scoring.py.
# `rules` is the data of rules.yaml (conformance.json repeats it under "rules").


def card_value(rules: dict[str, Any], code: str) -> int:
    code, values = code.upper(), rules["card_values"]
    if code == "JK":
        return values["joker"]
    rank = code[:-1]
    return values["ace"] if rank == "A" else values["face"] if rank in "JQK" else int(rank)


def refusal(rules: dict[str, Any], situation: dict[str, Any]) -> str | None:
    """Why a round cannot happen (the codes of conformance.json's "errors"), or None."""
    hands, out = situation["hands"], situation["went_out"]
    others = [hand for seat, hand in enumerate(hands) if seat != out]
    copies = Counter(code.upper() for hand in hands for code in hand["cards"])
    faults = {
        "players": not rules["players"]["min"] <= len(hands) <= rules["players"]["max"],
        "jokers": copies.pop("JK", 0) > 4,
        "copies": any(count > 2 for count in copies.values()),
        "seat": out is not None and not 0 <= out < len(hands),
        "winner_holds_cards": out is not None and 0 <= out < len(hands) and bool(hands[out]["cards"]),
        "winner_not_opened": out is not None and 0 <= out < len(hands) and not hands[out]["opened"],
        "empty_hand": any(not hand["cards"] for hand in others),
        "hand_rummy_blocked": situation["hand_rummy"] and out is None,
        "hand_rummy_opened": situation["hand_rummy"] and out is not None and any(h["opened"] for h in others),
    }
    return next((code for code, fault in faults.items() if fault), None)


def score_round(rules: dict[str, Any], situation: dict[str, Any]) -> dict[str, Any]:
    hands, out, never = situation["hands"], situation["went_out"], rules["never_opened"]
    target = rules["target"]["per_opponent"] * (len(hands) - 1)
    share = math.floor(target * Fraction(str(never["cap_target_fraction"])))
    cap, capped = (never["cap"], "capped_fixed") if never["cap"] <= share else (share, "capped_target_share")
    values = [sum(card_value(rules, code) for code in hand["cards"]) for hand in hands]
    winners = [out] if out is not None else [seat for seat, v in enumerate(values) if v == min(values)]
    scored = []
    for seat, (hand, value) in enumerate(zip(hands, values, strict=True)):
        if seat in winners:
            scored.append((0, "winner" if out is not None else "blocked_winner"))
        elif situation["hand_rummy"]:
            scored.append((rules["hand_rummy"]["penalty"], "hand_rummy"))
        elif hand["opened"]:
            scored.append((value, "hand_value"))
        else:
            charged = value + never["surcharge"]
            scored.append((cap, capped) if charged > cap else (charged, "never_opened"))
    scores, reasons = [s for s, _ in scored], [r for _, r in scored]
    return {"scores": scores, "winners": winners, "reasons": reasons, "hand_values": values, "target": target}


def score_game(rules: dict[str, Any], rounds: list[dict[str, Any]]) -> dict[str, Any]:
    if not rounds:
        return {"error": "no_rounds"}
    players, totals, results = len(rounds[0]["hands"]), [0] * len(rounds[0]["hands"]), []
    finished = extra_round = False
    winner = None
    for situation in rounds:
        if finished:
            return {"error": "round_after_end"}
        if len(situation["hands"]) != players:
            return {"error": "players_changed"}
        if refusal(rules, situation):
            return {"error": refusal(rules, situation)}
        results.append(score_round(rules, situation))
        totals = [total + score for total, score in zip(totals, results[-1]["scores"], strict=True)]
        if max(totals) >= results[-1]["target"]:  # the round in which a total reaches the target
            leaders = [seat for seat, total in enumerate(totals) if total == min(totals)]
            finished, extra_round = len(leaders) == 1, len(leaders) > 1
            winner = leaders[0] if finished else None
    target = results[0]["target"]
    return {"rounds": results, "totals": totals, "target": target, "finished": finished, "winner": winner,
            "extra_round": extra_round}  # fmt: skip


def independent(rules: dict[str, Any], vector: dict[str, Any]) -> dict[str, Any]:
    if vector["kind"] == "game":
        return score_game(rules, vector["input"]["rounds"])
    fault = refusal(rules, vector["input"])
    return {"error": fault} if fault else score_round(rules, vector["input"])


# ---------------------------------------------------------------- every vector


@pytest.mark.slow
def test_the_vectors_hold_under_the_rules_of_rules_yaml(conformance: dict[str, Any]) -> None:
    values = yaml.safe_load((ROOT / "rules.yaml").read_text("utf-8"))
    del values["examples"]
    assert conformance["rules"] == values
    assert (conformance["format"], conformance["version"]) == ("rulesdoc-conformance", 1)


@pytest.mark.slow
def test_the_independent_scorer_agrees_with_every_vector(conformance: dict[str, Any]) -> None:
    vectors = conformance["vectors"]
    assert len(vectors) >= 80
    wrong = [v["id"] for v in vectors if independent(conformance["rules"], v) != v["expected"]]
    assert wrong == []


def test_this_module_imports_nothing_of_the_generator() -> None:
    tree = ast.parse(Path(__file__).read_text("utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not {name for name in imported if name.split(".")[0] == "rulesdoc"}
