"""One truth about a catalog: the strict build and `render` refuse exactly what `check` reports,
in its words.

Each case breaks one thing in a copy of the project, then runs the real commands a CI
runs: `rulesdoc check`, `rulesdoc render` and `mkdocs build --strict`. All pass, or all fail,
and every error line of check is in the build's and render's error, and they name no other.
A missing or fuzzy translation, or a whole new language, is a warning (generator/i18n/policy.py).
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from support import copy_project
from support.newlang import build_site

from rulesdoc.catalog import po
from rulesdoc.cli import main as cli
from rulesdoc.i18n.translate import catalog_path

pytestmark = pytest.mark.slow


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), "utf-8")


def catalog(root: Path, code: str) -> Path:
    return catalog_path(root / "locales", code)


@dataclass(frozen=True)
class Fault:
    name: str
    apply: Callable[[Path], None]
    fails: bool
    names: str = ""  # a msgid (or header text) every error line names
    hidden: str = ""  # a language built but left out of the switcher and hreflang


def _threshold(percent: int, code: str = "da") -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        edit(catalog(root, code), 'msgstr "Spillere"', 'msgstr ""')
        (root / "locales" / "check.yaml").write_text(f"min_translated:\n  {code}: {percent}\n", "utf-8")

    return apply


def _init(root: Path, code: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "rulesdoc", "catalog", "init", code],
        cwd=root,
        check=True,
        capture_output=True,
    )


FAULTS = [
    Fault("clean", lambda root: None, fails=False),
    Fault(
        "missing plural form",
        lambda root: edit(catalog(root, "pt"), 'msgstr[2] "%(points)s pontos"\n', ""),
        fails=True, names="'%(points)s point'",
    ),
    Fault(
        "positional placeholder",
        lambda root: edit(catalog(root, "da"), 'msgstr "Modstander %(number)s"', 'msgstr "Modstander %s"'),
        fails=True, names="'Opponent %(number)s'",
    ),
    Fault(
        "renamed placeholder",
        lambda root: edit(catalog(root, "da"), 'msgstr "Modstander %(number)s"', 'msgstr "Modstander %(nummer)s"'),
        fails=True, names="'Opponent %(number)s'",
    ),
    Fault(
        "markup",
        lambda root: edit(catalog(root, "nl"), 'msgstr "In het kort"', 'msgstr "In het <b>kort</b>"'),
        fails=True, names="'In short'",
    ),
    Fault(
        "hindi markup",
        lambda root: edit(catalog(root, "hi"), 'msgid "Players"\nmsgstr "खिलाड़ी"', 'msgid "Players"\nmsgstr "<b>खिलाड़ी</b>"'),
        fails=True, names="'Players'",
    ),
    # Gaps: warnings, the page shows English marked lang="en" (generator/i18n/policy.py).
    Fault(
        "fuzzy",
        lambda root: edit(catalog(root, "ms"), 'msgid "In short"', '#, fuzzy\nmsgid "In short"'),
        fails=False,
    ),
    Fault(
        "untranslated",
        lambda root: edit(catalog(root, "hi"), 'msgid "Players"\nmsgstr "खिलाड़ी"', 'msgid "Players"\nmsgstr ""'),
        fails=False,
    ),
    Fault("complete enough (da: 99 %, 1 message missing)", _threshold(99), fails=False),
    Fault("below the threshold (da: 100 %): built, not offered", _threshold(100), fails=False, hidden="da"),
    Fault("a new language (catalog init sw)", lambda root: _init(root, "sw"), fails=False, hidden="sw"),
    Fault(
        "bad header",
        lambda root: edit(catalog(root, "da"), "plural=(n != 1);", "plural=__import__('os').system('id');"),
        fails=True, names="the plural expression has \"__import__(",
    ),
]  # fmt: skip


def error_lines(text: str) -> set[str]:
    return {m.group(0).strip() for m in re.finditer(r"\S+:\d*:? ?error: \[[a-z-]+\][^\n]*", text)}


@pytest.mark.parametrize("fault", FAULTS, ids=[fault.name for fault in FAULTS])
def test_the_strict_build_and_check_agree(tmp_path: Path, fault: Fault) -> None:
    root = copy_project(tmp_path / "project")
    fault.apply(root)
    check = subprocess.run(
        [sys.executable, "-m", "rulesdoc", "check"], cwd=root, capture_output=True, text=True, timeout=300
    )
    render = subprocess.run(
        [sys.executable, "-m", "rulesdoc", "render", "--out", str(tmp_path / "pages")],
        cwd=root, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    build = build_site(root, tmp_path / "site")
    built = build.stdout + build.stderr
    assert "Traceback" not in check.stderr + built + render.stderr
    assert (check.returncode == 1) == fault.fails, check.stdout + check.stderr
    assert (build.returncode != 0) == fault.fails, built
    assert (render.returncode != 0) == fault.fails, render.stderr
    reported, refused, rendered = error_lines(check.stdout), error_lines(built), error_lines(render.stderr)
    assert reported == refused, f"check:\n{sorted(reported)}\nbuild:\n{sorted(refused)}"
    assert reported == rendered, f"check:\n{sorted(reported)}\nrender:\n{sorted(rendered)}"
    if fault.fails:
        assert reported and all(fault.names in line for line in reported), reported
        assert not (tmp_path / "site" / "scoring.html").exists(), "a refused build writes no site"
    else:  # the gaps: a few warning lines, one per language at most (check lists each message)
        gaps = [line for line in built.splitlines() if ": warning: [" in line]
        assert len(gaps) <= 2 * len(list((root / "locales").glob("*/LC_MESSAGES"))), built
    if fault.hidden:
        built_page = (tmp_path / "site" / fault.hidden / "scoring.html").read_text("utf-8")
        assert 'lang="en" class="rd-untranslated"' in built_page
        for page in (tmp_path / "site" / "scoring.html", tmp_path / "site" / fault.hidden / "scoring.html"):
            assert f'hreflang="{fault.hidden}"' not in page.read_text("utf-8")
        assert 'hreflang="nl"' in built_page


def test_one_check_parses_each_catalog_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = copy_project(tmp_path / "project")
    parse_count: dict[Path, int] = {}
    real_parse = po.parse

    def counted(data: bytes, path: Path, shown: str | None = None) -> po.LoadedCatalog:
        parse_count[path.resolve()] = parse_count.get(path.resolve(), 0) + 1
        return real_parse(data, path, shown)

    monkeypatch.setattr(po, "parse", counted)  # every po.load parses through it
    monkeypatch.setenv("RULESDOC_NO_CACHE", "1")  # parsed, not loaded as an earlier run kept it
    assert cli.main(["--root", str(root), "check"]) == 0
    parsed = {path.relative_to(root.resolve()).as_posix(): n for path, n in parse_count.items()}
    files = {p.relative_to(root).as_posix() for p in (root / "locales").rglob("*.po*")}
    assert parsed == dict.fromkeys(files, 1)


def test_one_count_in_check_the_build_and_the_status_page(tmp_path: Path) -> None:
    root = copy_project(tmp_path / "project")
    edit(catalog(root, "da"), 'msgstr "Spillere"', 'msgstr ""')
    edit(catalog(root, "da"), 'msgid "In short"', '#, fuzzy\nmsgid "In short"')
    (root / "locales" / "check.yaml").write_text("min_translated:\n  da: 90\n", "utf-8")
    check = subprocess.run(
        [sys.executable, "-m", "rulesdoc", "check"], cwd=root, capture_output=True, text=True, timeout=300
    )
    row = next(line.split() for line in check.stdout.splitlines() if re.match(r"da\s+\d", line))
    translated, fuzzy, untranslated = (int(n) for n in row[1:4])
    assert (fuzzy, untranslated) == (1, 1)
    assert build_site(root, tmp_path / "site").returncode == 0  # 90 % allowed: warnings
    status = (tmp_path / "site" / "translation-status.html").read_text("utf-8")
    cells = re.search(r"<td>(?:<a [^>]*>)?Dansk(?:</a>)? \(<code>da</code>\)</td>(.*?)</tr>", status, re.S)
    assert cells, status
    numbers = [int(n) for n in re.findall(r"<td[^>]*>(?:<bdi>)?(\d+)", cells.group(1))[:3]]
    assert numbers == [translated, fuzzy, untranslated]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_the_refusal_lists_checks_errors_in_its_order(
    tmp_path: Path, workers: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each language is rendered and judged by its own build (a worker process, or one after
    another): the refusal gathers them all, in the order `check` reports them."""
    root = copy_project(tmp_path / "project")
    for fault in (FAULTS[1], FAULTS[2], FAULTS[4], FAULTS[5]):  # pt, da, nl, hi
        fault.apply(root)
    monkeypatch.setenv("RULESDOC_WORKERS", workers)
    check = subprocess.run(
        [sys.executable, "-m", "rulesdoc", "check"], cwd=root, capture_output=True, text=True, timeout=300
    )
    build = build_site(root, tmp_path / "site")
    ordered = re.compile(r"\S+:\d*:? ?error: \[[a-z-]+\][^\n]*")
    reported = [m.group(0).strip() for m in ordered.finditer(check.stdout)]
    refused = [m.group(0).strip() for m in ordered.finditer(build.stdout + build.stderr)]
    assert len({line.split(":")[0] for line in reported}) == 4, reported  # four catalogs
    assert refused == reported
    assert build.returncode != 0 and not (tmp_path / "site").exists()


def test_an_error_crosses_a_worker_process_whole() -> None:
    """A language's failure comes back from the worker that built it as the same one line."""
    import pickle

    from rulesdoc.engine.scoring import GameError
    from rulesdoc.errors import Location, Refusal, RulesdocError

    for error in (
        RulesdocError("msgid 'x' is defined twice", Location("locales/da/LC_MESSAGES/messages.po", 12)),
        Refusal("2 error(s)", ["a.po:1: error: [markup] x", "b.po:2: error: [markup] y"]),
        GameError("round 3 has two winners", 3),
    ):
        back = pickle.loads(pickle.dumps(error))
        assert type(back) is type(error) and str(back) == str(error) and vars(back) == vars(error)
