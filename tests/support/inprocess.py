"""Run the ``rulesdoc`` command in this process, as ``python -m rulesdoc`` would in a child.

A child process costs ~0.3 s of interpreter start and imports; the command itself is mostly
less. :func:`run_main` calls ``rulesdoc.cli.main.main(argv)`` with standard input, output and
error replaced, the working directory set, and then checks that the run left this process as it
found it (working directory, environment, logging handlers and levels, threads): a command that
leaks state into the test process would make the next test's result depend on this one.

What needs a real process stays one: signals, closed or full standard output (the interpreter's
own file objects), the console script's exit status as a shell sees it.
"""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys
import threading
import traceback
from collections.abc import Sequence
from pathlib import Path


class LeakedState(AssertionError):
    """The command changed the test process: said as a test failure, naming what changed."""


def _logging_state(names: Sequence[str]) -> dict[str, tuple[int, tuple[logging.Handler, ...]]]:
    """Each named logger's level and handlers ("" is the root logger)."""
    loggers = {name: logging.getLogger(name or None) for name in names}
    return {name: (logger.level, tuple(logger.handlers)) for name, logger in loggers.items()}


def _logger_names() -> list[str]:
    # the loggers that exist now; the ones a command's imports create are not the test's state
    return [
        "",
        *(
            name
            for name, logger in logging.root.manager.loggerDict.items()
            if isinstance(logger, logging.Logger)
        ),
    ]


def run_main(argv: Sequence[str], cwd: Path, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    """``rulesdoc ARGV`` run in ``cwd``: its exit status, standard output and error as text.

    An exception that escapes ``main`` is what the interpreter would print: a traceback on
    standard error and status 1, so a test sees it as it would from a child.
    """
    from rulesdoc.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    source = io.TextIOWrapper(io.BytesIO(stdin or b""), encoding="utf-8")
    saved_streams = (sys.stdin, sys.stdout, sys.stderr)
    saved_cwd, saved_env = os.getcwd(), dict(os.environ)
    logger_names = _logger_names()
    saved_logging = _logging_state(logger_names)
    saved_threads = set(threading.enumerate())
    # pytest's own capture handlers sit on the root logger during a test; without them the
    # command installs its stderr handler as it does in a child (logging.basicConfig adds
    # one only to a root logger that has none), and must take it away again.
    root_handlers = logging.root.handlers[:]
    logging.root.handlers.clear()
    try:
        sys.stdin, sys.stdout, sys.stderr = source, out, err
        os.chdir(cwd)
        try:
            status = main(list(argv))
        except SystemExit as done:  # as the interpreter does with `raise SystemExit(main())`
            status = done.code if isinstance(done.code, int) else 1
        except Exception:  # noqa: BLE001  # the child would print it and exit 1: so do we
            err.write(traceback.format_exc())
            status = 1
        left = logging.root.handlers[:]
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        os.chdir(saved_cwd)
        logging.root.handlers[:] = root_handlers
    changes = []
    if left:
        changes.append(f"logging handlers left on the root logger: {left}")
    if os.getcwd() != saved_cwd:  # (restored above; checked in case a chdir escaped the finally)
        changes.append("the working directory")
    if dict(os.environ) != saved_env:
        changed = sorted(set(os.environ.items()) ^ set(saved_env.items()))
        os.environ.clear()
        os.environ.update(saved_env)
        changes.append(f"os.environ: {changed}")
    changed_loggers = [
        name or "root" for name, state in _logging_state(logger_names).items() if state != saved_logging[name]
    ]
    if changed_loggers:
        changes.append(f"the level or handlers of the loggers {changed_loggers}")
    extra = [t for t in threading.enumerate() if t not in saved_threads and t.is_alive()]
    if extra:
        changes.append(f"threads still running: {[t.name for t in extra]}")
    if changes:
        raise LeakedState(f"rulesdoc {' '.join(argv)} changed the test process: {'; '.join(changes)}")
    return subprocess.CompletedProcess(list(argv), status, out.getvalue(), err.getvalue())
