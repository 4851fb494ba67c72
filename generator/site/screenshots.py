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

import contextlib
import functools
import hashlib
import html
import http.server
import importlib.util
import json
import os
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
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

MANIFEST = "manifest.json"
DEBIAN_CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update"]


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
        done[key] = Shot(key, file, name)


# In a themed page: the first element the page shows whose own text is a theme message's, or
# whose title, aria-label, placeholder or alt is (then it, or its nearest ancestor the page shows)
# gets the attribute THEME_MARK; the answer is whether one was found. Text that shows only after
# a reader acts (search results, the clipboard's "Copied") finds no element shown.
THEME_MARK = "data-rd-theme"
_FIND_THEME_TEXT = r"""([text, mark]) => {
    const attributes = ["title", "aria-label", "placeholder", "alt"];
    const norm = s => (s || "").split(/\s+/).filter(Boolean).join(" ");
    // Shown: of some size, visible, and on top where it lies (not clipped away or covered).
    const shown = e => {
        let box = e.getBoundingClientRect();
        if (box.width < 8 || box.height < 8 || getComputedStyle(e).visibility === "hidden") return false;
        e.scrollIntoView({block: "center", inline: "center"});
        box = e.getBoundingClientRect();
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return hit !== null && (e.contains(hit) || hit.contains(e));
    };
    for (const element of document.body.querySelectorAll("*")) {
        const own = attributes.some(name => norm(element.getAttribute(name)) === text);
        const inner = norm(element.textContent) === text
            && ![...element.children].some(child => norm(child.textContent) === text);
        if (!own && !inner) continue;
        if (document.activeElement && document.activeElement !== document.body) document.activeElement.blur();
        // A skip link shows only while it has the focus.
        if (element.matches("a[href]")) element.focus({preventScroll: true});
        // Its own text must show; a label (title, aria-label...) shows on the control it names,
        // or on the nearest part of the page that shows.
        for (let at = element; at && at !== document.body; at = inner ? null : at.parentElement) {
            if (shown(at)) { at.setAttribute(mark, ""); return true; }
        }
    }
    return false;
}"""


def _site_page(site: Path, language: Language, name: str, directory_urls: bool) -> Path:
    from rulesdoc.site.languages import language_root, page_url

    url = language_root(language) + page_url(name, directory_urls)
    return site / (url + "index.html" if url.endswith("/") or not url else url)


def _theme_shots(
    browser: Any, project: Project, workspace: Workspace, language: Language, site: Path, out: Path
) -> dict[Key, Shot]:
    """A picture of each theme message where the language's built pages show it, in the theme."""
    from rulesdoc.site.config_file import read_config
    from rulesdoc.site.languages import config_texts, theme_texts

    texts = theme_texts(workspace, language, config_texts(project))
    directory_urls = bool(read_config(project.root / "mkdocs.yml").get("use_directory_urls", True))
    names = [f"{stem[: -len('.md.j2')]}.md" for stem in workspace.names]
    paths = [_site_page(site, language, name, directory_urls) for name in names]
    for name, path in zip(names, paths, strict=True):
        if not path.is_file():
            where = display_path(site)
            raise RulesdocError(
                f"{where} has no {language.tag} page {name}: build the site first (make site)"
            )
    done: dict[Key, Shot] = {}
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    with serving(site) as root_url:  # over HTTP, as published: the theme's script runs as it does there
        context.route("**/*", lambda route: _local_only(route, root_url))
        page = context.new_page()
        for name, path in zip(names, paths, strict=True):
            page.goto(root_url + path.relative_to(site).as_posix())
            for english, text in texts.items():
                key = (english, THEME_CONTEXT)
                if key in done or not page.evaluate(_FIND_THEME_TEXT, [text, THEME_MARK]):
                    continue
                element = page.locator(f"[{THEME_MARK}]").first
                file = file_name(key)
                element.screenshot(path=str(out / file))
                element.evaluate(f"e => e.removeAttribute('{THEME_MARK}')")
                done[key] = Shot(key, file, name)
    context.close()
    return done


@contextlib.contextmanager
def serving(folder: Path) -> Iterator[str]:
    """The built site over HTTP on 127.0.0.1, for this run only: "http://127.0.0.1:<port>/"."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def _local_only(route: Any, root_url: str) -> None:
    """The site's own files only: no request leaves the machine."""
    if route.request.url.startswith(root_url):
        route.continue_()
    else:
        route.abort()


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
                    done.update(_theme_shots(browser, project, workspace, language, site, staged))
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
