"""The rule spec loader, the `score` command's input forms, and the `score` CLI.

Every error is checked in its one-line ``path:line: message`` form (``str(error)``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from support import ROOT

from rulesdoc.engine.cards import JOKER, parse_card
from rulesdoc.engine.model import CardValues, Hand, Reason, Round
from rulesdoc.errors import Location, RulesdocError
from rulesdoc.score.reading import RoundStream
from rulesdoc.spec.rules import load_rules, parse_rules

FIXTURES = "tests/fixtures/rules"


def parse_rounds(text: str, path: str) -> tuple[list[tuple[Round, Location]], str]:
    """The score input read whole, as ``rulesdoc score`` reads it one round at a time."""
    stream = RoundStream(text, path)
    return list(stream), stream.form


ROUNDS = "tests/fixtures/rounds"
BASE = (ROOT / FIXTURES / "base.yaml").read_text(encoding="utf-8")
# The values and examples the expected scores are worked out from: rules.yaml as it was.
SEED = f"{FIXTURES}/seed.yaml"


@pytest.fixture(autouse=True)
def in_project_root(monkeypatch: pytest.MonkeyPatch) -> None:
    """Error locations are shown relative to the working directory: run from the project root."""
    monkeypatch.chdir(ROOT)


def cards(codes: str) -> tuple:
    return tuple(parse_card(code) for code in codes.split())


def error_of(call, *args) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(RulesdocError) as info:
        call(*args)
    text = str(info.value)
    assert "\n" not in text
    return text


# ---------------------------------------------------------------- the seed rules


def test_rules_yaml_has_the_spec_values() -> None:
    rules = load_rules(SEED)
    assert rules.players_min == 2
    assert rules.players_max == 6
    assert rules.player_counts == range(2, 7)
    assert rules.card_values == CardValues(joker=20, ace=11, face=10)
    assert rules.ace_low == 1
    assert rules.hand_rummy_penalty == 200
    assert rules.never_opened_surcharge == 25
    assert rules.never_opened_cap == 100
    assert rules.cap_target_fraction == Fraction(1, 2)
    assert isinstance(rules.cap_target_fraction, Fraction)
    assert rules.target_per_opponent == 100
    assert rules.source == SEED


def test_rules_yaml_examples() -> None:
    rules = load_rules(SEED)
    assert [e.id for e in rules.examples] == [
        "ace-joker-five",
        "two-players-never-opened",
        "four-players-one-never-opened",
        "hand-rummy-three-players",
    ]
    assert [e.illustrates for e in rules.examples] == [
        Reason.HAND_VALUE,
        Reason.CAPPED_TARGET_SHARE,
        Reason.CAPPED_FIXED,
        Reason.HAND_RUMMY,
    ]
    assert [e.line for e in rules.examples] == [42, 51, 61, 73]
    first, second, third, fourth = rules.examples
    assert first.title == "An ace, a joker and a five are left"
    # Explanations are generated from the values; notes are the user's own words.
    assert all(example.note is None for example in rules.examples)
    assert first.situation == Round((Hand(()), Hand((parse_card("AH"), JOKER, parse_card("5C")))), 0, False)
    assert second.situation.hands[1] == Hand(cards("KH KS QD JC 9H"), opened=False)
    assert [h.opened for h in third.situation.hands] == [True, True, False, True]
    assert third.situation.hands[3].cards == cards("JK AH")
    assert fourth.situation.hand_rummy is True
    assert fourth.situation.went_out == 0
    assert [h.opened for h in fourth.situation.hands] == [True, False, False]


def test_base_fixture_loads_without_examples() -> None:
    rules = load_rules(f"{FIXTURES}/base.yaml")
    assert rules.examples == ()
    assert rules.source == f"{FIXTURES}/base.yaml"
    assert rules.card_values == CardValues(20, 11, 10)


# ---------------------------------------------------------------- rules errors, from fixture files


@pytest.mark.parametrize(
    ("name", "line", "message"),
    [
        ("unknown_key", 13, "unknown key 'surchage' in never_opened; did you mean 'surcharge'?"),
        ("wrong_type", 5, "card_values.joker must be a whole number, not 'twenty'"),
        ("negative_value", 13, "never_opened.surcharge must be positive, not -5"),
        ("zero_value", 17, "target.per_opponent must be positive, not 0"),
        (
            "fraction_above_one",
            15,
            "never_opened.cap_target_fraction must be above 0 and at most 1, not 1.5",
        ),
        ("min_above_max", 2, "players.min (5) is above players.max (3)"),
        ("duplicate_key", 7, "duplicate key 'ace' in card_values"),
        ("duplicate_example_id", 26, "duplicate example id 'same-id'"),
        (
            "python_tag",
            4,
            "YAML tag 'tag:yaml.org,2002:python/object:rulesdoc.engine.model.CardValues' is not allowed; "
            "rules files take plain data only",
        ),
        ("tab", 6, "YAML syntax error: found character '\\t' that cannot start any token (column 1)"),
        ("list_for_mapping", 5, "card_values must be a mapping of keys to values, not a list"),
        (
            "unknown_card_example",
            28,
            "unknown card '1X': write rank (A 2-10 J Q K) then suit (C D H S), or JK for a joker",
        ),
        (
            "contradicted_example",
            27,
            "example 'claims-fixed-cap' is meant to illustrate 'capped_fixed', but under the current "
            "rules its scores are decided by: capped_target_share, winner",
        ),
    ],
)
def test_bad_rules_file(name: str, line: int, message: str) -> None:
    path = f"{FIXTURES}/{name}.yaml"
    with pytest.raises(RulesdocError) as info:
        load_rules(path)
    assert info.value.location == Location(path, line)
    assert str(info.value) == f"{path}:{line}: {message}"


def test_python_tag_is_never_constructed(tmp_path: Path) -> None:
    marker = tmp_path / "constructed"
    text = BASE.replace("  penalty: 200", f'  penalty: !!python/object/apply:os.system ["touch {marker}"]')
    assert text != BASE
    message = error_of(parse_rules, text, "x.yaml")
    assert message == (
        "x.yaml:11: YAML tag 'tag:yaml.org,2002:python/object/apply:os.system' is not allowed; "
        "rules files take plain data only"
    )
    assert not marker.exists()


def test_impossible_example_without_illustrates_is_refused_at_load() -> None:
    # Every example must be a possible round, whether or not it claims a rule.
    path = f"{FIXTURES}/impossible_example.yaml"
    message = error_of(load_rules, path)
    assert message.startswith(f"{path}:19: example 'three-aces-of-hearts': ")
    assert "3 copies of AH" in message


def test_infinite_fraction_is_refused_with_its_line() -> None:
    path = f"{FIXTURES}/fraction_infinite.yaml"
    message = error_of(load_rules, path)
    assert message.startswith(f"{path}:15: never_opened.cap_target_fraction ")
    assert "'.inf'" in message


@pytest.mark.parametrize("value", [".nan", "-.inf", ".Inf"])
def test_non_finite_fractions_are_refused(value: str) -> None:
    message = error_of(
        parse_rules, edited("  cap_target_fraction: 0.5", f"  cap_target_fraction: {value}"), "x.yaml"
    )
    assert message.startswith("x.yaml:15: never_opened.cap_target_fraction ")
    assert repr(value) in message


def test_explicit_int_tag_with_a_bad_value_is_refused_with_its_line() -> None:
    path = f"{FIXTURES}/explicit_int_tag.yaml"
    message = error_of(load_rules, path)
    assert message.startswith(f"{path}:2: players.min")
    assert "'two'" in message


@pytest.mark.parametrize(
    ("old", "new", "line", "what"),
    [
        ("  joker: 20", "  joker: !!float twenty", 5, "card_values.joker"),
        ("  face: 10", "  face: !!int 1.5", 7, "card_values.face"),
        ("  cap: 100", "  cap: !!bool maybe", 14, "never_opened.cap"),
        (
            "  cap_target_fraction: 0.5",
            "  cap_target_fraction: !!float half",
            15,
            "never_opened.cap_target_fraction",
        ),
    ],
)
def test_explicit_plain_tags_with_bad_values(old: str, new: str, line: int, what: str) -> None:
    message = error_of(parse_rules, edited(old, new), "x.yaml")
    assert message.startswith(f"x.yaml:{line}: {what}")


# ---------------------------------------------------------------- rules errors, inline


def edited(old: str, new: str) -> str:
    assert old in BASE
    return BASE.replace(old, new, 1)


EXAMPLE = """examples:
  - id: {id}
    title: A title
    illustrates: {illustrates}
    situation:
      went_out: 0
      hands:
        - cards: []
        - cards: [5C]
          opened: {opened}
"""


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("", "x.yaml: the rules file is empty", id="empty"),
        pytest.param("# only a comment\n", "x.yaml: the rules file is empty", id="comment-only"),
        pytest.param(
            BASE.replace("target:\n  per_opponent: 100\n", ""),
            "x.yaml:1: the rules is missing the key 'target'",
            id="missing-section",
        ),
        pytest.param(
            edited("  face: 10\n", ""),
            "x.yaml:5: card_values is missing the key 'face'",
            id="missing-key",
        ),
        pytest.param(
            BASE + "colour: red\n",
            "x.yaml:18: unknown key 'colour' in the rules; expected one of: players, card_values, "
            "melds, hand_rummy, never_opened, target, examples",
            id="unknown-key-no-suggestion",
        ),
        pytest.param(
            edited("card_values:", "card_value:"),
            "x.yaml:4: unknown key 'card_value' in the rules; did you mean 'card_values'?",
            id="unknown-section-suggestion",
        ),
        pytest.param(
            edited("  joker: 20", "  joker: 20.5"),
            "x.yaml:5: card_values.joker must be a whole number, not '20.5'",
            id="float-for-integer",
        ),
        pytest.param(
            edited("  joker: 20", "  joker: true"),
            "x.yaml:5: card_values.joker must be a whole number, not 'true'",
            id="bool-for-integer",
        ),
        pytest.param(
            edited("  joker: 20", "  joker: [20]"),
            "x.yaml:5: card_values.joker must be a single value, not a list",
            id="list-for-value",
        ),
        pytest.param(
            edited("  ace_low: 1", "  ace_low: 0"),
            "x.yaml:9: melds.ace_low must be positive, not 0",
            id="zero-ace-low",
        ),
        pytest.param(
            edited("  penalty: 200", "  penalty: -200"),
            "x.yaml:11: hand_rummy.penalty must be positive, not -200",
            id="negative-penalty",
        ),
        pytest.param(
            edited("  cap: 100", "  cap: 0"),
            "x.yaml:14: never_opened.cap must be positive, not 0",
            id="zero-cap",
        ),
        pytest.param(
            edited("  min: 2", "  min: 1"),
            "x.yaml:2: players.min must be at least 2, not 1",
            id="one-player",
        ),
        pytest.param(
            edited("  max: 6", "  max: 9"),
            "x.yaml:3: players.max is 9; two decks deal at most 8",
            id="too-many-players",
        ),
        pytest.param(
            edited("  cap_target_fraction: 0.5", "  cap_target_fraction: 0"),
            "x.yaml:15: never_opened.cap_target_fraction must be above 0 and at most 1, not 0",
            id="zero-fraction",
        ),
        pytest.param(
            edited("  cap_target_fraction: 0.5", "  cap_target_fraction: -0.5"),
            "x.yaml:15: never_opened.cap_target_fraction must be above 0 and at most 1, not -0.5",
            id="negative-fraction",
        ),
        pytest.param(
            edited("  cap_target_fraction: 0.5", "  cap_target_fraction: half"),
            "x.yaml:15: never_opened.cap_target_fraction must be a number, not 'half'",
            id="text-fraction",
        ),
        pytest.param(
            edited("players:\n", "players: [2, 6]\n").replace("  min: 2\n  max: 6\n", ""),
            "x.yaml:1: players must be a mapping of keys to values, not a list",
            id="list-for-players",
        ),
        pytest.param(
            "- players\n- card_values\n",
            "x.yaml:1: the rules must be a mapping of keys to values, not a list",
            id="top-level-list",
        ),
        pytest.param(
            edited("  ace: 11", "  ace: [11"),
            # the unclosed list runs on into line 7, where the parser gives up
            "x.yaml:7: YAML syntax error: expected ',' or ']' (column 7); parsing a flow sequence that began on line 6",
            id="syntax-error",
        ),
        pytest.param(
            BASE + EXAMPLE.format(id="Bad_Id", illustrates="hand_value", opened="true"),
            "x.yaml:19: example id 'Bad_Id' must be lowercase words joined by '-'",
            id="bad-example-id",
        ),
        pytest.param(
            BASE + EXAMPLE.format(id="fine", illustrates="hand-value", opened="true"),
            "x.yaml:21: unknown rule 'hand-value'; did you mean 'hand_value'?",
            id="unknown-illustrates",
        ),
        pytest.param(
            BASE + EXAMPLE.format(id="fine", illustrates="hand_value", opened="maybe"),
            "x.yaml:27: opened must be true or false, not 'maybe'",
            id="bad-opened",
        ),
        pytest.param(
            BASE
            + EXAMPLE.format(id="fine", illustrates="hand_value", opened="true").replace(
                "went_out: 0", "went_out: 2"
            ),
            "x.yaml:23: went_out is seat 2, but seats run from 0 to 1",
            id="example-went-out-past-the-table",
        ),
        pytest.param(
            BASE
            + EXAMPLE.format(id="fine", illustrates="hand_value", opened="true").replace(
                "    title: A title\n", ""
            ),
            "x.yaml:19: examples[0] is missing the key 'title'",
            id="example-without-title",
        ),
    ],
)
def test_bad_rules_text(text: str, expected: str) -> None:
    assert error_of(parse_rules, text, "x.yaml") == expected


def test_fraction_of_one_and_integer_fraction() -> None:
    rules = parse_rules(edited("  cap_target_fraction: 0.5", "  cap_target_fraction: 1"), "x.yaml")
    assert rules.cap_target_fraction == Fraction(1)
    rules = parse_rules(edited("  cap_target_fraction: 0.5", "  cap_target_fraction: 0.3"), "x.yaml")
    assert rules.cap_target_fraction == Fraction(3, 10)  # exact, not the binary float


def test_load_rules_checks_that_examples_score(tmp_path: Path) -> None:
    text = BASE + EXAMPLE.format(id="winner-holds", illustrates="hand_value", opened="true").replace(
        "        - cards: []\n", "        - cards: [2C]\n"
    )
    path = tmp_path / "rules.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesdocError) as info:
        load_rules(path)
    assert info.value.location is not None and info.value.location.line == 19
    assert info.value.message == "example 'winner-holds': seat 0 went out but still holds cards"


def test_missing_rules_file() -> None:
    assert error_of(load_rules, f"{FIXTURES}/nope.yaml") == f"{FIXTURES}/nope.yaml: file not found"


def test_rules_folder_is_not_a_file() -> None:
    assert error_of(load_rules, FIXTURES) == f"{FIXTURES}: is a directory, not a file"


# ---------------------------------------------------------------- score input: parse_rounds


def test_one_round() -> None:
    rounds, form = parse_rounds((ROOT / ROUNDS / "one_round.yaml").read_text(), "one.yaml")
    assert form == "round"
    assert len(rounds) == 1
    situation, where = rounds[0]
    assert where == Location("one.yaml", 2)  # line 1 is a comment
    assert situation == Round((Hand(()), Hand(cards("AH JK 5C"))), 0, False)


def test_list_of_rounds() -> None:
    rounds, form = parse_rounds((ROOT / ROUNDS / "list.yaml").read_text(), "list.yaml")
    assert form == "list"
    assert [where.line for _, where in rounds] == [1, 8]
    first, second = (situation for situation, _ in rounds)
    assert first.players == 4 and first.went_out == 0
    assert second.went_out is None  # blocked: went_out left out
    assert [h.opened for h in second.hands] == [True, False, False]


def test_game() -> None:
    rounds, form = parse_rounds((ROOT / ROUNDS / "game.yaml").read_text(), "game.yaml")
    assert form == "game"
    assert [where.line for _, where in rounds] == [2, 6, 11]
    assert [situation.went_out for situation, _ in rounds] == [0, 1, 0]


def test_json_forms() -> None:
    one, form = parse_rounds('{"went_out": 1, "hands": [{"cards": ["10s"]}, {"cards": []}]}', "in.json")
    assert form == "round"
    assert one[0][0] == Round((Hand(cards("10S")), Hand(())), 1, False)
    many, form = parse_rounds(
        '[{"hands": [{"cards": ["2C"]}, {"cards": ["3C"]}], "went_out": null}]', "in.json"
    )
    assert form == "list"
    assert many[0][0].went_out is None
    game, form = parse_rounds((ROOT / ROUNDS / "game.json").read_text(), "game.json")
    assert form == "game"
    assert len(game) == 2


def test_round_defaults() -> None:
    rounds, _ = parse_rounds("hands:\n  - cards: [2C]\n  - cards: [3C]\n", "in.yaml")
    situation = rounds[0][0]
    assert situation.went_out is None
    assert situation.hand_rummy is False
    assert all(h.opened for h in situation.hands)
    rounds, _ = parse_rounds(
        "went_out: 0\nhand_rummy: true\nhands:\n  - cards: []\n  - cards: [3C]\n    opened: false\n",
        "in.yaml",
    )
    assert rounds[0][0].hand_rummy is True
    assert rounds[0][0].hands[1].opened is False


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("", "in.yaml: no round in the input", id="empty"),
        pytest.param("[]\n", "in.yaml:1: no round in the input", id="empty-list"),
        pytest.param("rounds: []\n", "in.yaml:1: no round in the input", id="empty-game"),
        pytest.param(
            "went_out: 0\nhands:\n  - cards: []\n  - cards: [AH, ZZ]\n",
            "in.yaml:4: unknown card 'ZZ': write rank (A 2-10 J Q K) then suit (C D H S), or JK for a joker",
            id="unknown-card",
        ),
        pytest.param(
            "went_out: 0\nhands:\n  - cards: []\n  - cards:\n      - 5C\n      - 11H\n",
            "in.yaml:6: unknown card '11H': write rank (A 2-10 J Q K) then suit (C D H S), or JK for a joker",
            id="unknown-card-own-line",
        ),
        pytest.param(
            "went_out: 3\nhands:\n  - cards: []\n  - cards: [5C]\n",
            "in.yaml:1: went_out is seat 3, but seats run from 0 to 1",
            id="went-out-past-the-table",
        ),
        pytest.param(
            "hands:\n  - cards: [2C]\n  - cards: [5C]\nwent_out: -1\n",
            "in.yaml:4: went_out must be at least 0, not -1",
            id="went-out-negative",
        ),
        pytest.param(
            "wentout: 0\nhands:\n  - cards: []\n  - cards: [5C]\n",
            "in.yaml:1: unknown key 'wentout' in round 1; did you mean 'went_out'?",
            id="unknown-key",
        ),
        pytest.param(
            "went_out: 0\n",
            "in.yaml:1: round 1 is missing the key 'hands'",
            id="no-hands",
        ),
        pytest.param(
            "- went_out: 0\n  hands:\n    - cards: []\n    - cards: [5C]\n- 42\n",
            "in.yaml:5: round 2 must be a mapping of keys to values, not a single value",
            id="scalar-round",
        ),
        pytest.param(
            "rounds:\n  - hands: [{cards: [2C]}, {cards: [3C]}]\nextra: 1\n",
            "in.yaml:3: unknown key 'extra' in the game; expected one of: rounds",
            id="game-extra-key",
        ),
        pytest.param(
            "went_out: 0\nhands:\n  - cards: []\n  - cards: 5C\n",
            "in.yaml:4: cards of seat 1 must be a list",
            id="cards-not-a-list",
        ),
        pytest.param(
            "went_out: 0\nhands:\n  - cards: []\n  - cards: [5C]\n    opened: no way\n",
            "in.yaml:5: opened must be true or false, not 'no way'",
            id="bad-opened",
        ),
        pytest.param(
            "went_out: !!python/object/apply:os.getcwd []\nhands:\n  - cards: []\n  - cards: [5C]\n",
            "in.yaml:1: YAML tag 'tag:yaml.org,2002:python/object/apply:os.getcwd' is not allowed; "
            "rules files take plain data only",
            id="python-tag",
        ),
    ],
)
def test_bad_score_input(text: str, expected: str) -> None:
    assert error_of(parse_rounds, text, "in.yaml") == expected


# ---------------------------------------------------------------- the score command


def run_score(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rulesdoc", "score", "--rules", SEED, *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def assert_one_line_error(process: subprocess.CompletedProcess[str], expected: str) -> None:
    assert process.returncode == 2
    assert process.stdout == ""
    assert "Traceback" not in process.stderr
    assert process.stderr.count("\n") == 1
    assert process.stderr == f"rulesdoc: error: {expected}\n"


@pytest.mark.slow
def test_cli_one_round() -> None:
    process = run_score(f"{ROUNDS}/one_round.yaml")
    assert process.returncode == 0, process.stderr
    output = json.loads(process.stdout)
    # ah jk 5c = 11 + 20 + 5 = 36
    assert output == {"scores": [0, 36], "winners": [0], "target": 100, "reasons": ["winner", "hand_value"]}


@pytest.mark.slow
def test_cli_list_of_rounds() -> None:
    process = run_score(f"{ROUNDS}/list.yaml")
    assert process.returncode == 0, process.stderr
    first, second = json.loads(process.stdout)
    # the four-player worked example: 0, 7, 100, 31; target 100 x 3
    assert first["scores"] == [0, 7, 100, 31]
    assert first["winners"] == [0]
    assert first["target"] == 300
    # blocked: 2C 3C = 5 and 5D = 5 (never opened) tie and win; KH JK = 30 + 25 = 55 <= 100
    assert second == {
        "scores": [0, 0, 55],
        "winners": [0, 1],
        "target": 200,
        "reasons": ["blocked_winner", "blocked_winner", "never_opened"],
    }


@pytest.mark.slow
def test_cli_game() -> None:
    process = run_score(f"{ROUNDS}/game.yaml")
    assert process.returncode == 0, process.stderr
    output = json.loads(process.stdout)
    assert set(output) >= {"rounds", "totals", "target", "finished", "winner", "extra_round"}
    # [0, 36]; [49 + 25 = 74 -> 50, 0]; [0, JK JK JK 4D = 64] -> totals [50, 100], 100 >= 100
    assert [r["scores"] for r in output["rounds"]] == [[0, 36], [50, 0], [0, 64]]
    assert [r["target"] for r in output["rounds"]] == [100, 100, 100]
    assert output["totals"] == [50, 100]
    assert output["target"] == 100
    assert output["finished"] is True
    assert output["winner"] == 0
    assert output["extra_round"] is False


@pytest.mark.slow
def test_cli_game_from_stdin_json() -> None:
    process = run_score("-", stdin=(ROOT / ROUNDS / "game.json").read_text())
    assert process.returncode == 0, process.stderr
    output = json.loads(process.stdout)
    # [0, 36]; blocked 2C = 2 vs 2D = 2: both win -> totals [0, 36], below 100
    assert output["totals"] == [0, 36]
    assert output["rounds"][1]["winners"] == [0, 1]
    assert (output["finished"], output["winner"], output["extra_round"]) == (False, None, False)


@pytest.mark.slow
def test_cli_reads_stdin_by_default() -> None:
    process = run_score(stdin="{went_out: 1, hands: [{cards: [QH, QS], opened: false}, {cards: []}]}")
    assert process.returncode == 0, process.stderr
    # QH QS = 20 + 25 = 45 <= 50
    assert json.loads(process.stdout)["scores"] == [45, 0]


@pytest.mark.slow
def test_cli_unknown_card() -> None:
    assert_one_line_error(
        run_score(f"{ROUNDS}/bad_card.yaml"),
        f"{ROUNDS}/bad_card.yaml:4: unknown card 'ZZ': write rank (A 2-10 J Q K) then suit (C D H S), "
        "or JK for a joker",
    )


@pytest.mark.slow
def test_cli_impossible_round_names_its_line() -> None:
    assert_one_line_error(
        run_score(f"{ROUNDS}/winner_holds_cards.yaml"),
        f"{ROUNDS}/winner_holds_cards.yaml:5: seat 1 went out but still holds cards",
    )


@pytest.mark.slow
def test_cli_round_after_the_game_ended() -> None:
    assert_one_line_error(
        run_score(f"{ROUNDS}/after_end.yaml"),
        f"{ROUNDS}/after_end.yaml:15: round 4 comes after the game ended (round 3)",  # the 4th round
    )


@pytest.mark.slow
def test_cli_missing_file() -> None:
    assert_one_line_error(run_score(f"{ROUNDS}/nope.yaml"), f"{ROUNDS}/nope.yaml: file not found")


@pytest.mark.slow
def test_cli_syntax_error_on_stdin() -> None:
    process = run_score("-", stdin="went_out: 0\nhands: [\n")
    assert process.returncode == 2
    assert "Traceback" not in process.stderr
    assert process.stderr.count("\n") == 1
    assert process.stderr.startswith("rulesdoc: error: <stdin>:")
    assert "YAML syntax error" in process.stderr


@pytest.mark.slow
def test_cli_bad_rules_file() -> None:
    path = f"{FIXTURES}/contradicted_example.yaml"
    process = run_score("--rules", path, f"{ROUNDS}/one_round.yaml")
    assert_one_line_error(
        process,
        f"{path}:27: example 'claims-fixed-cap' is meant to illustrate 'capped_fixed', but under the "
        "current rules its scores are decided by: capped_target_share, winner",
    )


@pytest.mark.slow
def test_cli_explicit_int_tag_with_a_bad_value() -> None:
    path = f"{ROUNDS}/explicit_int_tag.yaml"
    process = run_score(path)
    assert process.returncode == 2
    assert "Traceback" not in process.stderr
    assert process.stderr.startswith(f"rulesdoc: error: {path}:1: ")
