"""tests/support/inprocess.py: the command run in the test process, and what it must not leave behind."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from support import ROOT
from support.inprocess import LeakedState, run_main

from rulesdoc.cli import main as cli


def _with_main(monkeypatch: pytest.MonkeyPatch, body: Callable[[Sequence[str]], int]) -> None:
    monkeypatch.setattr(cli, "main", body)


def test_streams_status_and_working_directory_are_the_commands(tmp_path: Path) -> None:
    elsewhere = run_main(["score", "-"], cwd=tmp_path)  # no rules.yaml in the working directory
    assert elsewhere.returncode == 2 and "rules.yaml: not found" in elsewhere.stderr, elsewhere.stderr
    done = run_main(["score", "-"], cwd=ROOT, stdin=b"not: [a round\n")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("rulesdoc: error: <stdin>:2: YAML syntax error"), done.stderr
    assert os.getcwd() != str(tmp_path)


def test_a_warning_is_one_stderr_line_and_its_handler_goes_again(monkeypatch: pytest.MonkeyPatch) -> None:
    def warns(argv: Sequence[str]) -> int:
        logging.getLogger("generator.probe").warning("careful\nnow")
        return 0

    monkeypatch.setattr(cli, "run", warns)
    before = logging.root.handlers[:]
    done = run_main(["check"], cwd=ROOT)
    assert done.stderr == "rulesdoc: warning: careful now\n"
    assert logging.root.handlers == before


def test_an_escaping_exception_is_a_traceback_and_status_1(monkeypatch: pytest.MonkeyPatch) -> None:
    def crashes(argv: Sequence[str]) -> int:
        raise ValueError("a bug")

    _with_main(monkeypatch, crashes)
    done = run_main(["check"], cwd=ROOT)
    assert done.returncode == 1
    assert done.stderr.startswith("Traceback") and "ValueError: a bug" in done.stderr


def test_a_changed_environment_is_caught_and_undone(monkeypatch: pytest.MonkeyPatch) -> None:
    def sets(argv: Sequence[str]) -> int:
        os.environ["RULESDOC_LEAK_PROBE"] = "1"
        return 0

    _with_main(monkeypatch, sets)
    with pytest.raises(LeakedState, match="os.environ: .*RULESDOC_LEAK_PROBE"):
        run_main(["check"], cwd=ROOT)
    assert "RULESDOC_LEAK_PROBE" not in os.environ


def test_a_handler_left_on_a_logger_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    handler = logging.NullHandler()
    probe = logging.getLogger("generator.leak_probe")

    def adds(argv: Sequence[str]) -> int:
        probe.addHandler(handler)
        return 0

    _with_main(monkeypatch, adds)
    try:
        with pytest.raises(LeakedState, match=r"loggers \['generator.leak_probe'\]"):
            run_main(["check"], cwd=ROOT)
    finally:
        probe.removeHandler(handler)


def test_a_thread_left_running_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    stop = threading.Event()

    def starts(argv: Sequence[str]) -> int:
        threading.Thread(target=stop.wait, name="leak-probe").start()
        return 0

    _with_main(monkeypatch, starts)
    try:
        with pytest.raises(LeakedState, match="threads still running: .*leak-probe"):
            run_main(["check"], cwd=ROOT)
    finally:
        stop.set()
