"""The export bundle: rules.json, rules.schema.json, conformance.json and scoring.mjs (generator/export/bundle.py).

The conformance vectors are proven right twice: by the engine (here), and by an independent
scorer written from the rules as the app developer's guide states them (tests/test_conformance.py). Expected
values in the other tests are worked out by hand from the seed rules (tests/fixtures/rules/seed.yaml):
joker 20, ace 11, faces 10; surcharge 25, cap 100, cap_target_fraction 0.5; hand rummy 200;
target 100 x (players - 1), so the never-opened cap is 50 with two players (the target share),
100 with three (both caps equal: the fixed one is named) and 100 with four to six (fixed).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import ROOT, SEED_RULES
from test_conformance import independent

from rulesdoc.engine.model import Rules
from rulesdoc.errors import RulesdocError
from rulesdoc.export import bundle as export
from rulesdoc.export import conformance, vector_plans
from rulesdoc.io import folders
from rulesdoc.spec.rules import load_rules, parse_rules


# The bundle is built once per session, when a test first asks for it: not at collection, so
# that selecting any other test (`make test-fast -k ...`) does not pay for ~all the vectors.
@pytest.fixture(scope="session")
def rules() -> Rules:
    return load_rules(SEED_RULES)


@pytest.fixture(scope="session")
def bundle(rules: Rules) -> dict[str, str]:
    return export.bundle(rules)


@pytest.fixture(scope="session")
def conformance_doc(bundle: dict[str, str]) -> dict[str, Any]:
    return json.loads(bundle["conformance.json"])  # type: ignore[no-any-return]


@pytest.fixture(scope="session")
def vectors(conformance_doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {vector["id"]: vector for vector in conformance_doc["vectors"]}


# ---------------------------------------------------------------- the vectors, proven twice


def test_the_engine_through_the_score_input_agrees_with_every_vector(
    rules: Rules, vectors: dict[str, dict[str, Any]]
) -> None:
    """Each input read as `rulesdoc score` reads it, then scored by the engine.

    One test over every vector rather than one per vector: the ids would have to be known at
    collection, which means building the whole bundle before any test is selected.
    """
    from rulesdoc.engine import scoring as engine
    from rulesdoc.score.reading import RoundStream

    for vector_id, vector in vectors.items():
        try:  # the reader refuses some inputs (no rounds, a seat that does not exist), the engine the others
            rounds = [situation for situation, _ in RoundStream(json.dumps(vector["input"]), "vector")]
            if vector["kind"] == "game":
                result = conformance.game_expected(engine.score_game(rules, tuple(rounds)))
            else:
                result = conformance.round_expected(engine.score_round(rules, rounds[0]))
        except RulesdocError:
            assert "error" in vector["expected"], vector_id
            continue
        assert result == vector["expected"], vector_id


@pytest.mark.slow
def test_the_score_command_prints_the_vectors_results(
    tmp_path: Path, vectors: dict[str, dict[str, Any]]
) -> None:
    vector = vectors["example/ace-joker-five"]
    (tmp_path / "round.json").write_text(json.dumps(vector["input"]), "utf-8")
    printed = subprocess.run(
        [sys.executable, "-m", "rulesdoc", "score", "--rules", str(SEED_RULES), str(tmp_path / "round.json")],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    expected = {key: value for key, value in vector["expected"].items() if key != "hand_values"}
    assert json.loads(printed) == expected


# ---------------------------------------------------------------- coverage, by hand


def test_the_worked_examples_come_first_with_their_titles(conformance_doc: dict[str, Any]) -> None:
    examples = conformance_doc["vectors"][:4]
    assert [v["id"] for v in examples] == [
        "example/ace-joker-five",
        "example/two-players-never-opened",
        "example/four-players-one-never-opened",
        "example/hand-rummy-three-players",
    ]
    assert examples[0]["description"] == "An ace, a joker and a five are left"
    assert examples[0]["expected"]["scores"] == [0, 36]  # 11 + 20 + 5
    assert examples[1]["expected"]["scores"] == [0, 50]  # 49 + 25 = 74, capped at 50 (2 players)
    assert examples[2]["expected"]["scores"] == [0, 7, 100, 31]  # 84 + 25 = 109, capped at 100
    assert examples[3]["expected"]["scores"] == [0, 200, 200]


def test_every_rule_and_refusal_is_covered(conformance_doc: dict[str, Any]) -> None:
    reasons = {
        reason
        for vector in conformance_doc["vectors"]
        for result in (
            [vector["expected"]] if vector["kind"] == "round" else vector["expected"].get("rounds", [])
        )
        for reason in result.get("reasons", [])
    }
    assert reasons == {"winner", "hand_value", "never_opened", "capped_fixed", "capped_target_share",
                       "hand_rummy", "blocked_winner"}  # fmt: skip
    errors = {vector["expected"].get("error") for vector in conformance_doc["vectors"]} - {None}
    assert errors == set(conformance.ERRORS) == set(conformance_doc["errors"])
    assert conformance_doc["uncovered"] == []


@pytest.mark.parametrize(
    ("players", "cap", "capped"),
    [(2, 50, "capped_target_share"), (3, 100, "capped_fixed"), (4, 100, "capped_fixed"),
     (5, 100, "capped_fixed"), (6, 100, "capped_fixed")],
)  # fmt: skip
def test_both_sides_of_the_cap_at_every_player_count(
    players: int, cap: int, capped: str, vectors: dict[str, dict[str, Any]]
) -> None:
    prefix = f"round/{players}-players/never-opened"
    for name, charged, score, reason in (
        ("below-cap", cap - 1, cap - 1, "never_opened"),
        ("at-cap", cap, cap, "never_opened"),  # not above the cap: no cap applies
        ("above-cap", cap + 1, cap, capped),
    ):
        expected = vectors[f"{prefix}/{name}"]["expected"]
        assert expected["hand_values"][1] == charged - 25
        assert (expected["scores"][1], expected["reasons"][1]) == (score, reason), name
    assert "both caps are 100" in vectors["round/3-players/never-opened/above-cap"]["description"]


def test_blocked_rounds_and_their_ties(vectors: dict[str, dict[str, Any]]) -> None:
    tie = vectors["round/4-players/blocked/tie"]["expected"]
    assert tie["hand_values"] == [5, 5, 9, 10]
    assert (tie["winners"], tie["scores"]) == ([0, 1], [0, 0, 9, 10])
    all_tied = vectors["round/3-players/blocked/all-tied"]["expected"]
    assert (all_tied["winners"], all_tied["scores"]) == ([0, 1, 2], [0, 0, 0])
    # Never opened, raw 4 against 5: the surcharge does not count for the lowest hand.
    lowest = vectors["round/2-players/blocked/never-opened-lowest"]["expected"]
    assert (lowest["winners"], lowest["scores"]) == ([0], [0, 5])
    # Seat 0 lost a blocked round without opening: 9 + 25.
    assert vectors["round/2-players/blocked/lowest-wins"]["expected"]["scores"] == [34, 0]


def test_two_decks_limits(vectors: dict[str, dict[str, Any]]) -> None:
    assert vectors["round/two-decks/two-copies-in-a-hand"]["expected"]["scores"] == [0, 20]
    assert vectors["round/two-decks/four-jokers"]["expected"]["scores"] == [0, 80]
    assert vectors["round/invalid/three-copies"]["expected"] == {"error": "copies"}
    assert vectors["round/invalid/five-jokers"]["expected"] == {"error": "jokers"}


def test_the_games_end_and_their_extra_round(vectors: dict[str, dict[str, Any]]) -> None:
    exactly = vectors["game/2-players/reaches-target-exactly"]["expected"]
    assert (exactly["totals"], exactly["finished"], exactly["winner"]) == ([0, 100], True, 0)
    short = vectors["game/2-players/not-reached"]["expected"]
    assert (short["totals"], short["finished"], short["winner"], short["extra_round"]) == (
        [0, 99],
        False,
        None,
        False,
    )
    tie = vectors["game/3-players/extra-round"]["expected"]
    assert (tie["totals"], tie["finished"], tie["extra_round"], tie["winner"]) == (
        [2, 200, 2],
        False,
        True,
        None,
    )
    played = vectors["game/3-players/extra-round-played"]["expected"]
    assert (played["totals"], played["winner"], played["extra_round"]) == ([2, 202, 5], 0, False)
    again = vectors["game/3-players/extra-round-tied-again"]["expected"]
    assert (again["totals"], again["extra_round"]) == ([2, 209, 2], True)
    assert vectors["game/invalid/round-after-end"]["expected"] == {"error": "round_after_end"}
    assert vectors["game/2-players/hand-rummy"]["expected"]["totals"] == [0, 200]


# ---------------------------------------------------------------- rules.json and the schema


def test_rules_json_holds_the_values_and_the_table_per_player_count(bundle: dict[str, str]) -> None:
    document = json.loads(bundle["rules.json"])
    assert (document["format"], document["version"]) == ("rulesdoc-rules", 1)
    assert document["rules"]["card_values"] == {"joker": 20, "ace": 11, "face": 10}
    assert document["rules"]["never_opened"]["cap_target_fraction"] == 0.5
    assert document["rules"]["examples"][0]["situation"]["hands"][1] == {
        "cards": ["AH", "JK", "5C"],
        "opened": True,
    }
    assert [(row["players"], row["target"], row["never_opened_cap"], row["never_opened_cap_rule"])
            for row in document["player_counts"]] == [
        (2, 100, 50, "capped_target_share"), (3, 200, 100, "capped_fixed"), (4, 300, 100, "capped_fixed"),
        (5, 400, 100, "capped_fixed"), (6, 500, 100, "capped_fixed"),
    ]  # fmt: skip


def test_the_bundles_rules_validate_against_its_schema(
    bundle: dict[str, str], conformance_doc: dict[str, Any]
) -> None:
    schema = json.loads(bundle["rules.schema.json"])
    jsonschema.validate(json.loads(bundle["rules.json"])["rules"], schema)
    jsonschema.validate(conformance_doc["rules"], schema)
    assert (conformance_doc["format"], conformance_doc["version"]) == ("rulesdoc-conformance", 1)


def test_the_same_rules_give_the_same_bytes(bundle: dict[str, str]) -> None:
    assert export.bundle(load_rules(SEED_RULES)) == bundle


rule_values = st.fixed_dictionaries(
    {
        "min": st.integers(2, 8),
        "span": st.integers(0, 6),
        "joker": st.integers(1, 60),
        "ace": st.integers(1, 30),
        "face": st.integers(1, 30),
        "penalty": st.integers(1, 500),
        "surcharge": st.integers(1, 200),
        "cap": st.integers(1, 400),
        "fraction": st.sampled_from(["0.001", "0.1", "0.29", "1/3", "0.5", "0.7", "1"]),
        "per_opponent": st.sampled_from([1, 2, 3, 7, 50, 100, 333, 10**7]),  # 10**7: MAX_VALUE
    }
)


@settings(
    max_examples=settings.default.max_examples // 4,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(rule_values)
def test_any_rules_give_vectors_both_scorers_agree_on(values: dict[str, Any]) -> None:
    """Odd values never break the export: a vector no hand can reach is listed as uncovered."""
    fraction = "0.333" if values["fraction"] == "1/3" else values["fraction"]
    text = f"""players: {{min: {values["min"]}, max: {min(8, values["min"] + values["span"])}}}
card_values: {{joker: {values["joker"]}, ace: {values["ace"]}, face: {values["face"]}}}
melds: {{ace_low: 1}}
hand_rummy: {{penalty: {values["penalty"]}}}
never_opened: {{surcharge: {values["surcharge"]}, cap: {values["cap"]}, cap_target_fraction: {fraction}}}
target: {{per_opponent: {values["per_opponent"]}}}
"""
    # A target share of 0 points with the fewest players: the loader refuses such rules.
    if values["per_opponent"] * (values["min"] - 1) * Fraction(fraction) < 1:
        with pytest.raises(RulesdocError, match="the never-opened cap from the target is 0"):
            parse_rules(text)
        return
    document = json.loads(export.bundle(parse_rules(text))["conformance.json"])
    assert document["vectors"]
    for vector in document["vectors"]:
        assert independent(document["rules"], vector) == vector["expected"], vector["id"]
    planned = {plan.id for plan in vector_plans.planned_vectors(parse_rules(text))}
    assert {v["id"] for v in document["vectors"]} | {u["id"] for u in document["uncovered"]} == planned


# ---------------------------------------------------------------- writing the bundle


def test_write_bundle_replaces_the_folder_as_a_whole(tmp_path: Path, bundle: dict[str, str]) -> None:
    out = tmp_path / "export"
    written = export.write_bundle(bundle, out)
    assert [path.name for path in written] == [
        "rules.json",
        "rules.schema.json",
        "conformance.json",
        "scoring.mjs",
    ]
    assert {p.name: p.read_text("utf-8") for p in out.iterdir()} == bundle
    assert oct(out.stat().st_mode & 0o777) == oct(0o777 & ~current_umask())  # not mkdtemp's 0700
    export.write_bundle({**bundle, "rules.json": "{}\n"}, out)
    assert (out / "rules.json").read_text("utf-8") == "{}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".export.lock", "export"]  # no staging folder left


def test_an_export_waits_for_another_writing_the_same_folder(tmp_path: Path, bundle: dict[str, str]) -> None:
    out = tmp_path / "export"
    other = folders.FolderLock(out)
    other.acquire()  # another run, writing `out`
    writer = threading.Thread(target=export.write_bundle, args=(bundle, out))
    writer.start()
    writer.join(0.5)
    assert writer.is_alive() and not out.exists()
    other.release()
    writer.join(10)
    assert {p.name: p.read_text("utf-8") for p in out.iterdir()} == bundle


def current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_a_folder_with_other_files_is_refused_untouched(tmp_path: Path, bundle: dict[str, str]) -> None:
    (tmp_path / "notes.txt").write_text("mine", "utf-8")
    with pytest.raises(RulesdocError, match="holds 'notes.txt', which is not part of the bundle"):
        export.write_bundle(bundle, tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_a_failed_write_leaves_the_old_bundle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bundle: dict[str, str]
) -> None:
    out = tmp_path / "export"
    export.write_bundle(bundle, out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    real = Path.write_text

    def fail_on_the_third(self: Path, *args: Any, **kwargs: Any) -> int:
        if self.name == "conformance.json":
            raise OSError(28, "No space left on device", str(self))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", fail_on_the_third)
    with pytest.raises(RulesdocError, match="cannot write the bundle: No space left on device"):
        export.write_bundle(bundle, out)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [".export.lock", "export"]  # nothing half-written


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rulesdoc", *args], cwd=cwd, capture_output=True, text=True)


@pytest.mark.slow
def test_export_command_twice_gives_identical_files(tmp_path: Path, bundle: dict[str, str]) -> None:
    first = run("export", "--rules", str(SEED_RULES), "--out", str(tmp_path / "a"), cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines() == [
        "a/rules.json",
        "a/rules.schema.json",
        "a/conformance.json",
        "a/scoring.mjs",
    ]
    assert run("export", "--rules", str(SEED_RULES), "--out", "b", cwd=tmp_path).returncode == 0
    for name in bundle:
        assert (
            (tmp_path / "a" / name).read_bytes()
            == (tmp_path / "b" / name).read_bytes()
            == bundle[name].encode()
        )


@pytest.mark.slow
def test_export_of_bad_rules_is_one_line_and_writes_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "rules.yaml"
    bad.write_text(SEED_RULES.read_text("utf-8").replace("joker: 20", "joker: 0"), "utf-8")
    result = run("export", "--rules", "rules.yaml", "--out", "out", cwd=tmp_path)
    assert result.returncode == 2
    line = SEED_RULES.read_text("utf-8").splitlines().index("  joker: 20") + 1
    assert result.stderr == f"rulesdoc: error: rules.yaml:{line}: card_values.joker must be positive, not 0\n"
    assert not (tmp_path / "out").exists()


def test_the_app_developers_guides_vector_is_a_real_one(vectors: dict[str, dict[str, Any]]) -> None:
    readme = (ROOT / "manual" / "apps.md").read_text("utf-8")
    section = readme[readme.index("## The export bundle") :]
    start = section.index("```json") + len("```json")
    shown = json.loads(section[start : section.index("```", start)])
    real = vectors[shown["id"]]
    for key in ("kind", "input", "expected"):
        assert shown[key] == real[key], key
    assert real["description"].startswith(shown["description"].removesuffix(" ..."))


def test_a_vector_never_deals_a_third_copy_of_a_card() -> None:
    """Found by the property test above: with every card worth 1, the above-cap hand of 392 uses
    both copies of every small card, so a filler seat's 4S would be a third copy. Such a vector
    cannot be dealt: it is listed as uncovered, never exported with an impossible hand."""
    text = """players: {min: 2, max: 5}
card_values: {joker: 1, ace: 1, face: 1}
melds: {ace_low: 1}
hand_rummy: {penalty: 1}
never_opened: {surcharge: 1, cap: 392, cap_target_fraction: 0.001}
target: {per_opponent: 10000000}
"""
    document = json.loads(export.bundle(parse_rules(text))["conformance.json"])
    for vector in document["vectors"]:
        if "/invalid/" in vector["id"]:
            continue  # made to break the two-deck limit on purpose
        for round_ in vector["input"].get("rounds", [vector["input"]]):
            dealt = Counter(card for hand in round_["hands"] for card in hand["cards"])
            assert all(count <= (4 if card == "JK" else 2) for card, count in dealt.items()), vector["id"]
    uncovered = {item["id"] for item in document["uncovered"]}
    assert "round/5-players/never-opened/above-cap" in uncovered
