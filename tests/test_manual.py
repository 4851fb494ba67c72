"""The manual: a short front page, one page per reader, and every path, link, command and make
target they name real (issue 33: the README was one 62 KB page with stale paths in it)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest
from support import ROOT

from rulesdoc.cli.main import _parser

FRONT = ROOT / "README.md"
GUIDES = {
    "publisher": ROOT / "manual" / "publishing.md",
    "translator": ROOT / "manual" / "translating.md",
    "app developer": ROOT / "manual" / "apps.md",
    "contributor": ROOT / "CONTRIBUTING.md",
}
PAGES = [FRONT, *GUIDES.values()]
IDS = [page.relative_to(ROOT).as_posix() for page in PAGES]

# A path of this repository as the manual writes it in a code span: a top folder we have, then more.
_TOP = "generator|tests|templates|locales|docs|bench|scripts|manual|\\.github|\\.ci"
_PATH = re.compile(rf"`((?:{_TOP})/[^`\s]*)`")
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_COMMAND = re.compile(r"\brulesdoc ((?:catalog )?[a-z][a-z-]+)")
_MAKE = re.compile(r"\bmake ([a-z][a-z-]+)")


def _text(page: Path) -> str:
    return page.read_text("utf-8")


def _code(page: Path) -> str:
    """The page's code: fenced blocks and inline code spans, where commands are written."""
    text = _text(page)
    blocks = re.findall(r"^```[a-z]*\n(.*?)^```", text, re.M | re.S)
    spans = re.findall(r"`([^`\n]+)`", re.sub(r"^```.*?^```", "", text, flags=re.M | re.S))
    return "\n".join(blocks + spans)


def _commands() -> set[str]:
    found: set[str] = set()
    for action in _parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found.add(name)
                for inner in sub._actions:
                    if isinstance(inner, argparse._SubParsersAction):
                        found |= {f"{name} {step}" for step in inner.choices}
    return found


def test_the_front_page_is_short_and_reaches_every_guide_in_one_click() -> None:
    text = _text(FRONT)
    assert len(text.encode()) <= 12 * 1024
    assert re.search(r"^## Quick start\n\n```sh\nmake site .*\nmake test .*\n```", text, re.M)
    for page in GUIDES.values():
        assert f"]({page.relative_to(ROOT).as_posix()})" in text, page


def test_no_section_is_in_two_pages() -> None:
    seen: dict[str, str] = {}
    for page in PAGES:
        for heading in re.findall(r"^#{2,3} (.+)$", _text(page), re.M):
            assert heading not in seen, f"{heading!r} in {seen.get(heading)} and {page.name}"
            seen[heading] = page.name


# Paths the manual names that are no files of a fresh clone: a user's mistakes (the layouts one
# step off the right one, which check refuses), and the tests' output.
EXAMPLES = {
    "locales/fr/LC_MESSAGES/fr.po",
    "locales/fr.po",
    "locales/fr/messages.po",
    "locales/french/",
    "tests/artifacts/",  # written by the browser tests: not in a fresh clone
}


@pytest.mark.parametrize("page", PAGES, ids=IDS)
def test_every_path_the_page_names_exists(page: Path) -> None:
    missing = []
    for path in set(_PATH.findall(_text(page))) - EXAMPLES:
        path = path.rstrip(".,:;)")
        if any(mark in path for mark in "*<>{…") or path.endswith("-"):  # patterns and placeholders
            base = re.split(r"[*<>{…]", path)[0].rsplit("/", 1)[0]
            if not (ROOT / base).exists():
                missing.append(path)
        elif not (ROOT / path).exists() and not (ROOT / path.split(":")[0]).exists():
            missing.append(path)
    assert missing == []


@pytest.mark.parametrize("page", PAGES, ids=IDS)
def test_every_relative_link_resolves(page: Path) -> None:
    missing = []
    for target in _LINK.findall(_text(page)):
        if re.match(r"[a-z]+:", target) or target.startswith("#") or target == "…":
            continue
        if not (page.parent / target.split("#")[0]).exists():
            missing.append(target)
    assert missing == []


@pytest.mark.parametrize("page", PAGES, ids=IDS)
def test_every_rulesdoc_command_the_page_names_exists(page: Path) -> None:
    known = _commands()
    unknown = set()
    for name in _COMMAND.findall(_code(page)):
        if name.startswith("catalog "):
            if name not in known:
                unknown.add(name)
        elif name not in known and name.split()[0] not in known:
            unknown.add(name)
    # Not commands: the rule-change comment's marker, and the layout tree's prose.
    assert unknown - {"rule-change", "command"} == set()


@pytest.mark.parametrize("page", PAGES, ids=IDS)
def test_every_make_target_the_page_names_exists(page: Path) -> None:
    makefile = _text(ROOT / "Makefile")
    targets = set(re.findall(r"^([a-z][a-z-]*):", makefile, re.M))
    named = set(_MAKE.findall(_code(page)))
    assert named - targets == set()
