"""The bundle's JavaScript scorer (generator/export/scoring.mjs) agrees with every conformance vector.

``python -m generator export`` writes a bundle into a temporary folder, as an app would get it;
``node --test tests/js/`` then scores every vector with the bundle's own ``scoring.mjs``
(tests/js/vectors.test.mjs), the expected values being the vectors' (the Python engine's). Once
for the seed's rules, once for rules of other values (a fraction whose product floating point
gets wrong: 100 x 0.57 is 56.99999999999999), so the JavaScript is not right only today.

Skipped only when Node is absent, and never under CI (``CI=true``): there it must run.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from support import ROOT, SEED_RULES

pytestmark = pytest.mark.slow

NODE = shutil.which("node")
JS_TESTS = ROOT / "tests" / "js"


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
        [sys.executable, "-m", "generator", "--root", str(ROOT), "export", "--rules", str(rules), "--out", str(out)],
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
