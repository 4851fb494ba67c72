"""Fixtures for the browser tests: the built site, a local HTTP server and headless Chromium.

The site is built once per session with ``mkdocs build --strict`` into a temporary folder
(never the possibly stale ``site/``) and served from 127.0.0.1. One Chromium runs for the session,
one page per test, driven by Playwright's Python package: ``RULESDOC_CHROMIUM`` if set, else
Debian's /usr/bin/chromium, else Playwright's own build (what scripts/browser-deps.sh installs where
apt has no real chromium deb, as on GitHub's Ubuntu runners; Playwright cannot download it here). Without Chromium the tests skip, except in CI (``CI=true``), where they fail:
the suite must not pass there by skipping.

Every page is watched: console errors, uncaught exceptions, failed requests, responses with a
status of 400 or more, and any request to a host other than 127.0.0.1, which is refused. A test
asserts ``problems.assert_none()`` where it matters; a request off the machine fails every test.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn
from urllib.parse import urlsplit

import pytest
from support import ROOT

from rulesdoc.site.local_server import serving

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, Request, Response, Route

DEBIAN_CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",  # Chromium refuses to run as root (containers, CI) with its sandbox; our own pages only
    # Without these Chromium calls Google hosts on its own (updates, sync, field trials).
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
HOST = "127.0.0.1"
ARTIFACTS = ROOT / "tests" / "artifacts"  # screenshots, git-ignored
# Any http(s)/ws(s) URL whose host is not the local server.
OFF_MACHINE = re.compile(rf"^(?:https?|wss?)://(?!{re.escape(HOST)}(?::\d+)?/)")


def unavailable(reason: str) -> NoReturn:
    if os.environ.get("CI", "").strip().lower() == "true":
        pytest.fail(f"{reason}; CI=true, so the browser tests fail instead of skipping", pytrace=False)
    pytest.skip(reason)


def executable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def chromium_path(playwright_default: str) -> Path:
    """The Chromium to drive, in the order scripts/browser-deps.sh provides them."""
    if named := os.environ.get("RULESDOC_CHROMIUM"):
        if not executable(Path(named)):
            unavailable(f"RULESDOC_CHROMIUM={named} is no executable file")
        return Path(named)
    for candidate in (DEBIAN_CHROMIUM, Path(playwright_default)):
        if executable(candidate):
            return candidate
    unavailable(
        f"no Chromium: neither {DEBIAN_CHROMIUM} nor Playwright's {playwright_default} "
        "(make browser-deps installs one, or set RULESDOC_CHROMIUM)"
    )


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("the playwright package is not installed (pip install -e '.[test]')")
    with sync_playwright() as playwright:
        path = chromium_path(playwright.chromium.executable_path)
        chromium = playwright.chromium.launch(executable_path=str(path), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def built_site(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The published build: strict, from the repository's sources, into a fresh folder."""
    out = tmp_path_factory.mktemp("browser-site")
    env = {**os.environ}
    env.pop("RULESDOC_STRICT", None)  # the published site is built strict
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    if result.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{result.stdout}{result.stderr}", pytrace=False)
    return out


@pytest.fixture(scope="session")
def site_url(built_site: Path) -> Iterator[str]:
    """The built site over HTTP."""
    with serving(built_site) as url:
        yield url


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@dataclass
class Problems:
    """What went wrong while the pages of one test were open."""

    console: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    http_errors: list[str] = field(default_factory=list)
    off_machine: list[str] = field(default_factory=list)

    def refuse(self, route: Route) -> None:
        self.off_machine.append(route.request.url)
        route.abort("blockedbyclient")

    def watch(self, page: Page) -> None:
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.console.append(f"uncaught exception: {error}"))
        page.on("requestfailed", self._failed)
        page.on("response", self._response)

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.console.append(f"console error: {message.text} ({message.location.get('url', '')})")

    def _failed(self, request: Request) -> None:
        failure = request.failure or ""
        if "ERR_ABORTED" in failure and urlsplit(request.url).hostname == HOST:
            return  # cancelled by a navigation away, not a failure of the site
        self.failed.append(f"request failed: {request.url} ({failure})")

    def _response(self, response: Response) -> None:
        if response.status >= 400:
            self.http_errors.append(f"HTTP {response.status}: {response.url}")

    def all(self) -> list[str]:
        off = [f"request off the machine: {url}" for url in self.off_machine]
        return [*self.console, *self.failed, *self.http_errors, *off]

    def assert_none(self) -> None:
        found = self.all()
        assert not found, "problems on the page:\n" + "\n".join(found)


@pytest.fixture
def problems() -> Problems:
    return Problems()


def open_context(browser: Browser, problems: Problems, **options: Any) -> BrowserContext:
    """A fresh browser context (viewport, color scheme...) that refuses any request off the machine."""
    options.setdefault("viewport", {"width": 1280, "height": 900})
    ctx = browser.new_context(**options, service_workers="block")
    ctx.route(OFF_MACHINE, problems.refuse)
    return ctx


@contextlib.contextmanager
def watched_page(browser: Browser, problems: Problems, **options: Any) -> Iterator[Page]:
    """A tab in a fresh context (:func:`open_context`'s options), watched by ``problems``; the
    context is closed after, whatever the test did: for a test that needs its own viewport,
    colour scheme or script setting, where the ``page`` fixture's defaults will not do."""
    ctx = open_context(browser, problems, **options)
    try:
        tab = ctx.new_page()
        problems.watch(tab)
        yield tab
    finally:
        ctx.close()


@pytest.fixture
def context(browser: Browser, problems: Problems) -> Iterator[BrowserContext]:
    ctx = open_context(browser, problems)
    try:
        yield ctx
    finally:
        ctx.close()


# ---------------------------------------------------------------- what the built site holds


@dataclass(frozen=True)
class SiteLanguage:
    """A language of the built site, as a reader's browser finds it: the home page's alternates."""

    tag: str
    root: str  # "" for the source language, "da/" for the others

    def pages(self, site: Path) -> list[str]:
        """Every page the language's build wrote (its 404 page included), as URL paths from the site root."""
        return sorted(self.root + path.name for path in (site / self.root).glob("*.html"))


_ALTERNATE = re.compile(r'<link rel="alternate" href="([^"]*)" hreflang="([^"]+)">')


def site_languages(site: Path) -> list[SiteLanguage]:
    """The languages the built site offers: its home page's ``<link rel="alternate" hreflang>``.

    Read from the built site, not from a list kept here, so that a language added to the
    catalogs (right-to-left, CJK...) is covered by every test that iterates over these.
    """
    home = (site / "index.html").read_text("utf-8")
    found = [
        SiteLanguage(tag, href.rpartition("index.html")[0])
        for href, tag in _ALTERNATE.findall(home)
        if tag != "x-default"  # the source language's page once more, for search engines
    ]
    assert found, f"no <link rel=alternate hreflang> in {site / 'index.html'}: no languages found"
    return found


@pytest.fixture
def page(context: BrowserContext, problems: Problems, site_url: str) -> Iterator[Page]:
    tab = context.new_page()
    problems.watch(tab)
    yield tab
    if problems.off_machine:
        pytest.fail("requests off the machine:\n" + "\n".join(problems.off_machine), pytrace=False)
