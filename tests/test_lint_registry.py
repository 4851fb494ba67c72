"""The lint as users drive and extend it (issue 33, goal 4): ids, categories and severities,
``check --list``, ``--only``/``--skip``, duplicate ids refused, and a project's own checks
found through the ``rulesdoc.checks`` entry point, in ``check`` and in the build alike."""

from __future__ import annotations

import importlib.metadata
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from support import ROOT
from support.inprocess import run_main
from test_lint import edit, line_of, make_project, po

from rulesdoc import lint
from rulesdoc.cli import main as cli
from rulesdoc.errors import RulesdocError
from rulesdoc.lint.model import Severity
from rulesdoc.lint.registry import (
    ENTRY_POINT_GROUP,
    EVERY_CHECK,
    REGISTRY,
    Category,
    DuplicateCheckError,
    check,
    load_plugins,
)

README = (ROOT / "manual" / "translating.md").read_text("utf-8")  # its lint section, "Checks in CI"


def readme_block(opening: str) -> str:
    """The README's code block that starts with ``opening`` (its first line)."""
    start = README.index(opening)
    return README[start : README.index("```", start)]


# A project's own check as the README shows it, installed as a distribution would install it:
# the module and a dist-info whose entry_points.txt is the README's entry-point table.
PLUGIN_MODULE = readme_block("# house_checks.py\n")
PLUGIN_NAME = "house_checks"


def install_plugin(site: Path, module: str = PLUGIN_MODULE) -> Path:
    site.mkdir(parents=True, exist_ok=True)
    (site / f"{PLUGIN_NAME}.py").write_text(module, encoding="utf-8")
    info = site / f"{PLUGIN_NAME}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: house-checks\nVersion: 1.0\n", encoding="utf-8"
    )
    toml = tomllib.loads(readme_block('[project.entry-points."rulesdoc.checks"]\n'))
    points = "".join(
        f"{name} = {value}\n" for name, value in toml["project"]["entry-points"][ENTRY_POINT_GROUP].items()
    )
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{points}", encoding="utf-8")
    return site


def rulesdoc(root: Path, *args: str, site: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The command in this process; with ``site`` (plugins installed there), a child that finds
    their entry points on its fresh path."""
    if site is None:
        return run_main(["--root", str(root), *args], cwd=ROOT)
    env = dict(os.environ)
    if site is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(site), env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "rulesdoc", "--root", str(root), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
    )


# ---------------------------------------------------------------- the registry


def test_every_check_has_an_id_a_category_a_severity_and_a_reason() -> None:
    for entry in lint.checks():
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", entry.id), entry.id
        assert isinstance(entry.category, Category) and isinstance(entry.severity, Severity)
        assert entry.reason and "\n" not in entry.reason and "``" not in entry.reason, entry.id
    assert {e.id: e.category.value for e in lint.checks()}["terminology"] == "glossary"
    assert {e.id: e.severity.value for e in lint.checks()}["completeness"] == "warning"


def test_a_duplicate_id_is_refused_at_registration() -> None:
    before = list(REGISTRY)
    with pytest.raises(
        DuplicateCheckError,
        match=r"'stale' is registered twice: by rulesdoc\.lint\.catalog\.stale and by .*again",
    ):

        @check("stale", category=Category.CATALOG)
        def again(subject: lint.Subject) -> list[lint.Finding]:
            return []

    assert REGISTRY == before


@pytest.mark.parametrize("bad", ["Stale", "two words", "a,b", "", "-x"])
def test_an_id_that_cannot_be_named_on_the_command_line_is_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="lowercase letters, digits and '-'"):
        check(bad, category=Category.MESSAGE)(lambda subject: [])
    assert all(entry.id != bad for entry in REGISTRY)


def test_a_findings_severity_is_its_checks_unless_it_says_otherwise(tmp_path: Path) -> None:
    """completeness is a warning check: its findings are warnings; stale is an error check whose
    obsolete-entry findings say warning themselves."""
    root = make_project(tmp_path)
    catalog = po(root, "nl")
    edit(catalog, 'msgstr "Winnaar"', 'msgstr ""')
    catalog.write_text(catalog.read_text("utf-8") + '\n#~ msgid "Gone"\n#~ msgstr "Weg"\n', "utf-8")
    report = _report(root)
    assert {f.severity for f in report.findings if f.check == "completeness"} == {Severity.WARNING}
    assert [(f.check, f.severity) for f in report.findings if "obsolete" in f.message] == [
        ("stale", Severity.WARNING)
    ]


def _report(root: Path, selection: lint.Selection = EVERY_CHECK) -> lint.Report:
    from rulesdoc.i18n.policy import read_policy
    from rulesdoc.io.project import Project
    from rulesdoc.pages.render import Workspace
    from rulesdoc.site.options import site_options

    project = Project.at(root)
    policy = read_policy(project.locales, site_options(root / "mkdocs.yml").languages, root)
    return lint.run(lint.gather(Workspace.load(project), policy, ["nl"]), selection)


# ---------------------------------------------------------------- --list, --only, --skip


def test_check_list_prints_id_category_severity_and_reason(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--root", str(ROOT), "check", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["id", "category", "severity", "reason"]
    rows = {line.split()[0]: line.split(maxsplit=3)[1:] for line in lines[1:]}
    assert list(rows) == [entry.id for entry in lint.checks()]
    assert rows["placeholders"][:2] == ["message", "error"]
    assert rows["completeness"][:2] == ["catalog", "warning"]
    assert rows["drift"][2].startswith("Pages kept elsewhere (`--pages DIR`)")


def test_check_list_works_outside_a_project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A reader choosing --only/--skip asks for the list before there is a project."""
    assert cli.main(["--root", str(tmp_path), "check", "--list"]) == 0
    assert "placeholders" in capsys.readouterr().out
    assert cli.main(["--root", str(tmp_path), "check"]) == 2  # a check itself still needs one


def test_only_and_skip_choose_the_checks_and_the_verdict_says_so(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    catalog = po(root, "nl")
    edit(catalog, 'msgstr "Tegenstander %(number)s"', 'msgstr "Tegenstander %(nummer)s"')
    edit(catalog, 'msgstr "Winnaar"', 'msgstr ""')
    every = _report(root)
    assert {f.check for f in every.findings} == {"placeholders", "completeness"}
    assert every.skipped == ()
    only = _report(root, lint.select(only=["completeness"]))
    assert {f.check for f in only.findings} == {"completeness"} and only.errors == 0
    assert "placeholders" in only.skipped and "completeness" not in only.skipped
    skipped = _report(root, lint.select(skip=["placeholders", "completeness"]))
    assert skipped.findings == () and skipped.skipped == ("completeness", "placeholders")
    from rulesdoc.lint.report import FORMATS, verdict

    assert verdict(skipped) == (
        "check passed: 0 error(s), 0 warning(s); skipped completeness, placeholders (a build runs every check)"
    )
    assert '"skipped": [\n    "completeness",\n    "placeholders"\n  ]' in FORMATS["json"](skipped)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (
            ["--only", "stale,nosuch"],
            "rulesdoc: error: --only: no check 'nosuch'; `rulesdoc check --list` lists them",
        ),
        (["--skip", "stale", "--skip", "Placeholders"], "rulesdoc: error: --skip: no check 'Placeholders'; "),
        (
            ["--site", "site", "--skip", "stale"],
            "rulesdoc: error: --only/--skip choose among the catalog and page",
        ),
    ],
)
def test_an_unknown_check_id_is_one_line_and_exit_2(
    args: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["--root", str(ROOT), "check", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(says) and len(captured.err.splitlines()) == 1, captured.err


@pytest.mark.slow
def test_a_skipped_error_still_refuses_the_build(tmp_path: Path) -> None:
    """Selection is for `check` alone: the strict render refuses what the full check calls an
    error, with check's words, whatever a `check --skip` run said."""
    root = make_project(tmp_path)
    catalog = po(root, "nl")
    edit(catalog, 'msgstr "Tegenstander %(number)s"', 'msgstr "Tegenstander %(nummer)s"')
    partial = rulesdoc(root, "check", "--lang", "nl", "--skip", "placeholders")
    assert partial.returncode == 0, partial.stdout + partial.stderr
    assert "skipped placeholders (a build runs every check)" in partial.stdout
    full = rulesdoc(root, "check", "--lang", "nl")
    assert full.returncode == 1
    error = next(line.strip() for line in full.stdout.splitlines() if "error: [placeholders]" in line)
    assert error.startswith(f"{catalog}:{line_of(catalog, 'Opponent %(number)s')}: error: [placeholders]")
    built = rulesdoc(root, "render", "--lang", "nl", "--out", str(tmp_path / "pages"))
    assert built.returncode == 2
    assert error in built.stderr


# ---------------------------------------------------------------- a project's own checks


@pytest.mark.slow
def test_a_check_installed_through_the_entry_point_reports_in_check_and_refuses_the_build(
    tmp_path: Path,
) -> None:
    root = make_project(tmp_path)
    catalog = po(root, "nl")
    edit(catalog, 'msgstr "Winnaar"', 'msgstr "Winnaar!"')
    site = install_plugin(tmp_path / "site-packages")
    listed = rulesdoc(root, "check", "--list", site=site)
    assert listed.returncode == 0, listed.stderr
    assert re.search(r"^house-no-exclamation +message +error +House style: a help page", listed.stdout, re.M)
    checked = rulesdoc(root, "check", "--lang", "nl", site=site)
    assert checked.returncode == 1, checked.stdout + checked.stderr
    line = (
        f"{catalog}:{line_of(catalog, 'Winner')}: error: [house-no-exclamation] 'Winner': house style: no '!'"
    )
    assert line in checked.stdout
    built = rulesdoc(root, "render", "--lang", "nl", "--out", str(tmp_path / "pages"), site=site)
    assert built.returncode == 2 and line in built.stderr, built.stderr
    # Without the distribution the check is gone: it is the project's, not rulesdoc's.
    assert "house-no-exclamation" not in rulesdoc(root, "check", "--list").stdout
    assert rulesdoc(root, "check", "--lang", "nl", "--only", "markup").returncode == 0


def test_an_entry_point_that_clashes_or_names_no_check_is_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = list(REGISTRY)
    site = install_plugin(tmp_path, PLUGIN_MODULE.replace('"house-no-exclamation"', '"stale"'))
    monkeypatch.syspath_prepend(str(site))
    points = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
    assert [p.value for p in points] == [PLUGIN_NAME]  # the dist-info is found
    with pytest.raises(
        RulesdocError,
        match=r"'house'.*cannot be loaded: DuplicateCheckError: check id 'stale' is registered twice",
    ):
        load_plugins(points)
    assert REGISTRY == before
    not_a_check = importlib.metadata.EntryPoint("dumps", "json:dumps", ENTRY_POINT_GROUP)
    with pytest.raises(RulesdocError, match="neither a module nor a function registered with @rulesdoc"):
        load_plugins([not_a_check])
    missing = importlib.metadata.EntryPoint("gone", "no_such_rulesdoc_plugin", ENTRY_POINT_GROUP)
    with pytest.raises(RulesdocError, match="cannot be loaded: ModuleNotFoundError"):
        load_plugins([missing])
    sys.modules.pop(PLUGIN_NAME, None)


def test_only_and_skip_take_repeated_options_and_comma_lists() -> None:
    from rulesdoc.cli.check_command import ids

    assert ids(["placeholders,markup", " numbers ", "urls,,"]) == [
        "placeholders",
        "markup",
        "numbers",
        "urls",
    ]
    chosen = lint.select(ids(["placeholders,markup"]), ids(["markup"]))
    assert [entry.id for entry in lint.checks() if chosen.chosen(entry)] == ["placeholders"]
