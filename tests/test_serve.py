"""The live preview: `mkdocs serve` shows every language and re-renders on edits, bad ones included.

One server runs for the module, on a copy of the project in a temporary folder (the
``rulesdoc`` plugin is an installed entry point, so it works from any folder). Every
test edits the copy, waits for the rebuild and reads the pages over HTTP; the bad
edits check that the terminal shows the one-line error naming the file and line,
that the server keeps serving the last good pages, and that fixing the file recovers.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

import pytest
from support import PUBLISHED, copy_project, lint_error_lines

from rulesdoc.errors import RulesdocError
from rulesdoc.i18n.translate import FALLBACK_OPEN as ENGLISH  # the mark of a fallback: lang="en"
from rulesdoc.io.project import Project
from rulesdoc.spec.rules import load_rules

pytestmark = pytest.mark.slow

START_TIMEOUT = 120.0  # the first build of six languages
REBUILD_TIMEOUT = 60.0  # one rebuild is a few seconds; generous for a loaded CI machine
DANISH_PO = Path("locales/da/LC_MESSAGES/messages.po")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Preview:
    """A `mkdocs serve` subprocess on a project folder, its terminal output in a file."""

    def __init__(self, root: Path, log_path: Path) -> None:
        self.root = root
        self.port = free_port()
        self.log_path = log_path
        self._log: IO[bytes] = log_path.open("wb")
        env = {**os.environ, "RULESDOC_STRICT": "false"}  # as `make serve`
        self.process = subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{self.port}"],
            cwd=root, env=env, stdout=self._log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
        )  # fmt: skip

    def url(self, code: str, page: str = "scoring.html") -> str:
        folder = "" if code == "en" else f"{code}/"
        return f"http://127.0.0.1:{self.port}/{folder}{page}"

    def get(self, code: str, page: str = "scoring.html") -> tuple[int, str]:
        try:
            with urllib.request.urlopen(self.url(code, page), timeout=10) as response:
                return response.status, response.read().decode("utf-8")
        except urllib.error.HTTPError as error:
            return error.code, ""
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return 0, ""

    def output(self, since: int = 0) -> str:
        return self.log_path.read_bytes()[since:].decode("utf-8", "replace")

    def mark(self) -> int:
        """A position in the terminal output, to look only at what comes after it."""
        return self.log_path.stat().st_size

    def wait_for(self, what: str, check: Callable[[], bool], timeout: float = REBUILD_TIMEOUT) -> float:
        """Poll until ``check()`` holds; returns the seconds it took."""
        start = time.monotonic()
        while not check():
            if self.process.poll() is not None:
                pytest.fail(f"mkdocs serve exited ({self.process.returncode}) waiting for {what}:\n"
                            + self.output()[-4000:])  # fmt: skip
            if time.monotonic() - start > timeout:
                pytest.fail(f"timed out after {timeout:.0f} s waiting for {what}; server output:\n"
                            + self.output()[-4000:])  # fmt: skip
            time.sleep(0.2)
        return time.monotonic() - start

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # serve's own shutdown: removes its temporary site
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=15)
        self._log.close()


@pytest.fixture(scope="module")
def preview(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Preview]:
    root = copy_project(tmp_path_factory.mktemp("preview") / "project")
    server = Preview(root, root.parent / "serve.log")
    try:
        server.wait_for("/da/scoring.html", lambda: server.get("da")[0] == 200, timeout=START_TIMEOUT)
        yield server
    finally:
        server.stop()


# ---------------------------------------------------------------- reading the pages


def in_short(html: str) -> str:
    """The "In short" paragraph: the first paragraph after the page's first section heading."""
    found = re.search(r"</h2>\s*<p>(.*?)</p>", html, re.S)
    assert found, "no paragraph after the first <h2>"
    return found.group(1)


def joker_cell(html: str) -> str:
    """The points of the first row (the joker) of the card values table."""
    found = re.search(r"<tbody>\s*<tr>\s*<td[^>]*>.*?</td>\s*<td[^>]*>(.*?)</td>", html, re.S)
    assert found, "no card values table"
    return found.group(1).strip()


def shows_joker(html: str, value: int) -> bool:
    return joker_cell(html) == str(value) and re.search(rf"(?<!\d){value}(?!\d)", in_short(html)) is not None


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert text.count(old) == 1, f"{old!r} should occur once in {path}"
    path.write_text(text.replace(old, new), "utf-8")


def set_joker(root: Path, value: int) -> None:
    path = root / "rules.yaml"
    text, count = re.subn(r"(?m)^(  joker: )\d+", rf"\g<1>{value}", path.read_text("utf-8"))
    assert count == 1, "card_values.joker not found in rules.yaml"
    path.write_text(text, "utf-8")


def rebuild_with_joker(preview: Preview, value: int) -> float:
    set_joker(preview.root, value)
    return preview.wait_for(f"joker = {value} on /da/scoring.html",
                            lambda: shows_joker(preview.get("da")[1], value))  # fmt: skip


def expected_error(root: Path, produce: Callable[[], object], monkeypatch: pytest.MonkeyPatch) -> str:
    """The one-line error the generator gives for the copy, paths relative to it as in the server."""
    with monkeypatch.context() as m:
        m.chdir(root)
        with pytest.raises(RulesdocError) as raised:
            produce()
    return str(raised.value)


def error_lines(output: str, message: str) -> list[str]:
    return [line for line in output.splitlines() if message in line]


def assert_once_a_rebuild(output: str, message: str) -> None:
    """Each rebuild reports the error in one line (a busy machine's watcher may see one save as
    two changes, and rebuild twice): no second report from a build that went on."""
    rebuilds = output.count("Building documentation")
    assert rebuilds >= 1 and len(error_lines(output, message)) == rebuilds, output


def assert_last_good_pages(preview: Preview, joker: int) -> None:
    for code in PUBLISHED:
        status, html = preview.get(code)
        assert status == 200, f"{preview.url(code)} is no longer served ({status})"
        assert f'<html lang="{code}"' in html
    assert shows_joker(preview.get("da")[1], joker), "the Danish page should still show the last good value"


# ---------------------------------------------------------------- tests


def test_serves_every_language(preview: Preview) -> None:
    for code in PUBLISHED:
        for page in ("index.html", "scoring.html", "translation-status.html"):
            status, html = preview.get(code, page)
            assert status == 200, f"{preview.url(code, page)}: {status}"
            assert f'<html lang="{code}"' in html, preview.url(code, page)


def test_editing_rules_rerenders_without_a_restart(preview: Preview) -> None:
    assert shows_joker(preview.get("da")[1], 20), "the copy starts with the seed rules' joker value"
    seconds = rebuild_with_joker(preview, 23)
    print(f"rules.yaml edit shown after {seconds:.1f} s")
    for code in PUBLISHED:
        assert joker_cell(preview.get(code)[1]) == "23", code


def test_editing_a_template_and_a_catalog_rerenders(preview: Preview) -> None:
    template = preview.root / "templates/scoring.md.j2"
    template.write_text(template.read_text("utf-8") + "\n<!-- preview-check -->\n", "utf-8")
    edit(preview.root / DANISH_PO, 'msgstr "Kort fortalt"', 'msgstr "Kort sagt"')
    preview.wait_for("the template and catalog edits", lambda: (
        "preview-check" in (html := preview.get("da")[1]) and ">Kort sagt<" in html
    ))  # fmt: skip
    assert "preview-check" in preview.get("pt")[1], "a template edit re-renders every language"


def test_a_theme_string_edit_reaches_the_rebuilt_pages(preview: Preview) -> None:
    """A theme string is compiled into the language's partial, in the environment the preview
    keeps: the rebuild must compile that partial again (Jinja's auto_reload), or every page goes
    on saying the old words."""
    catalog = preview.root / DANISH_PO
    good = catalog.read_text("utf-8")
    assert "Gå til indholdet" in preview.get("da")[1]  # the skip link, on every page
    try:
        edit(catalog, 'msgstr "Gå til indholdet"', 'msgstr "Spring til indholdet"')
        seconds = preview.wait_for(
            "the new skip link", lambda: "Spring til indholdet" in preview.get("da")[1]
        )
        print(f"theme string edit shown after {seconds:.1f} s")
        assert "Spring til indholdet" in preview.get("da", "index.html")[1]
        assert "Spring til indholdet" not in preview.get("nl")[1]  # another language's partial kept
    finally:
        catalog.write_text(good, "utf-8")
    preview.wait_for("the old skip link again", lambda: "Gå til indholdet" in preview.get("da")[1])


def test_a_catalog_edit_updates_every_languages_status_page(preview: Preview) -> None:
    """The preview rebuilds only the languages an edit changes: a new count is such a change
    for every language's status page, a changed sentence only for its own language."""
    catalog = preview.root / DANISH_PO
    good = catalog.read_text("utf-8")

    def danish_row(html: str) -> str:
        found = re.search(r"<td><a [^>]*>Dansk</a> \(<code>da</code>\)</td>(.*?)</tr>", html, re.S)
        return found.group(1) if found else ""

    before = danish_row(preview.get("nl", "translation-status.html")[1])
    try:
        edit(catalog, 'msgstr "Spillere"', 'msgstr ""')
        preview.wait_for("the new count on the Dutch status page",
                         lambda: danish_row(preview.get("nl", "translation-status.html")[1]) not in ("", before))  # fmt: skip
        assert ENGLISH in preview.get("da")[1]
    finally:
        catalog.write_text(good, "utf-8")
    preview.wait_for("the old count again",
                     lambda: danish_row(preview.get("nl", "translation-status.html")[1]) == before)  # fmt: skip


def test_yaml_error_keeps_last_good_pages_until_fixed(
    preview: Preview, monkeypatch: pytest.MonkeyPatch
) -> None:
    rebuild_with_joker(preview, 24)
    rules = preview.root / "rules.yaml"
    good = rules.read_text("utf-8")
    line = good.splitlines().index("  joker: 24") + 1
    mark = preview.mark()
    try:
        edit(rules, "  joker: 24\n", "  joker: 25: oops\n")
        message = expected_error(preview.root, lambda: load_rules("rules.yaml"), monkeypatch)
        assert message.startswith(f"rules.yaml:{line}: YAML syntax error")
        preview.wait_for(f"the error {message!r}", lambda: bool(error_lines(preview.output(mark), message)))
        time.sleep(1.0)  # let a wrongly continuing build do its damage before looking
        output = preview.output(mark)
        assert "Traceback" not in output, output
        assert_once_a_rebuild(output, message)
        assert_last_good_pages(preview, 24)
    finally:
        rules.write_text(good.replace("  joker: 24\n", "  joker: 26\n"), "utf-8")
    preview.wait_for("joker = 26 after the fix", lambda: shows_joker(preview.get("da")[1], 26))


def check_error(root: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The first error line `rulesdoc check` reports for the copy (paths relative to it, as in the server)."""
    with monkeypatch.context() as m:
        m.chdir(root)
        lines = lint_error_lines(Project.at(Path(".")))
    assert lines, "check finds no error"
    return lines[0]


def test_broken_placeholder_shows_english_and_warns_until_fixed(
    preview: Preview, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The preview follows the one policy: the refused translation shows in English (lang="en"),
    with check's own words in the terminal; everything else keeps following the edits."""
    rebuild_with_joker(preview, 27)
    catalog = preview.root / DANISH_PO
    good = catalog.read_text("utf-8")
    mark = preview.mark()
    try:
        edit(catalog, "jokeren %(joker)s,", "jokeren %(jokr)s,")
        message = check_error(preview.root, monkeypatch)
        assert re.match(rf"{re.escape(str(DANISH_PO))}:\d+: error: \[placeholders\]", message), message
        preview.wait_for(f"the warning {message!r}", lambda: bool(error_lines(preview.output(mark), message)))
        preview.wait_for(
            "the English sentence", lambda: f"{ENGLISH}The winner of the round" in preview.get("da")[1]
        )
        assert shows_joker(preview.get("da")[1], 27)
        # An edit elsewhere while the catalog is still broken shows at once ...
        set_joker(preview.root, 28)
        preview.wait_for("joker = 28 in English", lambda: shows_joker(preview.get("da")[1], 28))
        assert f"{ENGLISH}The winner of the round" in preview.get("da")[1]
        output = preview.output(mark)
        assert "Traceback" not in output, output
    finally:
        catalog.write_text(good, "utf-8")
    # ... and fixing the catalog brings the Danish sentence back.
    preview.wait_for("Danish again", lambda: ENGLISH not in in_short(preview.get("da")[1]))
    assert_last_good_pages(preview, 28)


@pytest.mark.parametrize("broken", ["rules.yaml", "catalog"])
def test_build_still_fails_on_a_bad_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, broken: str
) -> None:
    """The preview's leniency is for `serve` only: `mkdocs build` stops, writing nothing."""
    root = copy_project(tmp_path / "project")
    if broken == "rules.yaml":
        edit(root / "rules.yaml", "  joker: 20\n", "  joker: 20: oops\n")
        message = expected_error(root, lambda: load_rules("rules.yaml"), monkeypatch)
    else:
        edit(root / DANISH_PO, "jokeren %(joker)s,", "jokeren %(jokr)s,")
        message = check_error(root, monkeypatch)  # the strict build refuses it in check's words
    out = tmp_path / "site"
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
        cwd=root, env={**os.environ}, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert error_lines(output, message), output
    assert "Traceback" not in output, output
    assert not (out / "scoring.html").exists(), "nothing is written when an input is bad"


# ---------------------------------------------------------------- inputs built to hurt (issue 10)


def prepare_error(root: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The one-line error the preview's rebuild gives for the copy (paths relative to it)."""
    from rulesdoc.site.languages import prepare
    from rulesdoc.site.options import site_options

    def rebuild() -> object:
        return prepare(Project.at(Path(".")), list(site_options(Path("mkdocs.yml")).languages), strict=False)

    return expected_error(root, rebuild, monkeypatch)


def break_with_huge_integer(root: Path) -> Callable[[], None]:
    rules = root / "rules.yaml"
    good = rules.read_text("utf-8")
    text, count = re.subn(r"(?m)^(  joker: )\d+", r"\g<1>12345678901234567890123456", good)
    assert count == 1
    rules.write_text(text, "utf-8")
    return lambda: rules.write_text(good, "utf-8")


def break_with_bad_charset(root: Path) -> Callable[[], None]:
    catalog = root / DANISH_PO
    good = catalog.read_text("utf-8")
    edit(catalog, "charset=UTF-8", "charset=klingon")
    return lambda: catalog.write_text(good, "utf-8")


def break_with_a_folder_not_cldr(root: Path) -> Callable[[], None]:
    """A new language folder whose name is markup, not a CLDR code; moved in whole (one event)."""
    name = 'da.x" onmouseover="alert(1)'
    staged = root.parent / "staged-language"
    (staged / "LC_MESSAGES").mkdir(parents=True, exist_ok=True)
    (staged / "LC_MESSAGES" / "messages.po").write_bytes((root / DANISH_PO).read_bytes())
    os.rename(staged, root / "locales" / name)
    return lambda: shutil.rmtree(root / "locales" / name)


def break_by_removing_rules(root: Path) -> Callable[[], None]:
    """rules.yaml gone (a branch switch): MkDocs once aborted on its `watch:` path and hung."""
    rules = root / "rules.yaml"
    aside = root.parent / "rules.yaml.away"
    os.rename(rules, aside)
    return lambda: os.rename(aside, rules)


def break_with_deep_glossary(root: Path) -> Callable[[], None]:
    """A glossary nested 2000 lists deep: once a RecursionError the preview swallowed."""
    glossary = root / "locales" / "da" / "glossary.yaml"
    good = glossary.read_bytes() if glossary.exists() else None
    glossary.write_text("concept:\n  " + "[" * 2000 + "]" * 2000 + "\n", "utf-8")
    return lambda: glossary.write_bytes(good) if good is not None else glossary.unlink()


@pytest.mark.parametrize(
    ("breaks", "where", "joker"),
    [
        (break_with_huge_integer, "rules.yaml", 30),
        (break_by_removing_rules, "rules.yaml", 33),
        (break_with_deep_glossary, "locales/da/glossary.yaml", 34),
        (break_with_bad_charset, str(DANISH_PO), 31),
        (break_with_a_folder_not_cldr, 'locales/da.x" onmouseover="alert(1)/LC_MESSAGES/messages.po', 32),
    ],
    ids=["huge-integer", "rules-removed", "deep-glossary", "bad-charset", "folder-not-cldr"],
)
def test_hostile_input_keeps_last_good_pages_until_fixed(
    preview: Preview,
    monkeypatch: pytest.MonkeyPatch,
    breaks: Callable[[Path], Callable[[], None]],
    where: str,
    joker: int,
) -> None:
    """No hanging request, no traceback: the one line in the terminal, the last good pages served."""
    rebuild_with_joker(preview, joker)
    mark = preview.mark()
    fix = breaks(preview.root)
    try:
        message = prepare_error(preview.root, monkeypatch)
        assert message.startswith(f"{where}:"), message
        preview.wait_for(f"the error {message!r}", lambda: bool(error_lines(preview.output(mark), message)))
        time.sleep(1.0)  # let a wrongly continuing build do its damage before looking
        output = preview.output(mark)
        assert "Traceback" not in output, output
        assert_once_a_rebuild(output, message)
        assert_last_good_pages(preview, joker)
    finally:
        fix()
    set_joker(preview.root, joker + 10)
    preview.wait_for(
        f"joker = {joker + 10} after the fix", lambda: shows_joker(preview.get("da")[1], joker + 10)
    )
    assert_last_good_pages(preview, joker + 10)


def preview_rebuilds() -> Callable[[], list[str]]:
    """The preview's rebuild of the project in the working folder, one memory across calls: each
    call returns its warnings (its errors among them, as the preview logs them)."""
    from rulesdoc.pages.rebuild_memory import Memory
    from rulesdoc.site.languages import prepare
    from rulesdoc.site.options import site_options

    memory = Memory()

    def rebuild() -> list[str]:
        codes = list(site_options(Path("mkdocs.yml")).languages)
        return prepare(Project.at(Path(".")), codes, strict=False, memory=memory).warnings

    return rebuild


def test_each_rebuild_reports_errors_of_languages_it_keeps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The preview's memory keeps a language's report with its pages: a second rebuild of the same
    broken input (a busy watcher sees one save as two changes) reports the error again, and a
    rebuild that failed on an input is not remembered as a good one."""
    root = copy_project(tmp_path / "project")
    monkeypatch.chdir(root)
    rebuild = preview_rebuilds()

    assert not [line for line in rebuild() if ": error: " in line]
    edit(root / DANISH_PO, "jokeren %(joker)s,", "jokeren %(jokr)s,")
    for _ in range(2):  # the second rebuild renders no language again
        errors = [line for line in rebuild() if ": error: [placeholders]" in line]
        assert errors and all(line.startswith(str(DANISH_PO)) for line in errors), errors
    restore = break_with_deep_glossary(root)
    for _ in range(2):
        with pytest.raises(RulesdocError) as raised:
            rebuild()
        assert str(raised.value).startswith("locales/da/glossary.yaml:"), raised.value
    restore()
    assert [line for line in rebuild() if ": error: [placeholders]" in line]


def test_a_catalog_cut_at_an_entry_boundary_keeps_the_last_good_pages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 32, item 8: a catalog saved half-written, cut where an entry ends, parsed as a smaller
    valid one: 48 English fallbacks served instead of the last good pages, with the advice
    `make update`, which would have made the loss permanent."""
    root = copy_project(tmp_path / "project")
    monkeypatch.chdir(root)
    rebuild = preview_rebuilds()

    assert not [line for line in rebuild() if ": error: " in line]
    catalog = root / DANISH_PO
    whole = catalog.read_bytes()
    cut = whole.index(b"\n\n", len(whole) * 3 // 4) + 2  # where an entry ends, a quarter from the end
    catalog.write_bytes(whole[:cut])
    for _ in range(2):  # the last good version stays the reference until the file is whole again
        with pytest.raises(RulesdocError) as raised:
            rebuild()
        message = str(raised.value)
        assert message.startswith(f"{DANISH_PO}: "), message
        assert "translated entries of the last good version are gone" in message
        assert "not `make update`" in message
    catalog.write_bytes(whole)
    assert not [line for line in rebuild() if ": error: " in line]
