"""The command line as a Unix tool: where its output goes, how it ends, how much it holds.

`score` streams: any number of rounds in bounded memory, each round's result written once
known, in the bytes the whole JSON document would have had. Standard output that cannot be
written is a one-line error (exit 2); a reader that has gone is a quiet end (exit 141, as a
shell shows a tool killed by SIGPIPE). Inputs are bounded in size, standard input too.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po
from support import PUBLISHED, ROOT, SEED_RULES, copy_project

from rulesdoc.engine import scoring as engine
from rulesdoc.errors import RulesdocError
from rulesdoc.export.conformance import conformance
from rulesdoc.io import files, yamlload
from rulesdoc.io.yamlload import Source, compose
from rulesdoc.score import reading, writing
from rulesdoc.score.reading import RoundStream
from rulesdoc.score.table import round_lines
from rulesdoc.spec.rules import load_rules

RULES = load_rules(SEED_RULES)  # the values the expected scores are worked out from
ROUND = "{went_out: 0, hands: [{cards: []}, {cards: [AH, JK, 5C]}]}"
# Six seats: the most rounds allowed (reading.MAX_ROUNDS) of it print more than is held back.
WIDE_ROUND = (
    "{went_out: 0, hands: [{cards: []}, {cards: [AH, JK, 5C]}, {cards: [AH]}, {cards: [KH]}, "
    "{cards: [2C]}, {cards: [3C]}]}"
)


def rulesdoc(
    *args: str, stdin: str | bytes | None = None, env: dict[str, str] | None = None, cwd: Path = ROOT
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "rulesdoc", *args],
        cwd=cwd, input=stdin.encode() if isinstance(stdin, str) else stdin, capture_output=True,
        env=env, timeout=300,
    )  # fmt: skip


def buffered_env(buffered: bool) -> dict[str, str]:
    """Standard output block-buffered (a failure shows at a flush) or not (at each write)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    return env if buffered else {**env, "PYTHONUNBUFFERED": "1"}


def many_rounds(count: int, round_text: str = ROUND) -> str:
    return "".join(f"- {round_text}\n" for _ in range(count))


# ---------------------------------------------------------------- the same bytes, streamed


def whole_document(text: str) -> str:
    """What `score` printed when it read everything first: json.dumps of the whole result."""
    stream = RoundStream(text, "in.yaml")
    rounds, form = list(stream), stream.form
    situations = tuple(situation for situation, _ in rounds)
    if form == "game":
        game = engine.score_game(RULES, situations)
        document: object = {
            "rounds": [writing.round_json(r) for r in game.rounds],
            "totals": list(game.totals),
            "target": game.target,
            "finished": game.finished,
            "winner": game.winner,
            "extra_round": game.extra_round,
        }
    else:
        results = [writing.round_json(engine.score_round(RULES, s)) for s in situations]
        document = results[0] if form == "round" else results
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def streamed(text: str, as_text: bool = False) -> str:
    out = io.StringIO()
    writing.score(RULES, RoundStream(text, "in.yaml"), as_text, out.write)
    return out.getvalue()


def vector_inputs() -> list[str]:
    vectors = [v for v in conformance(RULES)["vectors"] if "error" not in v["expected"]]
    rounds = [v["input"] for v in vectors if v["kind"] == "round"]
    games = [v["input"] for v in vectors if v["kind"] == "game"]
    return [json.dumps(x) for x in [*rounds, *games, rounds[:1], rounds[:2], rounds[:9]]]


def test_streamed_json_is_the_whole_documents_bytes() -> None:
    # One test over every input, not one per input: parametrizing would build the conformance
    # vectors at collection, for every run of the suite, selected or not.
    for text in vector_inputs():
        assert streamed(text) == whole_document(text), text


def test_streamed_text_tables() -> None:
    lines = "\n".join(round_lines(*next(iter(score_all(ROUND)))))
    # One round, and a list of one round: the table alone.
    assert streamed(ROUND, as_text=True) == lines + "\n"
    assert streamed(f"[{ROUND}]", as_text=True) == lines + "\n"
    # A list of several: each under its number, an empty line between them.
    assert streamed(f"[{ROUND}, {ROUND}]", as_text=True) == f"Round 1\n{lines}\n\nRound 2\n{lines}\n"
    game = streamed(f"{{rounds: [{ROUND}, {ROUND}]}}", as_text=True)
    assert game == (
        f"Round 1\n{lines}\n\nRound 2\n{lines}\n\n"
        "Totals: seat 0 0, seat 1 72 (target 100)\nNo total has reached the target of 100: the game goes on.\n"
    )


def score_all(text: str) -> list[tuple[object, engine.RoundResult]]:
    return [
        (situation, engine.score_round(RULES, situation)) for situation, _ in RoundStream(text, "in.yaml")
    ]


def test_a_game_keeps_only_running_totals() -> None:
    # Blocked rounds of equal hands: both seats win, score 0, and the game goes on for ever.
    tie = "{hands: [{cards: [2C]}, {cards: [2D]}]}"
    text = f"{{rounds: [{', '.join([tie] * 50)}]}}"
    assert streamed(text) == whole_document(text)
    assert json.loads(streamed(text))["totals"] == [0, 0]


# ---------------------------------------------------------------- bounded memory


PEAK_RSS_BOUND_MB = 150  # 100k rounds read whole took 1.1 GB; streamed, about 50 MB


def peak_rss_mb(args: list[str], stdin: Path | None, stdout: Path) -> tuple[int, float]:
    """Exit status and peak RSS of one `rulesdoc` run, measured by a small launcher of its own
    (RUSAGE_CHILDREN is the peak over every child a process ever had: pytest's would mix them)."""
    launcher = (
        "import resource, subprocess, sys\n"
        "with open(sys.argv[1], 'rb') as source, open(sys.argv[2], 'wb') as out:\n"
        "    status = subprocess.run(sys.argv[3:], stdin=source, stdout=out).returncode\n"
        "print(status, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"  # kB on Linux
    )
    done = subprocess.run(
        [sys.executable, "-c", launcher, str(stdin or os.devnull), str(stdout),
         sys.executable, "-m", "rulesdoc", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    status, kilobytes = done.stdout.split()
    return int(status), int(kilobytes) / 1024


@pytest.mark.slow
def test_most_rounds_allowed_in_bounded_memory(tmp_path: Path) -> None:
    count = reading.MAX_ROUNDS
    hands = ["[AH, JK, 5C]", "[10D, QS]", "[2C, 3C, 4C, KH]"]
    source, out = tmp_path / "rounds.yaml", tmp_path / "scores.json"
    source.write_text(
        "".join(
            f"- went_out: 0\n  hands:\n    - cards: []\n    - cards: {hands[i % 3]}\n"
            f"      opened: {'false' if i % 2 else 'true'}\n"
            for i in range(count)
        ),
        "utf-8",
    )
    status, peak = peak_rss_mb(["score", "--rules", str(SEED_RULES), str(source)], None, out)
    assert status == 0
    print(f"score, {count} rounds: peak RSS {peak:.0f} MB")
    assert peak < PEAK_RSS_BOUND_MB
    rounds = json.loads(out.read_text("utf-8"))
    assert len(rounds) == count
    assert [r["scores"] for r in rounds[:4]] == [[0, 36], [0, 45], [0, 19], [0, 50]]  # 61 capped at 50
    assert rounds[-1] == rounds[(count - 1) % 6]  # hands and opened repeat every six rounds


@pytest.mark.slow
def test_an_error_past_the_held_output_follows_the_rounds_written() -> None:
    """Small inputs are all or nothing; past HOLD_CHARS of output, rounds go out as they come."""
    count = reading.MAX_ROUNDS - 1  # more than is held back
    assert count * len(streamed(WIDE_ROUND)) > writing.HOLD_CHARS
    text = many_rounds(count, WIDE_ROUND) + "- {went_out: 0, hands: [{cards: [KH]}, {cards: [2C]}]}\n"
    done = rulesdoc("score", "-", stdin=text)
    assert done.returncode == 2
    assert (
        done.stderr.decode()
        == f"rulesdoc: error: <stdin>:{count + 1}: seat 0 went out but still holds cards\n"
    )
    printed = done.stdout.decode()
    assert printed.startswith("[\n  {") and not printed.rstrip().endswith("]")  # no reader takes it whole
    assert printed.count('"scores"') == count  # every round before the error, whole


def test_held_output() -> None:
    written: list[str] = []
    held = writing.HeldOutput(written.append, hold=10)
    held.write("12345")
    assert written == []
    held.write("678901")  # past the bound: what is held goes out, the rest as it comes
    held.write("x")
    assert written == ["12345678901", "x"]
    dropped = writing.HeldOutput(written.append, hold=10)
    dropped.write("never")  # an error before release: nothing of it is written
    assert written == ["12345678901", "x"]


# ---------------------------------------------------------------- input bounds


@pytest.mark.slow
def test_standard_input_is_read_up_to_the_bound() -> None:
    too_much = b"#" * (files.MAX_SCORE_INPUT_BYTES + 1)
    done = rulesdoc("score", "-", stdin=too_much)
    assert done.returncode == 2
    assert done.stderr.decode() == (
        f"rulesdoc: error: <stdin>: input is over the limit of {files.MAX_SCORE_INPUT_BYTES:,} bytes; "
        "give fewer rounds\n"
    )


@pytest.mark.slow
def test_an_input_file_over_the_bound_is_refused_unread(tmp_path: Path) -> None:
    big = tmp_path / "rounds.yaml"
    with big.open("wb") as handle:  # sparse: nothing of it is ever read
        handle.truncate(files.MAX_SCORE_INPUT_BYTES + 1)
    done = rulesdoc("score", str(big))
    assert done.returncode == 2
    assert done.stderr.decode().endswith(
        f"rounds.yaml: input is {files.MAX_SCORE_INPUT_BYTES + 1:,} bytes; "
        f"the limit is {files.MAX_SCORE_INPUT_BYTES:,}\n"
    )


@pytest.mark.slow
def test_an_input_file_above_the_rules_bound_is_scored(tmp_path: Path) -> None:
    """Rounds files are bounded by MAX_SCORE_INPUT_BYTES, not by the rules file's 1 MiB."""
    source = tmp_path / "rounds.yaml"
    source.write_text("#" * files.MAX_RULES_BYTES + "\n" + ROUND + "\n", "utf-8")
    done = rulesdoc("score", "--rules", str(SEED_RULES), str(source))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["scores"] == [0, 36]


def test_rounds_are_counted_even_when_aliases_repeat_one(tmp_path: Path) -> None:
    """Bytes do not bound the work alone: `- *r` repeats a round in 5 bytes (issue 32, item 9)."""
    source = tmp_path / "rounds.yaml"
    over = reading.MAX_ROUNDS + 1
    source.write_text(f"- &r {ROUND}\n" + "- *r\n" * (over - 1), "utf-8")
    done = rulesdoc("score", "--rules", str(SEED_RULES), str(source))
    assert done.returncode == 2
    assert done.stdout == b""  # nothing of the rounds before it
    assert done.stderr.decode() == (
        f"rulesdoc: error: {source}:1: round {over:,}: at most {reading.MAX_ROUNDS:,} rounds in one "
        "input; score them in parts\n"
    )


def test_the_last_round_allowed_is_scored() -> None:
    stream = RoundStream(f"- &r {ROUND}\n" + "- *r\n" * (reading.MAX_ROUNDS - 1), "rounds.yaml")
    assert sum(1 for _ in stream) == reading.MAX_ROUNDS


@pytest.mark.slow
def test_standard_input_not_utf8_names_its_line() -> None:
    done = rulesdoc("score", "-", stdin=b"went_out: 0\nhands:\n  - cards: [\xe9]\n")
    assert done.returncode == 2
    assert done.stderr.decode() == (
        "rulesdoc: error: <stdin>:3: not UTF-8 text (invalid continuation byte: byte 0xe9)\n"
    )


@pytest.mark.slow
def test_standard_input_closed() -> None:
    done = subprocess.run(
        ["sh", "-c", 'exec "$0" "$@" <&-', sys.executable, "-m", "rulesdoc", "score", "-"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        "rulesdoc: error: <stdin>: standard input is closed; give a file, or pipe the rounds in\n"
    )


@pytest.mark.parametrize(
    "text",
    [
        "- {went_out: 0, hands: [{cards: []}, {cards: [AH]}]}\n- {went_out: 0, hands: [\n",
        "hands:\n\t- cards: []\n",
        "- {went_out: 0, hands: [{cards: []}, {cards: [AH]}]}\n- {went_out: 0 hands: []}: x\n",
        "rounds:\n  - {went_out: 0, hands: [{cards: []}, {cards: [AH]}]}\n  - &a {hands: [*b]}\n",
    ],
    ids=["unclosed", "tab", "mapping-value", "undefined-alias"],
)
def test_libyaml_syntax_errors_keep_pyyamls_words(text: str) -> None:
    """The stream parses with LibYAML; its errors read as rules.yaml's do (PyYAML's own words)."""
    with pytest.raises(RulesdocError) as whole:
        compose(text, Source("in.yaml"))
    with pytest.raises(RulesdocError) as stream:
        list(RoundStream(text, "in.yaml"))
    assert str(stream.value) == str(whole.value)


def test_libyaml_errors_are_translated_not_parsed_again() -> None:
    """Every YAML file is read by LibYAML; its errors are translated, never re-read by PyYAML's parser.

    (PyYAML's parser on the error path was what made a 200 kB input of nested brackets take a minute.)
    """
    if not yamlload.LIBYAML:
        pytest.skip("PyYAML without LibYAML")
    assert isinstance(yamlload.loader("hands: [\n"), yamlload.FastLoader)
    with pytest.raises(RulesdocError) as raised:
        compose("hands: [\n", Source("in.yaml"))
    assert str(raised.value) == "in.yaml:2: YAML syntax error: expected node content (column 1)"


def test_deep_brackets_are_refused_in_a_second() -> None:
    """'[' * 100 000: LibYAML's events, the composer's bound at 32 levels; quadratic time nowhere."""
    text = "[" * 100_000 + "]" * 100_000
    for read in (lambda: compose(text, Source("in.yaml")), lambda: list(RoundStream(text, "in.yaml"))):
        started = time.monotonic()
        with pytest.raises(RulesdocError, match="nested more than 32 levels deep"):
            read()
        assert time.monotonic() - started < 2


# ---------------------------------------------------------------- standard output


@pytest.mark.slow
@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("rounds", [1, reading.MAX_ROUNDS], ids=["one-round", "most_rounds"])
def test_stdout_on_a_full_disk_is_one_line(tmp_path: Path, buffered: bool, rounds: int) -> None:
    """ENOSPC at a write or at the last flush: the error, never a traceback or exit 0."""
    source = tmp_path / "rounds.yaml"
    source.write_text(many_rounds(rounds, WIDE_ROUND), "utf-8")
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [sys.executable, "-m", "rulesdoc", "score", str(source)], cwd=ROOT, stdout=full,
            stderr=subprocess.PIPE, text=True, env=buffered_env(buffered), timeout=120,
        )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr == "rulesdoc: error: <stdout>: cannot write: No space left on device\n"


@pytest.mark.slow
@pytest.mark.parametrize("command", [["--version"], ["--help"], ["score", "--help"]])
def test_help_on_a_full_disk_is_not_lost_silently(command: list[str]) -> None:
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [sys.executable, "-m", "rulesdoc", *command], cwd=ROOT, stdout=full, stderr=subprocess.PIPE,
            text=True, env=buffered_env(True), timeout=60,
        )  # fmt: skip
    assert (done.returncode, done.stderr) == (
        2,
        "rulesdoc: error: <stdout>: cannot write: No space left on device\n",
    )


@pytest.mark.slow
def test_stdout_closed_is_refused_before_any_work(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    done = subprocess.run(
        ["sh", "-c", 'exec "$0" "$@" >&-', sys.executable, "-m", "rulesdoc", "render", "--out", "pages"],
        cwd=project, stderr=subprocess.PIPE, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr == (
        "rulesdoc: error: <stdout>: standard output is closed; nothing was done (send it to /dev/null)\n"
    )
    assert not (project / "pages").exists()


@pytest.mark.slow
@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
def test_score_into_head_ends_quietly_with_141(tmp_path: Path, buffered: bool) -> None:
    """`rulesdoc score big.yaml | head -1`: head has its line and goes; score stops, no word said."""
    source = tmp_path / "big.yaml"
    source.write_text(many_rounds(reading.MAX_ROUNDS, WIDE_ROUND), "utf-8")  # more than is held or piped
    assert len(streamed(many_rounds(reading.MAX_ROUNDS, WIDE_ROUND))) > writing.HOLD_CHARS
    done = subprocess.run(
        ["bash", "-c", 'set -o pipefail; "$@" | head -1', "bash",
         sys.executable, "-m", "rulesdoc", "score", str(source)],
        cwd=ROOT, capture_output=True, text=True, env=buffered_env(buffered), timeout=120,
    )  # fmt: skip
    assert (done.returncode, done.stdout, done.stderr) == (141, "[\n", "")


@pytest.mark.slow
def test_check_into_a_gone_reader_ends_quietly() -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader has gone before the report is written
    try:
        done = subprocess.run(
            [sys.executable, "-m", "rulesdoc", "check", "--lang", "da"], cwd=ROOT, stdout=write_end,
            stderr=subprocess.PIPE, text=True, timeout=300,
        )  # fmt: skip
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (141, "")


# ---------------------------------------------------------------- a percent sign is text


@pytest.mark.slow
def test_a_percent_sign_in_a_title_renders_in_every_language(tmp_path: Path) -> None:
    """rules.yaml's texts are never %-formatted: "50% off" is a title, in English and translated."""
    project = copy_project(tmp_path / "project")
    rules = project / "rules.yaml"
    old_title = "An ace, a joker and a five are left"
    title = "50% off: an ace and a five"  # no glossary concept: render (strict) refuses what check does
    rules.write_text(rules.read_text("utf-8").replace(f"title: {old_title}", f'title: "{title}"'), "utf-8")
    for step in (["catalog", "extract"], ["catalog", "update"]):
        done = rulesdoc("--root", str(project), *step, cwd=project)
        assert done.returncode == 0, done.stderr
    translated = {}
    for code in PUBLISHED[1:]:  # each language's own words, a lone % in them
        path = project / "locales" / code / "LC_MESSAGES" / "messages.po"
        with path.open("rb") as handle:
            catalog = read_po(handle)
        entry = catalog[title]
        assert entry is not None and "no-python-format" in entry.flags, code
        entry.string = translated[code] = (
            f"{code}: 50 % off, 50 %"  # a lone %, and no number the source lacks
        )
        entry.flags.discard("fuzzy")
        entry.previous_id = []
        with path.open("wb") as handle:
            write_po(handle, catalog)
    done = rulesdoc("--root", str(project), "render", "--out", str(tmp_path / "pages"), cwd=project)
    assert done.returncode == 0, done.stderr  # strict: nothing missing, nothing refused
    for code in PUBLISHED:
        page = (tmp_path / "pages" / code / "scoring.md").read_text("utf-8")
        shown = re.escape(title if code == "en" else translated[code])
        assert re.search(rf"\*\*{shown}\*\*", page), code


# ---------------------------------------------------------------- --root before or after the command


@pytest.mark.parametrize(
    "argv",
    [
        ["--root", "ROOT", "check"],
        ["check", "--root", "ROOT"],  # a pre-commit hook's args come after its entry
        ["--root", "elsewhere", "check", "--root", "ROOT"],  # after the command wins
        ["catalog", "extract", "--root", "ROOT"],
        ["catalog", "--root", "ROOT", "update", "--lang", "da"],
        ["render", "--root", "ROOT", "--out", "OUT"],
    ],
)
def test_root_before_or_after_the_command(argv: list[str], tmp_path: Path) -> None:
    from rulesdoc.cli.main import _parser

    args = _parser().parse_args([{"ROOT": str(tmp_path), "OUT": "out"}.get(a, a) for a in argv])
    assert args.root == tmp_path


def test_root_defaults_to_the_working_folder() -> None:
    from rulesdoc.cli.main import _parser

    assert _parser().parse_args(["check"]).root == Path(".")
