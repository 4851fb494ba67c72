"""What users expect around the commands: --version, plain help, score's input documented and
its text table, a clear word outside a project, the license, the pre-commit hook, the README."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
import yaml
from support import ROOT, SEED_RULES

README = (ROOT / "README.md").read_text("utf-8")
PUBLISHING = (ROOT / "manual" / "publishing.md").read_text("utf-8")
APPS = (ROOT / "manual" / "apps.md").read_text("utf-8")


def rulesdoc(*args: str, cwd: Path = ROOT, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rulesdoc", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.slow
def test_version_is_the_packages() -> None:
    done = rulesdoc("--version")
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    assert done.returncode == 0
    assert done.stdout == f"rulesdoc {pyproject['project']['version']}\n"
    assert pyproject["project"]["version"] == version("rulesdoc")


@pytest.mark.slow
def test_top_level_help_is_plain_text() -> None:
    done = rulesdoc("--help")
    assert done.returncode == 0
    assert "``" not in done.stdout and ":mod:" not in done.stdout
    assert "rulesdoc: the rules of Rami from one spec (rules.yaml)" in done.stdout
    for command in ("render", "score", "export", "report", "catalog", "check"):
        assert re.search(rf"^    {command} ", done.stdout, re.M), command


@pytest.mark.slow
def test_score_help_documents_the_input_and_its_example_is_true() -> None:
    text = rulesdoc("score", "--help").stdout
    assert "input: one round, a list of rounds, or a game" in text
    assert "went_out: 0               # the seat that went out; leave it out for a blocked round" in text
    # The example names the values its scores come from: the seed rules have them.
    said = "example, where rules.yaml has joker 20, ace 11 and target per_opponent 100 (yours may differ):"
    example = text[text.index(said) :].splitlines()[1:]
    command = example[0].strip().removeprefix("$ ")
    shown = [line[2:] for line in example[1:] if line.strip()]
    run = command.replace("rulesdoc score", f"{sys.executable} -m rulesdoc score --rules {SEED_RULES}")
    done = subprocess.run(run, shell=True,
                          cwd=ROOT, capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.stdout.splitlines() == shown


ROUND = "{hands: [{cards: [KH, 9C]}, {cards: []}, {cards: [QS, JK, 2D], opened: false}], went_out: 1}"


@pytest.mark.slow
def test_score_text_table_of_a_round() -> None:
    # Seat 0: 10 + 9 = 19. Seat 2 never opened: 10 + 20 + 2 = 32, + 25 = 57 (3 players: cap 100).
    done = rulesdoc("score", "--rules", str(SEED_RULES), "--format", "text", "-", stdin=ROUND)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        "Seat  Opened  Cards     Hand  Score  Rule\n"
        "   0  yes     KH 9C       19     19  cards in hand\n"
        "   1  yes     -            0      0  went out\n"
        "   2  no      QS JK 2D    32     57  never opened: hand + surcharge\n"
        "(3 players, game target 200)\n"
    )


@pytest.mark.slow
def test_score_text_of_a_game_says_how_it_ends() -> None:
    # 2 players, target 100. Round 1: seat 1 pays 10 x 5 + 9 x 4 = 86; round 2: seat 0 out again,
    # seat 1 pays 20: 106 reaches the target; seat 0 (0) is lowest and wins.
    game = (
        "{rounds: [{hands: [{cards: []}, {cards: [10C, 10D, JH, QS, KC, 9C, 9D, 9H, 9S]}], went_out: 0},"
        " {hands: [{cards: []}, {cards: [JK]}], went_out: 0}]}"
    )
    done = rulesdoc("score", "--rules", str(SEED_RULES), "--format", "text", "-", stdin=game)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Round 1" and "Round 2" in lines
    assert lines[-2:] == [
        "Totals: seat 0 0, seat 1 106 (target 100)",
        "The game is over: seat 0 wins with the lowest total.",
    ]


@pytest.mark.slow
def test_score_json_stays_the_default() -> None:
    done = rulesdoc("score", "--rules", str(SEED_RULES), "-", stdin=ROUND)
    assert json.loads(done.stdout) == {
        "scores": [19, 0, 57], "winners": [1], "target": 200, "reasons": ["hand_value", "winner", "never_opened"]
    }  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize(
    "command",
    [["render"], ["score", "-"], ["export"], ["report", "--base", "HEAD"], ["check"], ["catalog", "extract"]],
)
def test_outside_a_project_every_command_points_at_root(tmp_path: Path, command: list[str]) -> None:
    done = rulesdoc(*command, cwd=tmp_path, stdin="")
    assert done.returncode == 2
    assert done.stderr == (
        "rulesdoc: error: rules.yaml: not found: rulesdoc works in a project folder (one with rules.yaml); "
        "run it there or point at one with --root DIR\n"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_root_from_elsewhere_works(tmp_path: Path) -> None:
    done = rulesdoc("--root", str(ROOT), "score", "-", cwd=tmp_path, stdin=ROUND)
    assert done.returncode == 0, done.stderr


def test_license_is_mit_as_pyproject_says() -> None:
    text = (ROOT / "LICENSE").read_text("utf-8")
    assert text.startswith("MIT License\n\nCopyright (c) 2026 the rulesdoc authors\n")
    assert 'THE SOFTWARE IS PROVIDED "AS IS"' in text
    assert tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["license"] == {
        "text": "MIT"
    }


def test_the_pre_commit_hook_runs_on_every_input_of_the_check() -> None:
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))
    files = re.compile(hook["files"])
    for path in (
        "rules.yaml",
        "mkdocs.yml",
        "babel.cfg",
        "templates/scoring.md.j2",
        "locales/da/LC_MESSAGES/messages.po",
        "help/rules.yaml",  # a project in a folder of its repository (`args: [--root, help]`)
        "help/mkdocs.yml",
        "site/help/locales/da/LC_MESSAGES/messages.po",
    ):
        assert files.search(path), path
    for path in ("README.md", "generator/cli/main.py", "docs/rules.yaml.md", "help/README.md"):
        assert not files.search(path), path


def test_the_publishers_guide_documents_every_plugin_option_and_setting() -> None:
    from rulesdoc.site.plugin import RulesdocConfig

    options = {name for name, _ in RulesdocConfig._schema}  # MkDocs' config schema: (name, option) pairs
    assert options == {"rules", "templates", "locales", "strict", "languages"}
    section = PUBLISHING[PUBLISHING.index("### The MkDocs plugin") :]
    block = section[
        section.index("```yaml") + len("```yaml") : section.index("```", section.index("```yaml") + 3)
    ]
    (shown,) = [plugin["rulesdoc"] for plugin in yaml.safe_load(block)["plugins"] if isinstance(plugin, dict)]
    assert set(shown) == options
    defaults = {name: option.default for name, option in RulesdocConfig._schema}
    assert {name: value for name, value in shown.items() if name != "languages"} == {
        name: value for name, value in defaults.items() if name != "languages"
    }
    for setting in ("RULESDOC_STRICT", "RULESDOC_CHROMIUM", "site_url", "GitHub Pages", "rules.schema.json"):
        assert setting in section, setting


def test_the_app_developers_guide_documents_the_bundle_with_app_tests() -> None:
    section = APPS[APPS.index("## The export bundle") :]
    assert "```python" in section and "```js" in section
    for name in ("rules.json", "rules.schema.json", "conformance.json", '"format"', '"version"', "uncovered"):
        assert name in section, name
    assert "rulesdoc report --base" in PUBLISHING
