"""The theme's messages pictured in a built site's themed pages (``rulesdoc screenshots --site``).

Each message is pictured where the language's built pages show it, in the theme: as each page
loads (its 404 page too), then in each state a reader brings about there (the search loading,
empty and answering; a code block copied; the page scrolled back up), and in the notice of a
partly English page. The pages are served over HTTP on this machine (:mod:`rulesdoc.site.local_server`),
as published, so the theme's script runs as it does there.
"""

from __future__ import annotations

import contextlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulesdoc.catalog.po import Key
from rulesdoc.errors import RulesdocError, display_path
from rulesdoc.i18n.theme import THEME_CONTEXT
from rulesdoc.i18n.translate import Language
from rulesdoc.io.project import Project
from rulesdoc.pages.places import markdown_html
from rulesdoc.pages.render import HELP_TRANSLATE, NOTICE, Workspace
from rulesdoc.site.local_server import local_only, serving
from rulesdoc.site.shot import Shot, file_name

# In a themed page: the first element the page shows whose own text is a theme message's (a
# counted one with any number where its "#" is), or whose title, aria-label, placeholder or alt is
# (then it, or its nearest ancestor the page shows) gets the attribute THEME_MARK; the answer is
# the text found ("3 resultater"), or null. An element's own text is the text beside its children
# (a paragraph with a link after it, "Missing: <del>term</del>", the colon Material adds left out).
THEME_MARK = "data-rd-theme"
_FIND_THEME_TEXT = r"""([text, counted, mark]) => {
    const attributes = ["title", "aria-label", "placeholder", "alt"];
    const norm = s => (s || "").split(/\s+/).filter(Boolean).join(" ");
    const escape = s => s.replace(/[.*+?^${}()|[\]\\\/]/g, "\\$&");
    // Material puts the number in place of the first "#" alone; a count of 1 has its own message.
    const at = counted ? text.indexOf("#") : -1;
    const pattern = new RegExp("^" + (at < 0 ? escape(text)
        : escape(text.slice(0, at)) + "(?!1(?!\\d))\\d+" + escape(text.slice(at + 1))) + "$", "u");
    const is = s => pattern.test(norm(s));
    const own = e => norm([...e.childNodes].filter(n => n.nodeType === Node.TEXT_NODE)
        .map(n => n.textContent).join(" ")).replace(/ ?:$/, "");
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
        const label = attributes.map(name => element.getAttribute(name)).find(is);
        const inner = (is(element.textContent) && ![...element.children].some(child => is(child.textContent)))
            ? element.textContent : element.children.length > 0 && is(own(element)) ? own(element) : null;
        if (label == null && inner === null) continue;
        // A skip link shows only while it has the focus (and hides again once it loses it).
        const focused = document.activeElement;
        if (focused && focused.matches("a[href]")) focused.blur();
        if (element.matches("a[href]")) element.focus({preventScroll: true});
        // Its own text must show; a label (title, aria-label...) shows on the control it names,
        // or on the nearest part of the page that shows.
        for (let at = element; at && at !== document.body; at = inner !== null ? null : at.parentElement) {
            if (shown(at)) { at.setAttribute(mark, ""); return norm(inner !== null ? inner : label); }
        }
    }
    return null;
}"""


def _site_page(site: Path, language: Language, name: str, directory_urls: bool) -> Path:
    from rulesdoc.site.languages import language_root, page_url

    url = language_root(language) + page_url(name, directory_urls)
    return site / (url + "index.html" if url.endswith("/") or not url else url)


@dataclass
class _ThemeCamera:
    """Pictures the theme's messages on whatever state a themed page is in, each message once."""

    texts: dict[str, str]  # English: what the language's site shows
    english: dict[str, str]  # the theme's key ("search.result.none"): its English
    out: Path
    done: dict[Key, Shot]

    def text(self, key: str) -> str:
        """What the site shows for the theme's key ("" where it shows nothing)."""
        return self.texts.get(self.english.get(key, ""), "")

    def left(self, prefix: str = "") -> list[str]:
        """The English of the messages not yet pictured (of the keys starting with ``prefix``)."""
        wanted = {english for key, english in self.english.items() if key.startswith(prefix)}
        return [e for e in self.texts if (e, THEME_CONTEXT) not in self.done and e in wanted]

    def shoot(self, page: Any, name: str, prefix: str = "") -> None:
        """Picture what the page shows of the messages left (of the keys starting with ``prefix``)."""
        counted = {self.english.get(key) for key in COUNTED_KEYS}
        for english in self.left(prefix):
            key = (english, THEME_CONTEXT)
            found = page.evaluate(_FIND_THEME_TEXT, [self.texts[english], english in counted, THEME_MARK])
            if found is None:
                continue
            element = page.locator(f"[{THEME_MARK}]").first
            file = file_name(key)
            element.screenshot(path=str(self.out / file), animations="disabled")
            element.evaluate(f"e => e.removeAttribute('{THEME_MARK}')")
            self.done[key] = Shot(key, file, name, str(found))


def theme_shots(
    browser: Any, project: Project, workspace: Workspace, language: Language, site: Path, out: Path
) -> dict[Key, Shot]:
    """A picture of each theme message where the language's built pages show it, in the theme:
    on each page as loaded (its 404 page too) and in the states a reader brings about there
    (:func:`_page_acts`), in the search's states (:func:`_search_acts`), and in the notice of a
    partly English page (:func:`_notice_shots`)."""
    from rulesdoc.i18n import theme
    from rulesdoc.site.config_file import read_config
    from rulesdoc.site.languages import config_texts, language_root, theme_texts

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
    not_found = site / language_root(language) / NOT_FOUND_PAGE  # each language's build writes one
    shown = [*zip(names, paths, strict=True), *([(NOT_FOUND_PAGE, not_found)] if not_found.is_file() else [])]
    camera = _ThemeCamera(texts, {m.key: m.english for m in theme.messages()}, out, {})
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    with serving(site) as root_url:  # over HTTP, as published: the theme's script runs as it does there
        context.route("**/*", lambda route: local_only(route, root_url))
        page = context.new_page()
        for name, path in shown:
            page.goto(root_url + path.relative_to(site).as_posix())
            camera.shoot(page, name)
            _page_acts(page, name, camera)
        first_url = root_url + paths[0].relative_to(site).as_posix()
        _search_acts(page, first_url, names[0], camera, _search_queries(site / language_root(language)))
        if camera.left(NOTICE) or camera.left(HELP_TRANSLATE):  # NOTICE: the page's too
            _notice_shots(page, first_url, names[0], camera, workspace, language)
    context.close()
    return camera.done


# The theme's strings that carry a count: Material writes the number where their "#" is.
COUNTED_KEYS = frozenset({"search.result.other", "search.result.more.other"})
NOT_FOUND_PAGE = "404.html"
_NO_MATCH = "qxzjvkqw"  # a query no page's word starts with
_WAIT_MS = 10_000
COPIED = "clipboard.copied"
_TRIES = 3  # clicks on a code block's copy button, each showing the dialog for two seconds


def _search_queries(language_site: Path) -> list[str]:
    """Queries that bring the language's search to each of its states: a word no page has, words
    of several pages (then several sections of each: "# more on this page"), words of one page
    (one section more, or several), and two words of two pages (each result lacks one: "Missing").
    Read off the language's search index; the search itself decides, so each is only a try."""
    try:
        index = json.loads((language_site / "search" / "search_index.json").read_text("utf-8"))
        docs = [doc for doc in index["docs"] if isinstance(doc, dict)]
    except (OSError, ValueError, KeyError, TypeError):
        return []  # no search in this site: its strings get no picture, and the summary says so
    sections: dict[str, dict[str, int]] = {}  # word: page: how many of its sections hold it
    for doc in docs:
        page = str(doc.get("location", "")).partition("#")[0]
        text = re.sub(r"<[^<>]*>", " ", f"{doc.get('title', '')} {doc.get('text', '')}")
        for word in {w.casefold() for w in re.findall(r"[^\W\d_]{4,}", text)}:
            counts = sections.setdefault(word, {})
            counts[page] = counts.get(page, 0) + 1
    words = sorted(sections)
    several = sorted((w for w in words if len(sections[w]) > 1), key=lambda w: -len(sections[w]))
    one = [w for w in words if len(sections[w]) == 1]
    one_twice = [w for w in one if max(sections[w].values()) == 2]
    one_often = sorted(one, key=lambda w: -max(sections[w].values()))
    pairs = [
        f"{a} {b}"
        for a, b in zip(one[:3], one[-3:], strict=False)
        if sections[a].keys() != sections[b].keys()
    ]
    return [_NO_MATCH, *several[:3], *one_twice[:3], *one_often[:3], *pairs]


# The search's results line, opened: of some size and on top where it lies (as the camera finds
# a text it pictures), so that no transition is pictured half-way.
_META_SHOWN = """() => {
    const meta = document.querySelector(".md-search-result__meta");
    if (meta === null) return false;
    const box = meta.getBoundingClientRect();
    if (box.width < 8 || box.height < 8) return false;
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return hit !== null && (hit === meta || meta.contains(hit));
}"""

# Whether the search's line above its results says (or, with false, no longer says) this text.
_META_SAYS = """([text, says]) => {
    const meta = document.querySelector(".md-search-result__meta");
    return meta !== null && (meta.textContent.split(/\\s+/).filter(Boolean).join(" ") === text) === says;
}"""


def _page_acts(page: Any, name: str, camera: _ThemeCamera) -> None:
    """What a reader does on a loaded page that shows more of the theme, while its strings have no
    picture: copy a code block (content.code.copy), scroll down, then up a little (navigation.top)."""
    from playwright.sync_api import Error

    copy = page.locator("button[data-md-type=copy]")
    for _ in range(_TRIES if copy.count() else 0):
        if not camera.left(COPIED):
            break
        with contextlib.suppress(Error):
            copy.first.click()  # the theme's dialog says it is copied, for two seconds only:
            page.wait_for_selector(".md-dialog--active", timeout=_WAIT_MS)
            camera.shoot(page, name, COPIED)  # its message alone, at once; a busy machine tries again
    if camera.left("top") and page.locator("[data-md-component=top]").count():
        viewport = page.viewport_size or {"width": 800, "height": 600}
        page.mouse.move(viewport["width"] / 2, viewport["height"] / 2)
        page.mouse.wheel(0, 100_000)
        page.wait_for_timeout(300)
        page.mouse.wheel(0, -200)
        with contextlib.suppress(Error):  # a page too short to scroll shows no button
            page.wait_for_function(
                "() => !document.querySelector('[data-md-component=top]').hidden", timeout=2_000
            )
            camera.shoot(page, name, "top")


def _search_acts(page: Any, url: str, name: str, camera: _ThemeCamera, queries: list[str]) -> None:
    """The search's strings, each state brought about on the language's first page: the search
    opened while its index loads, then empty, then answering queries."""
    from playwright.sync_api import Error

    held: list[Any] = []  # the search index, held back while the search says it is loading
    page.route("**/search/search_index.json", lambda route: held.append(route))
    page.goto(url)
    for _ in range(_WAIT_MS // 100):  # the theme asks for it as it starts (later on a busy machine)
        if held:
            break
        page.wait_for_timeout(100)
    box = page.locator(".md-search__input")
    if box.count():
        box.click()
        with contextlib.suppress(Error):  # the search opens with a transition: pictured once shown
            page.wait_for_function(_META_SHOWN, timeout=_WAIT_MS)
        camera.shoot(page, name)
    for route in held:
        route.continue_()
    page.unroute("**/search/search_index.json")
    if box.count():
        with contextlib.suppress(Error):
            says = [camera.text("search.result.initializer"), False]
            page.wait_for_function(_META_SAYS, arg=says, timeout=_WAIT_MS)
        camera.shoot(page, name)
        empty = camera.text("search.result.placeholder")  # the box empty: its results say so
        for query in queries:
            if not camera.left("search.result."):
                break
            with contextlib.suppress(Error):
                for typed, says in (("", [empty, True]), (query, [empty, False])):
                    box.fill(typed)
                    box.press("End")  # Material reads the query on keyup
                    page.wait_for_function(_META_SAYS, arg=says, timeout=_WAIT_MS)
                camera.shoot(page, name)


def _notice_shots(
    page: Any, url: str, name: str, camera: _ThemeCamera, workspace: Workspace, language: Language
) -> None:
    """The notice of a partly (or wholly) English page, where no page of the language shows it: as
    the build writes it (render.add_notice, the site's Markdown), under the first page's heading."""
    from rulesdoc.i18n.translate import Translator
    from rulesdoc.pages.render import add_notice

    translate = Translator(language, workspace.verdicts.get(language.code))
    page.goto(url)
    for all_english in (False, True):
        notice = markdown_html(add_notice("", translate, workspace.help_url(language), all_english))
        placed = page.evaluate(_PLACE_NOTICE, notice)
        if placed:
            camera.shoot(page, name)
            page.evaluate("() => document.querySelector('[data-rd-placed]').remove()")


_PLACE_NOTICE = """notice => {
    const heading = document.querySelector("article h1");
    if (!heading) return false;
    heading.insertAdjacentHTML("afterend", notice);
    heading.nextElementSibling.setAttribute("data-rd-placed", "");
    return true;
}"""
