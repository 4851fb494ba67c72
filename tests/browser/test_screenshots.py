"""``rulesdoc screenshots``: a picture of each message where it shows, left to right and right to left.

Run on a copy of the project with an Arabic catalog added as a maintainer would (`catalog init`,
then filled), and on Danish, a shipped catalog; the pictures come from Chromium as the command runs
it, each one checked as a PNG, the manifest against the catalog's own messages.
"""

from __future__ import annotations

import ast
import json
import os
import re
import struct
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from support import copy_project
from support.newlang import build_site, fill

from rulesdoc.catalog import po
from rulesdoc.cli import main as cli
from rulesdoc.i18n import catalogs
from rulesdoc.site import screenshots, shot

if TYPE_CHECKING:
    from playwright.sync_api import Browser

PNG = b"\x89PNG\r\n\x1a\n"
ARABIC = {"Counting points": "حساب النقاط", "In short": "باختصار"}
# The theme's strings that show only after a reader acts (or on the 404 page, or a partly English
# page): the search's, the 404 heading, the notice. Our own are in English in Material's Arabic.
AFTER_ACTS = (
    "Initializing search",
    "Type to start searching",
    "No matching documents",
    "1 matching document",
    "# matching documents",
    "1 more on this page",
    "# more on this page",
    "Missing",
    "404 - Not found",
    "Parts of this page are not translated yet and are shown in English.",
    "This page is not translated yet and is shown in English.",
    "Help translate them",
)
# ... and where the theme's features show them: a code block copied, the page scrolled back up.
FEATURES = ("Copied to clipboard", "Back to top")
THEME_ARABIC = {
    "404 - Not found": "404 - الصفحة غير موجودة",
    "Parts of this page are not translated yet and are shown in English.": "أجزاء من هذه الصفحة لم تترجم بعد.",
    "This page is not translated yet and is shown in English.": "هذه الصفحة لم تترجم بعد.",
    "Help translate them": "ساعد في ترجمتها",
}


@pytest.fixture(scope="module")
def project(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Path:
    made = copy_project(tmp_path_factory.mktemp("shots") / "project")
    fill(catalogs.init(made / "locales", "ar"), theme="keep", words=ARABIC)
    return made


@pytest.fixture(scope="module")
def featured(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """An Arabic project whose theme shows more, and its built site: code blocks' copy button and
    back-to-top on, a code block on the home page, and "In short" untranslated (the scoring page
    shows the notice of a partly English page, as a catalog that lags behind makes it)."""
    made = copy_project(tmp_path_factory.mktemp("featured") / "project")
    catalog = catalogs.init(made / "locales", "ar")
    fill(catalog, theme="keep", words={**ARABIC, **THEME_ARABIC})
    text = catalog.read_text("utf-8")
    assert text.count('msgid "In short"\nmsgstr "باختصار"') == 1
    catalog.write_text(
        text.replace('msgid "In short"\nmsgstr "باختصار"', 'msgid "In short"\nmsgstr ""'), "utf-8"
    )
    config = made / "mkdocs.yml"
    features = "    - content.tooltips\n"
    assert config.read_text("utf-8").count(features) == 1
    more = "    - content.code.copy\n    - navigation.top\n"
    config.write_text(config.read_text("utf-8").replace(features, features + more), "utf-8")
    home = made / "templates" / "index.md.j2"
    home.write_text(home.read_text("utf-8") + "\n```\nrulesdoc screenshots --lang ar\n```\n", "utf-8")
    site = made.parent / "site"
    built = build_site(made, site)
    assert built.returncode == 0, built.stdout + built.stderr  # the gap is a warning
    return made, site


def take(project: Path, code: str, out: Path, site: Path | None = None) -> tuple[list[Any], str]:
    """The command as a translator runs it (its own process: the session's Chromium is in this one)."""
    command = [sys.executable, "-m", "rulesdoc", "--root", str(project), "screenshots", "--lang", code]
    command += ["--site", str(site)] if site is not None else []
    done = subprocess.run([*command, "--out", str(out)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads((out / screenshots.MANIFEST).read_text("utf-8")), done.stdout


def catalog_keys(project: Path, code: str) -> set[tuple[str, str | None]]:
    return set(translations(project, code))


def translations(project: Path, code: str) -> dict[tuple[str, str | None], str]:
    loaded = po.load(project / "locales" / code / "LC_MESSAGES" / "messages.po", project)
    return {po.key_of(message): str(message.string) for message in loaded.messages()}


def assert_pictured(
    manifest: list[Any], out: Path, project: Path, code: str, msgids: tuple[str, ...]
) -> None:
    """Each theme message has a picture of some size, of an element that shows its translation
    (with a number other than 1 where a counted message's "#" is)."""
    translated = translations(project, code)
    theme = {entry["msgid"]: entry for entry in manifest if entry["msgctxt"] == "theme"}
    for msgid in msgids:
        assert msgid in theme, f"{code}: no picture of {msgid!r}"
        picture = (out / theme[msgid]["file"]).read_bytes()
        assert picture.startswith(PNG)
        width, height = struct.unpack(">II", picture[16:24])  # the IHDR chunk's
        assert width >= 8 and height >= 8, (msgid, width, height)
        head, counted, tail = " ".join(translated[(msgid, "theme")].split()).partition("#")
        shown = theme[msgid]["text"]
        if counted and "#" in msgid:
            found = re.fullmatch(re.escape(head) + r"(\d+)" + re.escape(tail), shown)
            assert found is not None and found.group(1) != "1", (msgid, shown)
        else:
            assert shown == head, (msgid, shown)


def no_picture(said: str) -> set[str]:
    """The theme strings the summary names as having no picture."""
    names = said.strip().partition("; no picture: ")[2]
    return set(ast.literal_eval(f"({names},)")) if names else set()


def theme_keys(project: Path, code: str) -> set[str]:
    return {msgid for msgid, context in translations(project, code) if context == "theme"}


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
    assert entry["file"] == shot.file_name(("Counting points", None))  # the same name every run
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
        assert entry["file"] == shot.file_name((entry["msgid"], "theme"))
        assert (tmp_path / "shots" / entry["file"]).read_bytes().startswith(PNG)
    # What shows only after a reader acts, on the 404 page, or in the notice of a partly English
    # page (no Danish page has one: it is pictured as the build writes it).
    assert_pictured(manifest, tmp_path / "shots", ROOT, "da", AFTER_ACTS)
    # The features this site leaves off have no picture, and the summary names them all.
    said = done.stdout
    assert no_picture(said) == theme_keys(ROOT, "da") - set(theme) >= set(FEATURES)
    assert f"{len(manifest)} messages pictured, " in said
    # Without --site, the command says how to picture them.
    plain = subprocess.run(
        [*command, "--out", str(tmp_path / "plain")], capture_output=True, text=True, check=False
    )
    assert plain.returncode == 0 and "--site DIR" in plain.stdout
    assert not any(
        entry["msgctxt"] == "theme"
        for entry in json.loads((tmp_path / "plain" / screenshots.MANIFEST).read_text("utf-8"))
    )


def test_right_to_left_what_shows_after_a_reader_acts_is_pictured(
    featured: tuple[Path, Path], tmp_path: Path
) -> None:
    project, site = featured
    manifest, said = take(project, "ar", tmp_path / "shots", site)
    assert_pictured(manifest, tmp_path / "shots", project, "ar", AFTER_ACTS + FEATURES)
    assert {"1 matching document", "Copied to clipboard"} <= {
        e["msgid"] for e in manifest if e["page"] == "index.md"
    }
    pages = {entry["msgid"]: entry["page"] for entry in manifest}
    assert pages["404 - Not found"] == "404.html"
    assert pages[AFTER_ACTS[9]] == "scoring.md"  # the notice where the catalog's gap puts it
    # Only the version selector (no versions) and the footer's links (navigation.footer is off).
    pictured = {entry["msgid"] for entry in manifest if entry["msgctxt"] == "theme"}
    assert no_picture(said) == theme_keys(project, "ar") - pictured
    assert "Select version" in no_picture(said) and not no_picture(said) & set(AFTER_ACTS + FEATURES)
    assert f"{len(manifest)} messages pictured, " in said
