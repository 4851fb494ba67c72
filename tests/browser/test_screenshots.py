"""``rulesdoc screenshots``: a picture of each message where it shows, left to right and right to left.

Run on a copy of the project with an Arabic catalog added as a maintainer would (`catalog init`,
then filled), and on Danish, a shipped catalog; the pictures come from Chromium as the command runs
it, each one checked as a PNG, the manifest against the catalog's own messages.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from support import copy_project
from support.newlang import fill

from rulesdoc.catalog import po
from rulesdoc.cli import main as cli
from rulesdoc.i18n import catalogs
from rulesdoc.site import screenshots

if TYPE_CHECKING:
    from playwright.sync_api import Browser

PNG = b"\x89PNG\r\n\x1a\n"
ARABIC = {"Counting points": "حساب النقاط", "In short": "باختصار"}


@pytest.fixture(scope="module")
def project(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Path:
    made = copy_project(tmp_path_factory.mktemp("shots") / "project")
    fill(catalogs.init(made / "locales", "ar"), theme="keep", words=ARABIC)
    return made


def take(project: Path, code: str, out: Path) -> tuple[list[Any], str]:
    """The command as a translator runs it (its own process: the session's Chromium is in this one)."""
    command = [sys.executable, "-m", "rulesdoc", "--root", str(project), "screenshots", "--lang", code]
    done = subprocess.run([*command, "--out", str(out)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads((out / screenshots.MANIFEST).read_text("utf-8")), done.stdout


def catalog_keys(project: Path, code: str) -> set[tuple[str, str | None]]:
    loaded = po.load(project / "locales" / code / "LC_MESSAGES" / "messages.po", project)
    return {po.key_of(message) for message in loaded.messages()}


@pytest.mark.parametrize("code", ["ar", "da"])
def test_every_message_on_a_page_has_its_picture(project: Path, code: str, tmp_path: Path) -> None:
    manifest, said = take(project, code, tmp_path / "shots")
    known = catalog_keys(project, code)
    assert len(manifest) > 30
    assert {"Counting points", "In short"} <= {entry["msgid"] for entry in manifest}
    assert {(entry["msgid"], entry["msgctxt"]) for entry in manifest} <= known
    assert {entry["page"] for entry in manifest} >= {"index.md", "scoring.md"}
    for entry in manifest:
        picture = (tmp_path / "shots" / entry["file"]).read_bytes()
        assert picture.startswith(PNG) and len(picture) > 100
    assert sorted(path.name for path in (tmp_path / "shots").iterdir()) == sorted(
        [screenshots.MANIFEST, *(entry["file"] for entry in manifest)]
    )
    assert f"{len(manifest)} messages pictured, " in said and " not on a page" in said


def test_a_picture_shows_the_translation_right_to_left(
    project: Path, browser: Browser, tmp_path: Path
) -> None:
    manifest, _ = take(project, "ar", tmp_path / "shots")
    entry = next(entry for entry in manifest if entry["msgid"] == "Counting points")
    assert entry["file"] == screenshots.file_name(("Counting points", None))  # the same name every run
    # The picture is of the element whose text is the translation: open the PNG and compare its
    # size with that element's, laid out on the page as the command laid it out.
    page = browser.new_page()
    try:
        page.set_content(f'<img src="data:image/png;base64,{_base64(tmp_path / "shots" / entry["file"])}">')
        width = page.eval_on_selector("img", "img => img.naturalWidth")
        from rulesdoc.i18n.translate import select_languages
        from rulesdoc.io.project import Project
        from rulesdoc.pages.render import Workspace

        workspace = Workspace.load(Project.at(project), required=["ar"])
        arabic = select_languages(workspace.languages, ["ar"])[0]
        kept: list[screenshots.MarkingTranslator] = []
        workspace.translator = lambda lang, verdicts: screenshots._kept(kept, lang, verdicts)
        rendered = next(p for p in workspace.render([arabic])["ar"].pages if p.name == "index.md")
        page.set_content(screenshots.page_html(rendered.text, arabic))
        index = kept[0].keys.index(("Counting points", None))
        element = page.locator(f'[{screenshots.MARK}="{index}"]').first
        assert element.inner_text() == ARABIC["Counting points"]
        assert page.eval_on_selector("html", "e => getComputedStyle(e).direction") == "rtl"
        assert abs(width - round(element.bounding_box()["width"])) <= 2  # type: ignore[index]
    finally:
        page.close()


def _base64(path: Path) -> str:
    import base64

    return base64.b64encode(path.read_bytes()).decode()


def test_a_language_without_a_catalog_is_one_line_and_nothing_written(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        cli.main(["--root", str(project), "screenshots", "--lang", "xx", "--out", str(tmp_path / "s")]) == 2
    )
    err = capsys.readouterr().err
    assert "no catalog for language 'xx'" in err and "Traceback" not in err and len(err.splitlines()) == 1
    assert not (tmp_path / "s").exists()


def test_without_playwright_the_command_says_what_to_install(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(screenshots.importlib.util, "find_spec", lambda name: None)
    assert (
        cli.main(["--root", str(project), "screenshots", "--lang", "da", "--out", str(tmp_path / "s")]) == 2
    )
    err = capsys.readouterr().err
    assert "rulesdoc[screenshots]" in err and len(err.splitlines()) == 1
    assert not (tmp_path / "s").exists()


def test_a_chromium_that_cannot_start_is_one_line_and_nothing_written(project: Path, tmp_path: Path) -> None:
    command = [sys.executable, "-m", "rulesdoc", "--root", str(project), "screenshots", "--lang", "da"]
    env = {**os.environ, "RULESDOC_CHROMIUM": str(tmp_path / "no-chromium")}
    done = subprocess.run([*command, "--out", str(tmp_path / "s")], capture_output=True, text=True, env=env)
    assert done.returncode == 2
    assert done.stderr.startswith("rulesdoc: error: Chromium could not take the screenshots")
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr
    assert not (tmp_path / "s").exists()


def test_with_a_built_site_the_themes_strings_are_pictured_in_the_theme(
    built_site: Path, tmp_path: Path
) -> None:
    from support import ROOT

    command = [sys.executable, "-m", "rulesdoc", "--root", str(ROOT), "screenshots", "--lang", "da"]
    done = subprocess.run(
        [*command, "--out", str(tmp_path / "shots"), "--site", str(built_site)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    manifest = json.loads((tmp_path / "shots" / screenshots.MANIFEST).read_text("utf-8"))
    theme = {entry["msgid"]: entry for entry in manifest if entry["msgctxt"] == "theme"}
    # The header's, the search box's, the skip link's (shown on focus), the footer's.
    assert {"Skip to content", "Search", "Select language", "Made with %(name)s"} <= set(theme)
    for entry in theme.values():
        assert entry["file"] == screenshots.file_name((entry["msgid"], "theme"))
        assert (tmp_path / "shots" / entry["file"]).read_bytes().startswith(PNG)
    # Text that shows only after a reader acts (search results) has no picture, and says so.
    assert "No matching documents" not in theme
    # Without --site, the command says how to picture them.
    plain = subprocess.run(
        [*command, "--out", str(tmp_path / "plain")], capture_output=True, text=True, check=False
    )
    assert plain.returncode == 0 and "--site DIR" in plain.stdout
    assert not any(
        entry["msgctxt"] == "theme"
        for entry in json.loads((tmp_path / "plain" / screenshots.MANIFEST).read_text("utf-8"))
    )
