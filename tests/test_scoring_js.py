"""The bundle's JavaScript scorer (generator/export/scoring.mjs) agrees with every conformance vector.

``python -m rulesdoc export`` writes a bundle into a temporary folder, as an app would get it;
``node --test tests/js/`` then scores every vector with the bundle's own ``scoring.mjs``
(tests/js/vectors.test.mjs), the expected values being the vectors' (the Python engine's). Once
for the seed's rules, once for rules of other values (a fraction whose product floating point
gets wrong: 100 x 0.57 is 56.99999999999999), so the JavaScript is not right only today.

A seeded property test then feeds random rounds and games (tests/support/random_rounds.py),
possible and impossible, to the Python engine and to scoring.mjs (one node process, a JSON
list), for both sets of rules, and compares every result, refusals by their codes.

Skipped only when Node is absent, and never under CI (``CI=true``): there it must run.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from support import ROOT, SEED_RULES
from support.random_rounds import random_inputs

from rulesdoc.engine import scoring as engine
from rulesdoc.engine.model import Rules
from rulesdoc.errors import RulesdocError
from rulesdoc.export import bundle as export_bundle
from rulesdoc.export.conformance import game_expected, round_expected
from rulesdoc.score.reading import RoundStream
from rulesdoc.spec.rules import load_rules

pytestmark = pytest.mark.slow

NODE = shutil.which("node")
JS_TESTS = ROOT / "tests" / "js"
SCORER = ROOT / "generator" / "export" / "scoring.mjs"


def node() -> str:
    if NODE is None:
        if os.environ.get("CI") == "true":
            pytest.fail("node is needed to test the JavaScript scorer, and CI must run it")
        pytest.skip("node is not installed")
    return NODE


def other_rules(tmp_path: Path) -> Path:
    """The seed's rules with every value changed, the worked examples kept as rounds."""
    data = yaml.safe_load(SEED_RULES.read_text("utf-8"))
    data["players"] = {"min": 2, "max": 5}
    data["card_values"] = {"joker": 25, "ace": 15, "face": 12}
    data["hand_rummy"] = {"penalty": 150}
    data["never_opened"] = {"surcharge": 30, "cap": 90, "cap_target_fraction": 0.57}
    data["target"] = {"per_opponent": 100}
    for example in data["examples"]:
        example.pop("illustrates", None)  # the rule each shows holds at the seed's values only
    path = tmp_path / "rules.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    return path


def export(rules: Path, out: Path) -> Path:
    result = subprocess.run(
        [sys.executable, "-m", "rulesdoc", "--root", str(ROOT), "export", "--rules", str(rules), "--out", str(out)],
        capture_output=True, text=True,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return out


def run_vectors(bundle: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "RULESDOC_BUNDLE": str(bundle)}
    return subprocess.run(
        [node(), "--test", str(JS_TESTS)], capture_output=True, text=True, env=env, timeout=120
    )  # fmt: skip


def passed(result: subprocess.CompletedProcess[str]) -> int:
    """The number of tests node reports passed, after checking none failed."""
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr
    counts = dict(line[2:].split(" ", 1) for line in result.stdout.splitlines() if line.startswith("# "))
    assert counts.get("fail") == "0", result.stdout[-2000:]
    return int(counts["pass"])


def vector_count(bundle: Path) -> int:
    return len(json.loads((bundle / "conformance.json").read_text("utf-8"))["vectors"])


def test_every_vector_of_the_seed_rules_passes_through_scoring_mjs(tmp_path: Path) -> None:
    node()
    bundle = export(SEED_RULES, tmp_path / "export")
    assert vector_count(bundle) >= 80
    assert passed(run_vectors(bundle)) == vector_count(bundle) + 1  # and the bundle's own check


def test_every_vector_of_other_values_passes_through_scoring_mjs(tmp_path: Path) -> None:
    node()
    bundle = export(other_rules(tmp_path), tmp_path / "export")
    document = (bundle / "rules.json").read_text("utf-8")
    assert '"cap_target_fraction": 0.57' in document and '"never_opened_cap": 57' in document
    assert passed(run_vectors(bundle)) == vector_count(bundle) + 1


def test_a_wrong_scorer_fails_the_node_run(tmp_path: Path) -> None:
    """The node run can fail: a bundle whose scorer charges a joker one point too many."""
    node()
    bundle = export(SEED_RULES, tmp_path / "export")
    scorer = bundle / "scoring.mjs"
    text = scorer.read_text("utf-8")
    assert text.count("return values.joker;") == 1
    scorer.write_text(text.replace("return values.joker;", "return values.joker + 1;"), "utf-8")
    result = run_vectors(bundle)
    assert result.returncode != 0
    assert "\nnot ok " in result.stdout


# ---------------------------------------------------------------- random rounds, two scorers

# The engine's refusals by their words, as conformance.json's codes (generator/export/conformance.py).
REFUSALS = (
    ("went_out is seat", "seat"),
    ("Rami is played by", "players"),
    ("jokers in one round", "jokers"),
    ("copies of", "copies"),
    ("went out but still holds cards", "winner_holds_cards"),
    ("went out, so it must have opened", "winner_not_opened"),
    ("holds no cards but did not go out", "empty_hand"),
    ("hand rummy needs a player who went out", "hand_rummy_blocked"),
    ("hand rummy is impossible", "hand_rummy_opened"),
    ("a game needs at least one round", "no_rounds"),
    ("no round in the input", "no_rounds"),
    ("the game started with", "players_changed"),
    ("comes after the game ended", "round_after_end"),
)


def engine_result(rules: Rules, given: dict[str, Any]) -> dict[str, Any]:
    """What the Python engine makes of an input read as ``score`` reads it, refusals as codes."""
    try:
        rounds = tuple(situation for situation, _ in RoundStream(json.dumps(given), "input"))
        if "rounds" in given:
            return game_expected(engine.score_game(rules, rounds))
        return round_expected(engine.score_round(rules, rounds[0]))
    except RulesdocError as error:
        codes = [code for words, code in REFUSALS if words in error.message]
        assert codes, error.message
        return {"error": codes[0]}


def javascript_results(rules: Rules, inputs: list[Any]) -> list[Any]:
    """scoring.mjs's results for every input, from one node process fed a JSON list."""
    script = (
        "import { score } from " + json.dumps(SCORER.as_uri()) + ";\n"
        "let text = ''; for await (const chunk of process.stdin) text += chunk;\n"
        "const { rules, inputs } = JSON.parse(text);\n"
        "process.stdout.write(JSON.stringify(inputs.map((input) => score(rules, input))));\n"
    )
    payload = json.dumps({"rules": export_bundle.rules_document(rules), "inputs": inputs})
    result = subprocess.run(
        [node(), "--input-type=module", "-e", script], input=payload, capture_output=True, text=True, timeout=120
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    results: list[Any] = json.loads(result.stdout)
    return results


@pytest.mark.parametrize(("which", "seed"), [("seed", 30), ("other", 31)])
def test_scoring_mjs_agrees_with_the_engine_on_random_rounds_and_games(
    which: str, seed: int, tmp_path: Path
) -> None:
    node()
    rules = load_rules(SEED_RULES if which == "seed" else other_rules(tmp_path))
    inputs = random_inputs(seed, 600, rules.players_min, rules.players_max)
    expected = [engine_result(rules, given) for given in inputs]
    # The inputs reach what they are for: scored rounds and games, finished ones, and every refusal.
    outcomes = Counter(result.get("error", "game" if "totals" in result else "round") for result in expected)
    assert outcomes["round"] >= 150 and outcomes["game"] >= 50, outcomes
    assert sum(1 for result in expected if result.get("finished")) >= 10
    assert any(result.get("extra_round") for result in expected)
    assert set(outcomes) >= {code for _, code in REFUSALS}, outcomes
    got = javascript_results(rules, inputs)
    wrong = [
        (given, want, have) for given, want, have in zip(inputs, expected, got, strict=True) if want != have
    ]
    assert wrong == [], wrong[:3]


def test_a_list_of_rounds_is_scored_round_by_round(tmp_path: Path) -> None:
    """The ``score`` command's third form: each round of a list alone (no totals)."""
    node()
    rules = load_rules(SEED_RULES)
    rounds = [given for given in random_inputs(7, 40, 2, 6) if "rounds" not in given][:6]
    (got,) = javascript_results(rules, [rounds])
    assert got == [engine_result(rules, given) for given in rounds]
    assert any("error" in result for result in got) and any("scores" in result for result in got)
