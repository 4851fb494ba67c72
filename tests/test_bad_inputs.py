"""The bad-input corpus (tests/bad_inputs/cases.yaml): every broken input gives one line, no traceback.

Each case runs ``rulesdoc --root <copy> ...`` in its own copy of the project, after a good render
into ``<copy>/out``; the failed run must leave ``out`` byte-identical. Most cases call the
command's ``main(argv)`` in this process (``support.inprocess``: captured streams, the copy as
working directory, and a check that the run left this process as it found it); a case marked
``process: true`` needs a real one (standard output closed, full or a pipe whose reader has gone)
and runs ``python -m rulesdoc`` as a child. The cases are spread over a few pytest-xdist groups.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import IO, Any

import pytest
import yaml
from support import ROOT
from support.env import python_child_env
from support.inprocess import run_main

CORPUS = Path(__file__).resolve().parent / "bad_inputs"
CASES: list[dict[str, Any]] = yaml.safe_load((CORPUS / "cases.yaml").read_text("utf-8"))["cases"]
# mkdocs.yml: it names the theme, whose messages are in messages.pot
PROJECT_FILES = ("rules.yaml", "templates", "locales", "babel.cfg", "mkdocs.yml")
ERROR_PREFIX = "rulesdoc: error: "


def generator(
    *args: str, cwd: Path, stdin: Path | None = None, stdout: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the generator; ``stdout`` other than None (captured) is one of :data:`STDOUT_MODES`."""
    command = [sys.executable, "-m", "rulesdoc", *args]
    if stdout == "closed":  # Python then has sys.stdout = None
        command = ["sh", "-c", 'exec "$0" "$@" >&-', *command]
    with contextlib.ExitStack() as stack:
        out: int | IO[bytes] = subprocess.PIPE
        if stdout == "full":
            out = stack.enter_context(open("/dev/full", "wb"))
        elif stdout == "gone":  # a pipe whose reader has gone before the first write: EPIPE
            read_end, write_end = os.pipe()
            os.close(read_end)
            stack.callback(os.close, write_end)
            out = write_end
        source = stack.enter_context(stdin.open("rb")) if stdin else subprocess.DEVNULL
        done = subprocess.run(
            command, cwd=cwd, env=python_child_env(), stdin=source, stdout=out, stderr=subprocess.PIPE,
            timeout=120,
        )  # fmt: skip
    return subprocess.CompletedProcess(
        done.args, shell_status(done.returncode), (done.stdout or b"").decode("utf-8", "replace"),
        done.stderr.decode("utf-8", "replace"),
    )  # fmt: skip


STDOUT_MODES = ("full", "closed", "gone")


def shell_status(returncode: int) -> int:
    """A child killed by signal N as a shell shows it: 128 + N (subprocess says -N)."""
    return 128 - returncode if returncode < 0 else returncode


def copy_project(dest: Path) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    for name in PROJECT_FILES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, dest / name, ignore=shutil.ignore_patterns("*.mo", "__pycache__"))
        else:
            shutil.copy2(source, dest / name)
    return dest


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every file (bytes) and folder (None) under ``folder``, hidden ones included."""
    tree: dict[str, bytes | None] = {}
    for path in sorted(folder.rglob("*")):
        key = path.relative_to(folder).as_posix()
        tree[key] = None if path.is_dir() else path.read_bytes()
    return tree


@cache
def has_command(name: str) -> bool:
    if name == "non-root":  # permissions stop only other users
        return os.geteuid() != 0
    return run_main([name, "--help"], cwd=ROOT).returncode == 0


@dataclass
class Outcome:
    process: subprocess.CompletedProcess[str]
    copy: Path
    before: dict[str, bytes | None]
    after: dict[str, bytes | None]
    untouched: dict[str, tuple[bytes, bytes]]  # path: (before, after)


def apply_case(case: dict[str, Any], copy: Path) -> None:
    for target, source in (case.get("install") or {}).items():
        path, origin = copy / target, CORPUS / source
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()
        path.parent.mkdir(parents=True, exist_ok=True)
        if origin.is_dir():
            shutil.copytree(origin, path)
        else:
            shutil.copy2(origin, path)
    for target in case.get("remove") or ():
        path = copy / target
        shutil.rmtree(path) if path.is_dir() else path.unlink()
    for target, mode in (case.get("chmod") or {}).items():
        (copy / target).chmod(mode)
    for target, pointee in (case.get("symlink") or {}).items():
        path = copy / target
        path.unlink(missing_ok=True)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.symlink_to(pointee if Path(pointee).is_absolute() else CORPUS / pointee)
    for target in case.get("mkdir") or ():
        (copy / target).mkdir(parents=True)
    for target in case.get("mkfifo") or ():
        (copy / target).parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(copy / target)
    for edit in case.get("edit") or ():
        path = copy / edit["path"]
        text = path.read_text("utf-8")
        assert edit["old"] in text, f"{case['name']}: edit target not found in {edit['path']}"
        path.write_text(text.replace(edit["old"], edit["new"], 1), "utf-8")


def command(case: dict[str, Any], copy: Path) -> list[str]:
    source = str(CORPUS / case["input"]) if case.get("input") else ""
    args = case["run"].format(input=source).split()
    if args[0] == "render" and "--out" not in args:
        args += ["--out", str(copy / "out")]
    return ["--root", str(copy), *args]


def run_case(case: dict[str, Any], base: Path, good: Path) -> Outcome:
    copy = copy_project(base / case["name"])
    shutil.copytree(good, copy / "out")
    apply_case(case, copy)  # (a few cases break the output folder itself)
    before = snapshot(copy / "out")
    kept = {path: (copy / path).read_bytes() for path in case.get("untouched") or ()}
    stdin = CORPUS / case["stdin"] if case.get("stdin") else None
    if case.get("process"):
        process = generator(*command(case, copy), cwd=copy, stdin=stdin, stdout=case.get("stdout"))
    else:
        process = run_main(command(case, copy), cwd=copy, stdin=stdin.read_bytes() if stdin else None)
    untouched = {path: (data, (copy / path).read_bytes()) for path, data in kept.items()}
    return Outcome(process, copy, before, snapshot(copy / "out"), untouched)


@pytest.fixture(scope="session")
def good_output(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A good render of the project, which every case's copy starts with (one per test process)."""
    pristine = copy_project(tmp_path_factory.mktemp("bad_inputs_good"))
    good = run_main(["--root", str(pristine), "render", "--out", str(pristine / "out")], cwd=pristine)
    assert good.returncode == 0, good.stderr
    return pristine / "out"


def corpus_files(case: dict[str, Any]) -> list[str]:
    """The corpus files a case uses: its input, standard input, installed files, symlink targets."""
    targets = [t for t in (case.get("symlink") or {}).values() if not Path(t).is_absolute()]
    sources = [case.get("input"), case.get("stdin"), *(case.get("install") or {}).values(), *targets]
    return [source for source in sources if source]


def location_pattern(case: dict[str, Any]) -> str:
    """The path as shown ends in FILE, then the line, then ': '."""
    where = re.escape(case["file"]) + (f":{case['line']}" if case.get("line") else "")
    return rf"(?:^|[\s/]){where}: "


# ---------------------------------------------------------------- the corpus itself


def test_corpus_is_large_and_well_formed() -> None:
    names = [case["name"] for case in CASES]
    assert len(names) >= 40
    assert len(set(names)) == len(names), "case names must be unique"
    for case in CASES:
        required = {"name", "about", "run"} | (set() if case.get("quiet") else {"file", "error"})
        assert required <= case.keys(), case["name"]
        assert case.get("stdout") in (None, *STDOUT_MODES), case["name"]
        # a changed standard output is the interpreter's own file: only a child has one
        assert not case.get("stdout") or case.get("process"), f"{case['name']}: stdout needs process: true"
        for source in corpus_files(case):
            assert (CORPUS / source).exists(), f"{case['name']}: {source} missing from the corpus"
    used = {source for case in CASES for source in corpus_files(case)}
    parts = {"a-folder", "partial-error"}  # folders installed whole, or files of a multi-file case
    files = {
        path.relative_to(CORPUS).as_posix()
        for path in CORPUS.rglob("*")
        if path.is_file() and path.name != "cases.yaml" and path.parent.name not in parts
    }
    assert files <= used, f"corpus files no case uses: {sorted(files - used)}"


# ---------------------------------------------------------------- every case


# Four groups: pytest-xdist spreads the cases over the cores, each worker renders the good output once.
@pytest.mark.slow
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(case, marks=pytest.mark.xdist_group(f"bad_inputs_{n % 4}"))
        for n, case in enumerate(CASES)
    ],
    ids=[case["name"] for case in CASES],
)
def test_bad_input(case: dict[str, Any], good_output: Path, tmp_path: Path) -> None:
    if case.get("needs") and not has_command(case["needs"]):
        if case["needs"] == "non-root":
            pytest.skip("running as root: chmod 000 does not stop root from reading")
        pytest.skip(f"`python -m rulesdoc {case['needs']}` is not a command yet")
    outcome = run_case(case, tmp_path, good_output)
    process = outcome.process
    if case.get("line_of"):  # the line of a text in the edited file (catalogs change under us)
        lines = (outcome.copy / case["edit"][0]["path"]).read_text("utf-8").splitlines()
        case = {**case, "line": next(n for n, text in enumerate(lines, 1) if case["line_of"] in text)}
    output = process.stdout + process.stderr
    expected_exit = case.get("exit", 2)

    assert "Traceback" not in output, output
    assert process.returncode == expected_exit, f"exit {process.returncode}\n{output}"
    assert outcome.after == outcome.before, "the previous output changed"
    for path, (before, after) in outcome.untouched.items():
        assert after == before, f"{path} changed"
    if case.get("must_not_create"):
        assert not (outcome.copy / case["must_not_create"]).exists(), "the input ran code"
    if case.get("must_not_show"):
        assert case["must_not_show"] not in output, "the content of the file was shown"
    if case.get("quiet"):  # a quiet end: not a word on stderr
        assert process.stderr == "", process.stderr
        return

    if expected_exit == 1 or case.get("warning"):  # check findings: a report; the finding is on one line
        pattern = location_pattern(case)
        findings = [
            line for line in output.splitlines() if re.search(pattern, line) and case["error"] in line
        ]
        assert findings, f"no line with {case['file']}:{case.get('line')} and {case['error']!r} in:\n{output}"
        return
    assert process.stdout == "", process.stdout
    lines = process.stderr.splitlines()
    if case.get("refusal"):  # check's errors, in its words: a summary line, then its lines
        assert lines[0].startswith(ERROR_PREFIX) and "as `rulesdoc check` reports them" in lines[0], lines[0]
        pattern = location_pattern(case)
        assert any(re.search(pattern, line) and case["error"] in line for line in lines[1:]), process.stderr
        return
    assert len(lines) == 1, f"stderr is not one line:\n{process.stderr}"
    line = lines[0]
    assert line.startswith(ERROR_PREFIX), line
    assert re.search(location_pattern(case), line[len(ERROR_PREFIX) :]), (
        f"expected {case['file']}:{case.get('line')} in: {line}"
    )
    if not case.get("line"):  # no line is expected: make sure none is given either
        assert not re.search(re.escape(case["file"]) + r":\d+: ", line), line
    assert case["error"] in line, f"expected {case['error']!r} in: {line}"


@pytest.mark.slow
@pytest.mark.parametrize("name", ["rules-duplicate-key", "catalog-fifo", "score-deep-nesting-stdin"])
def test_a_case_in_process_says_what_the_child_says(name: str, good_output: Path, tmp_path: Path) -> None:
    """The in-process run stands for the child: same status, same standard output and error."""
    case = next(case for case in CASES if case["name"] == name)
    inside = run_case(case, tmp_path / "inside", good_output)
    child = run_case({**case, "process": True}, tmp_path / "child", good_output)
    shown = [
        (run.process.returncode, run.process.stdout, run.process.stderr.replace(str(run.copy), "<copy>"))
        for run in (inside, child)
    ]
    assert shown[0] == shown[1]
    assert shown[0][0] == 2 and shown[0][2].startswith(ERROR_PREFIX)
