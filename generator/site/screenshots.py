"""``rulesdoc screenshots``: a picture of each message where it shows on a language's pages.

The language's pages are rendered with a marking translator: every message a template asks for
is wrapped in ``<span data-rd-msg="N">``, N an index into the table of (msgid, msgctxt) the
render asked for (the text inside is the Translator's, escaped as on the published pages). The
marks exist only in this render, never in a published page. Each page's Markdown becomes HTML
with the site's Markdown extensions, opened in headless Chromium (no script, no request leaves
the page) with the language's ``lang`` and ``dir``, and the first visible element of each
message is pictured. Messages that show only in a title, an attribute or a script are counted
and left out.

With a built site (``--site``), the theme's messages are pictured too, in its themed pages and the
states a reader brings about there (:mod:`rulesdoc.site.theme_shots`). A theme message the site
never shows is named in the summary ("no picture: ...").
"""

from __future__ import annotations

import html
import importlib.util
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rulesdoc.catalog.po import Key
from rulesdoc.errors import RulesdocError, display_path
from rulesdoc.i18n.theme import THEME_CONTEXT
from rulesdoc.i18n.translate import Language, select_languages
from rulesdoc.i18n.verdicts import Verdict
from rulesdoc.io import folders
from rulesdoc.io.project import Project
from rulesdoc.pages.places import MARK, MarkingTranslator, markdown_html
from rulesdoc.pages.render import Workspace
from rulesdoc.site.shot import Shot, file_name
from rulesdoc.site.theme_shots import theme_shots

MANIFEST = "manifest.json"
DEBIAN_CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update"]


def page_html(markdown_text: str, language: Language) -> str:
    body = markdown_html(markdown_text)
    return (
        f'<!doctype html><html lang="{html.escape(language.tag)}" dir="{language.direction}">'
        '<head><meta charset="utf-8"><title>rulesdoc</title></head>'
        f'<body style="max-width:48rem;margin:1rem;font-family:sans-serif">{body}</body></html>'
    )


def _chromium() -> str | None:
    chosen = os.environ.get("RULESDOC_CHROMIUM")
    if chosen:
        return chosen
    return str(DEBIAN_CHROMIUM) if DEBIAN_CHROMIUM.is_file() else None  # else Playwright's own


def _shots_of_page(page: Any, keys: list[Key], done: dict[Key, Shot], name: str, out: Path) -> None:
    for element in page.query_selector_all(f"[{MARK}]"):
        key = keys[int(element.get_attribute(MARK))]
        if key in done or not element.is_visible():
            continue
        box = element.bounding_box()
        if box is None or box["width"] < 1 or box["height"] < 1:
            continue
        file = file_name(key)
        element.screenshot(path=str(out / file))
        done[key] = Shot(key, file, name, " ".join(element.inner_text().split()))


def take(project: Project, code: str, out: Path, say: Any, site: Path | None = None) -> None:
    """Write ``out`` whole (pictures and manifest.json) or leave it as it was.

    ``site``: a built site (``make site``) whose themed pages picture the theme's strings too."""
    if importlib.util.find_spec("playwright") is None:
        raise RulesdocError("screenshots need Playwright: pip install 'rulesdoc[screenshots]'")
    from playwright.sync_api import Error, sync_playwright

    workspace = Workspace.load(project, required=[code])
    language = select_languages(workspace.languages, [code])[0]
    translators: list[MarkingTranslator] = []
    # Kept: the pages' marks index into the table of the translator the render made.
    workspace.translator = lambda lang, verdicts: _kept(translators, lang, verdicts)
    result = workspace.render([language])[language.code]
    if result.error is not None:
        raise result.error
    keys = translators[0].keys
    done: dict[Key, Shot] = {}
    with folders.replacing(out, f"rulesdoc: another run is writing {display_path(out)}; waiting") as staged:
        try:
            with sync_playwright() as driver:
                browser = driver.chromium.launch(executable_path=_chromium(), args=CHROMIUM_ARGS)
                context = browser.new_context(
                    java_script_enabled=False, viewport={"width": 900, "height": 700}
                )
                context.route("**/*", lambda route: route.abort())
                page = context.new_page()
                for rendered in result.pages:
                    page.set_content(page_html(rendered.text, language))
                    _shots_of_page(page, keys, done, rendered.name, staged)
                if site is not None:
                    done.update(theme_shots(browser, project, workspace, language, site, staged))
                browser.close()
        except Error as error:
            first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            raise RulesdocError(f"Chromium could not take the screenshots: {first}") from None
        entries = [shot.entry() for shot in done.values()]
        (staged / MANIFEST).write_text(json.dumps(entries, ensure_ascii=False, indent=2) + "\n", "utf-8")
    left = [key for key in dict.fromkeys([*workspace.template_keys, *keys]) if key not in done]
    if site is None and any(key[1] == THEME_CONTEXT for key in left):
        say(
            f"{display_path(out)}: the theme's strings are pictured with --site DIR, a built site (make site)"
        )
    # With a site, every theme string left is named: none is skipped without a word.
    unseen = [key for key in left if key[1] == THEME_CONTEXT] if site is not None else []
    left = [key for key in left if key not in unseen]
    sample = ", ".join(repr(key[0]) for key in left[:3]) + (" …" if len(left) > 3 else "")
    say(
        f"{display_path(out)}: {len(done)} messages pictured, {len(left)} not on a page"
        + (f": {sample}" if left else "")
        + (f"; no picture: {', '.join(repr(key[0]) for key in unseen)}" if unseen else "")
    )


def _kept(
    kept: list[MarkingTranslator], language: Language, verdicts: Mapping[Key, Verdict] | None
) -> MarkingTranslator:
    made = MarkingTranslator(language, verdicts)
    kept.append(made)
    return made
