"""The publisher's guide's tour leaves the tests green: the tests test the tool, not today's values.

Each step of the tour (manual/publishing.md) is applied to a copy of this checkout, as a maintainer would
make it: the joker raised to 25; the cap fraction lowered to 0.4; the tour's `blocked-round`
example added, then `make update`, its title translated here in every language. After each step,
`rulesdoc check` and the strict site build pass in its copy. After the whole tour, in one copy
holding all three changes, the tests that read the rules pass (unit tests on the fixture rules, and
this checkout's property tests): a test that holds only at today's values fails there, whichever
value it leans on, since the tour changes each kind (a card value, a fraction, the examples). That
run is one (about two minutes of CPU), not one per step: three took half of `make test`.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from support import PUBLISHED, ROOT
from support.env import dated_env
from support.newlang import build_site

pytestmark = pytest.mark.slow

# The new title in each language, as a translator would give it ("The draw pile ran out").
BLOCKED_TITLE = "The draw pile ran out"
TRANSLATED_TITLE = {
    "da": "Trækbunken slap op",
    "hi": "ड्रॉ का ढेर ख़त्म हो गया",
    "ms": "Timbunan cabutan sudah habis",
    "nl": "De trekstapel is op",
    "pt": "O monte de compra esgotou-se",
}
# The tests whose data is the rules: the engine's, the CLI's, the export's and the report's on the
# fixture rules, and those of this checkout's rules and pages (any values must pass). Their
# subprocess tests are marked slow (out of `make test-fast`) but read the rules too: all run here.
FAST_TESTS = (
    "tests/test_engine.py",
    "tests/test_rules.py",
    "tests/test_export.py",
    "tests/test_conformance.py",
    "tests/test_report.py",
    "tests/test_render.py",
    "tests/test_drift.py",
    "tests/test_seeds.py",
    "tests/test_schema.py",
    "tests/test_i18n.py",
    "tests/test_cli.py",
    "tests/test_lint.py",
)
# The CLI's memory and output-stream tests run many thousand rounds: they read no rule value
# that the fixture rules do not fix, and take most of a minute.
SKIP = "not most_rounds"
# What a copy leaves out: version control, virtualenvs, caches and anything built.
NOT_COPIED = shutil.ignore_patterns(
    ".git", ".venv*", "site", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis", "*.mo"
)


def env() -> dict[str, str]:
    return dated_env()


def run(project: Path, *args: str, timeout: int = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=project, env=env(), capture_output=True, text=True, timeout=timeout
    )


def rulesdoc(project: Path, *args: str) -> None:
    done = run(project, "-m", "rulesdoc", *args)
    assert done.returncode == 0, f"rulesdoc {' '.join(args)}:\n{done.stdout}{done.stderr}"


def set_value(project: Path, key: str, old: str, new: str) -> None:
    """`key: old` becomes `key: new` in rules.yaml, its comment kept."""
    path = project / "rules.yaml"
    text, count = re.subn(rf"(?m)^(  {key}: ){re.escape(old)}(?=\s)", rf"\g<1>{new}", path.read_text("utf-8"))
    assert count == 1, f"{key}: {old} is not in rules.yaml once"
    path.write_text(text, "utf-8")


def readme_example() -> str:
    """The worked example the publisher's guide's tour adds, as the guide shows it."""
    readme = (ROOT / "manual" / "publishing.md").read_text("utf-8")
    found = re.search(r"```yaml\n(  - id: blocked-round\n.*?)```", readme, re.S)
    assert found, "the tour (manual/publishing.md) no longer shows the blocked-round example"
    return found.group(1)


def joker_25(project: Path) -> None:
    set_value(project, "joker", "20", "25")


def fraction_04(project: Path) -> None:
    set_value(project, "cap_target_fraction", "0.5", "0.4")


def blocked_round(project: Path) -> None:
    rules = project / "rules.yaml"
    rules.write_text(rules.read_text("utf-8").rstrip("\n") + "\n\n" + readme_example(), "utf-8")
    rulesdoc(project, "catalog", "extract")  # make update
    rulesdoc(project, "catalog", "update")
    for code in PUBLISHED[1:]:
        path = project / "locales" / code / "LC_MESSAGES" / "messages.po"
        text = path.read_text("utf-8")
        untranslated = f'msgid "{BLOCKED_TITLE}"\nmsgstr ""\n'
        assert text.count(untranslated) == 1, f"{code}: `make update` did not add the new title"
        path.write_text(
            text.replace(untranslated, f'msgid "{BLOCKED_TITLE}"\nmsgstr "{TRANSLATED_TITLE[code]}"\n'),
            "utf-8",
        )


TOUR: dict[str, Callable[[Path], None]] = {
    "joker 25": joker_25,
    "cap fraction 0.4": fraction_04,
    "blocked-round example": blocked_round,
}


def tour_copy(tmp_path: Path, *steps: str) -> Path:
    project = tmp_path / "project"
    shutil.copytree(ROOT, project, ignore=NOT_COPIED)
    for step in steps:
        TOUR[step](project)
    return project


# Each step and the whole tour are groups of their own: pytest-xdist spreads them over the cores.
@pytest.mark.parametrize(
    "step", [pytest.param(step, marks=pytest.mark.xdist_group(f"tour {step}")) for step in TOUR]
)
def test_a_tour_step_leaves_check_and_the_strict_build_green(tmp_path: Path, step: str) -> None:
    project = tour_copy(tmp_path, step)
    rulesdoc(project, "check")
    built = build_site(project, tmp_path / "site")
    assert built.returncode == 0, f"strict build after {step}:\n{built.stderr}"


@pytest.mark.xdist_group("the whole tour")
def test_the_whole_tour_leaves_the_tests_green(tmp_path: Path) -> None:
    project = tour_copy(tmp_path, *TOUR)
    rulesdoc(project, "check")
    tests = run(
        project, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-m", "not browser",
        "-k", SKIP, *FAST_TESTS, timeout=1200,
    )  # fmt: skip
    assert tests.returncode == 0, f"after the whole tour:\n{tests.stdout[-4000:]}"
