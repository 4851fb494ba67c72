"""``rulesdoc screenshots``: a picture of each message where it shows on a language's pages.

The language's pages are rendered with a marking translator: every message a template asks for
is wrapped in ``<span data-rd-msg="N">``, N an index into the table of (msgid, msgctxt) the
render asked for (the text inside is the Translator's, escaped as on the published pages). The
marks exist only in this render, never in a published page. Each page's Markdown becomes HTML
with the site's Markdown extensions, opened in headless Chromium (no script, no request leaves
the page) with the language's ``lang`` and ``dir``, and the first visible element of each
message is pictured. Messages that show only in a title, an attribute or a script are counted
and left out.
"""

from __future__ import annotations

import hashlib
import html
import importlib.util
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulesdoc.errors import RulesdocError, display_path
from rulesdoc.i18n.po import Key
from rulesdoc.i18n.translate import Language, Translator, select_languages
from rulesdoc.i18n.verdicts import Verdict
from rulesdoc.io import folders
from rulesdoc.io.project import Project
from rulesdoc.pages.render import Workspace

MARK = "data-rd-msg"
MANIFEST = "manifest.json"
DEBIAN_CHROMIUM = Path("/usr/bin/chromium")
EXTENSIONS = ["tables", "attr_list", "toc", "pymdownx.blocks.caption"]  # mkdocs.yml's
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update"]


class MarkingTranslator(Translator):
    """The Translator, each message's text wrapped in an element naming the message."""

    def __init__(self, language: Language, verdicts: Mapping[Key, Verdict] | None = None) -> None:
        super().__init__(language, verdicts)
        self.keys: list[Key] = []
        self._index: dict[Key, int] = {}

    def _wrap(self, key: Key, text: str) -> str:
        index = self._index.setdefault(key, len(self.keys))
        if index == len(self.keys):
            self.keys.append(key)
        return f'<span {MARK}="{index}">{text}</span>'  # an int attribute, escaped text

    def gettext(self, message: str) -> str:
        return self._wrap((message, None), super().gettext(message))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._wrap((singular, None), super().ngettext(singular, plural, n))

    def pgettext(self, context: str, message: str) -> str:
        return self._wrap((message, context), super().pgettext(context, message))

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self._wrap((singular, context), super().npgettext(context, singular, plural, n))


@dataclass(frozen=True)
class Shot:
    key: Key
    file: str
    page: str

    def entry(self) -> dict[str, str | None]:
        return {"msgctxt": self.key[1], "msgid": self.key[0], "file": self.file, "page": self.page}


def file_name(key: Key) -> str:
    """The same message, the same file, in every run: a hash of msgctxt and msgid."""
    text = f"{key[1] or ''}\x04{key[0]}".encode()
    return hashlib.sha256(text).hexdigest()[:16] + ".png"


def page_html(markdown_text: str, language: Language) -> str:
    import markdown

    body = markdown.markdown(markdown_text, extensions=EXTENSIONS)
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
        done[key] = Shot(key, file, name)


def take(project: Project, code: str, out: Path, say: Any) -> None:
    """Write ``out`` whole (pictures and manifest.json) or leave it as it was."""
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
                browser.close()
        except Error as error:
            first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            raise RulesdocError(f"Chromium could not take the screenshots: {first}") from None
        entries = [shot.entry() for shot in done.values()]
        (staged / MANIFEST).write_text(json.dumps(entries, ensure_ascii=False, indent=2) + "\n", "utf-8")
    left = [key for key in dict.fromkeys([*workspace.template_keys, *keys]) if key not in done]
    sample = ", ".join(repr(key[0]) for key in left[:3]) + (" …" if len(left) > 3 else "")
    say(
        f"{display_path(out)}: {len(done)} messages pictured, {len(left)} not on a page"
        + (f": {sample}" if left else "")
    )


def _kept(
    kept: list[MarkingTranslator], language: Language, verdicts: Mapping[Key, Verdict] | None
) -> MarkingTranslator:
    made = MarkingTranslator(language, verdicts)
    kept.append(made)
    return made
