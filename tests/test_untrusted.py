"""A contributor's catalog is untrusted input; a build is whole or nothing.

- A catalog with a payload in every message is built strictly (refused: nothing written)
  and as a preview (built, the payloads refused or escaped): no built HTML or JSON file
  holds a script element, an event-handler attribute or a ``javascript:`` URL that the
  theme does not write itself in a clean build.
- ``mkdocs build`` killed at several moments over a good site leaves the old site or the
  new one, whole; two builds of different rules into one folder leave one of the two.
"""

from __future__ import annotations

import hashlib
import html.parser
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po
from support import copy_project
from support.env import dated_env
from support.newlang import build_site

from rulesdoc.i18n import placeholders as printf
from rulesdoc.i18n.translate import catalog_path

pytestmark = pytest.mark.slow

PAYLOADS = (
    "Tælle point</title><script>alert(document.domain)</script>",
    '"><img src=x onerror=alert(1)>',
    "[klik](javascript:alert(1))",
    "<svg onload=alert(1)>",
    'x" onmouseover="alert(1)',
    "x' onfocus='alert(1)' autofocus='",
    "javascript:alert(1)",
    "&lt;script&gt;alert(1)&lt;/script&gt;",
    "<!-- --><script>alert(1)</script>",
    "<a href='javascript:alert(1)'>klik</a>",
)
# Page titles and the site name reach <title>, where the theme decodes entities (striptags).
HEADINGS = {
    "Counting points": PAYLOADS[0],
    "Rami help": "&lt;/title&gt;&lt;script&gt;alert(2)&lt;/script&gt;",
    "Translation status": '</title><img src=x onerror="alert(3)">',
}
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href", "data", "poster"}


def poison(path: Path) -> None:
    """Every message of a catalog carries a payload (and keeps its placeholders, to reach the page)."""
    with path.open("rb") as handle:
        catalog = read_po(handle)
    for index, message in enumerate(m for m in catalog if m.id):
        payload = HEADINGS.get(
            message.id if isinstance(message.id, str) else "", PAYLOADS[index % len(PAYLOADS)]
        )
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        values = " ".join(sorted({p.text for text in ids for p in printf.scan(text).placeholders}))
        text = f"{payload} {values}".strip()
        message.string = (text,) * catalog.num_plurals if isinstance(message.id, tuple) else text
    with path.open("wb") as handle:
        write_po(handle, catalog, width=0)


class _Live(html.parser.HTMLParser):
    """What in an HTML text could run: script elements, on* attributes, javascript: URLs."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._script: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}={value!r}>")
            elif name in URL_ATTRIBUTES and re.sub(r"[\s\x00-\x1f]", "", value or "").lower().startswith(
                "javascript:"
            ):
                self.found.append(f"<{tag} {name}={value!r}>")
        if tag == "script":
            self._script = [" ".join(f"{k}={v}" for k, v in sorted(attrs, key=lambda a: a[0]))]

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self._script.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._script is not None:
            text = "".join(self._script)
            element = self._script[0]
            if "type=application/json" in element:
                # Data, never run (the calculator's strings, placed as text by its script): a
                # catalog's "</script>" would have ended the element early, and its JSON not parse.
                json.loads("".join(self._script[1:]))
                self.found.append(f"<script {element}>")
            else:
                # The theme's __config JSON holds our (escaped) strings: judge the element, not its data.
                self.found.append("<script " + (text.split("{")[0] if "__config" in text else text) + ">")
            self._script = None


def live(text: str) -> list[str]:
    parser = _Live()
    parser.feed(text)
    parser.close()
    return parser.found


def json_strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from json_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from json_strings(item)


def live_in_site(site: Path) -> dict[str, set[str]]:
    """Per file (relative path), what could run in it; JSON strings are read as HTML (search renders them)."""
    found: dict[str, set[str]] = {}
    for path in sorted(site.rglob("*")):
        if path.suffix == ".html":
            items = live(path.read_text("utf-8"))
        elif path.suffix == ".json":
            items = [
                item for text in json_strings(json.loads(path.read_text("utf-8"))) for item in live(text)
            ]
        else:
            continue
        found[path.relative_to(site).as_posix()] = set(items)
    return found


@pytest.fixture(scope="module")
def clean_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = copy_project(tmp_path_factory.mktemp("clean") / "project")
    result = build_site(root, root.parent / "site", strict=False)
    assert result.returncode == 0, result.stdout + result.stderr
    return root.parent / "site"


@pytest.fixture(scope="module")
def poisoned(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = copy_project(tmp_path_factory.mktemp("poisoned") / "project")
    poison(catalog_path(root / "locales", "da"))
    return root


def test_the_strict_build_refuses_the_payloads_and_writes_nothing(poisoned: Path, tmp_path: Path) -> None:
    result = build_site(poisoned, tmp_path / "site")
    output = result.stdout + result.stderr
    assert result.returncode != 0 and "Traceback" not in output
    assert "error: [markup]" in output and "a catalog may not put tags or attributes into the site" in output
    assert not (tmp_path / "site").exists()


def test_the_preview_runs_no_script_of_a_catalog(poisoned: Path, clean_site: Path, tmp_path: Path) -> None:
    result = build_site(poisoned, tmp_path / "site", strict=False)
    assert result.returncode == 0, result.stdout + result.stderr
    site = tmp_path / "site"
    theme_writes = set().union(*live_in_site(clean_site).values())
    assert any("__config" in item for item in theme_writes)  # the scan sees the theme's own scripts
    for name, items in live_in_site(site).items():
        assert items <= theme_writes, f"{name}: {sorted(items - theme_writes)}"
    # The payloads that are plain text reached the page, as text.
    danish = (site / "da" / "scoring.html").read_text("utf-8")
    assert "x&#34; onmouseover=&#34;alert(1)" in danish or "x&quot; onmouseover=&quot;alert(1)" in danish
    title = re.search(r"<title>(.*?)</title>", danish, re.S)
    assert title and "<" not in title.group(1)


# ---------------------------------------------------------------- whole or nothing


def snapshot(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def set_joker(root: Path, value: int) -> None:
    path = root / "rules.yaml"
    text, count = re.subn(r"(?m)^(  joker: )\d+", rf"\g<1>{value}", path.read_text("utf-8"))
    assert count == 1
    path.write_text(text, "utf-8")


def start_build(root: Path, out: Path) -> subprocess.Popen[bytes]:
    env = dated_env()
    env.pop("RULESDOC_STRICT", None)
    return subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)],
        cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group: the kill reaches its workers, as a CI cancel does
    )  # fmt: skip


@pytest.fixture(scope="module")
def two_sites(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, str], dict[str, str]]:
    base = tmp_path_factory.mktemp("whole")
    old, new = copy_project(base / "old"), copy_project(base / "new")
    set_joker(new, 25)
    snapshots = []
    for root in (old, new):
        out = base / f"{root.name}-site"
        assert build_site(root, out).returncode == 0
        snapshots.append(snapshot(out))
    assert snapshots[0] != snapshots[1]
    return old, new, snapshots[0], snapshots[1]


@pytest.mark.parametrize("seconds", [0.3, 0.7, 1.1, 1.5, 2.0])
def test_a_killed_build_leaves_the_old_site_or_the_new_one(
    two_sites: tuple[Path, Path, dict[str, str], dict[str, str]], tmp_path: Path, seconds: float
) -> None:
    old, new, old_files, new_files = two_sites
    out = tmp_path / "site"
    assert build_site(old, out).returncode == 0
    build = start_build(new, out)
    time.sleep(seconds)
    if build.poll() is None:
        os.killpg(build.pid, signal.SIGKILL)
    build.wait(timeout=60)
    time.sleep(0.2)  # let the killed workers go
    assert snapshot(out) in (old_files, new_files), f"killed after {seconds} s: a mixed site"
    # The next build finds what the killed one left beside the site, and clears it.
    assert build_site(new, out).returncode == 0
    assert snapshot(out) == new_files
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != ".site.lock") == ["site"]


def test_two_builds_at_once_leave_one_whole_site(
    two_sites: tuple[Path, Path, dict[str, str], dict[str, str]], tmp_path: Path
) -> None:
    old, new, old_files, new_files = two_sites
    out = tmp_path / "site"
    first, second = start_build(old, out), start_build(new, out)
    for build in (first, second):
        assert build.wait(timeout=600) == 0, build.stderr.read().decode() if build.stderr else ""
    assert snapshot(out) in (old_files, new_files), "two builds mixed their languages"
    waited = (first.stderr.read() + second.stderr.read()).decode() if first.stderr and second.stderr else ""
    assert "another build is writing" in waited  # the second one said why it waited


def test_a_build_mkdocs_refuses_at_its_end_leaves_the_old_site(tmp_path: Path) -> None:
    """MkDocs refuses a strict build with warnings after the plugins' last step: the warning
    here (a hook's, in the source language's build only) must not let the new site in."""
    root = copy_project(tmp_path / "project")
    out = tmp_path / "site"
    assert build_site(root, out).returncode == 0
    before = snapshot(out)
    (root / "warn.py").write_text(
        "import logging\n"
        "def on_post_page(output, page, config):\n"
        "    if config.theme['language'] == 'rulesdoc-en' and page.url == 'index.html':\n"
        "        logging.getLogger('mkdocs.hooks').warning('a warning in the English build only')\n"
        "    return output\n",
        "utf-8",
    )
    with (root / "mkdocs.yml").open("a", encoding="utf-8") as config:
        config.write("hooks:\n  - warn.py\n")
    set_joker(root, 25)
    env = dated_env()
    env.pop("RULESDOC_STRICT", None)
    refused = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
        cwd=root, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    said = refused.stdout + refused.stderr
    assert refused.returncode != 0 and "a warning in the English build only" in said, said
    assert "Aborted with 1 warnings in strict mode" in said, said
    assert snapshot(out) == before, "a refused build replaced the site"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name not in (".site.lock", "project")) == ["site"]
