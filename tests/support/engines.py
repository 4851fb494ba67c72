"""An engine's own virtualenv for the tests (scripts/engine-venv.sh, cached in .venv-<engine>,
without the mkdocs package), and a command run with its interpreter."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from support import ROOT
from support.env import dated_env

ENV = dated_env()


def engine_python(engine: str) -> Path:
    """The engine venv's interpreter; a skip where it cannot be made, a failure where it is wrong."""
    venv = ROOT / f".venv-{engine}"
    made = subprocess.run(
        ["sh", str(ROOT / "scripts" / "engine-venv.sh"), engine, str(venv)],
        capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    if made.returncode != 0:
        assert "can import mkdocs" not in made.stderr, made.stderr  # a wrong venv is a failure, not a skip
        pytest.skip(f"the {engine} venv could not be made (scripts/engine-venv.sh): {made.stderr[-400:]}")
    return venv / "bin" / "python"


def run(python: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(python), *args], cwd=cwd, env=ENV, capture_output=True, text=True, timeout=600)
