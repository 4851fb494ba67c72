"""A run parses each template once: for its page (Jinja's compile) and for its messages (the
extraction the stale check compares with messages.pot), in either order, when babel.cfg reads
the templates as the pages' environment does (generator/i18n/jinja_internals.py)."""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path

import pytest

from rulesdoc.catalog import po
from rulesdoc.i18n import extraction, jinja_internals
from rulesdoc.io.project import template_path
from rulesdoc.pages.environment import make_environment


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each text Jinja lexes and parses, by its first line, in a run of its own (no cache)."""
    monkeypatch.setenv("RULESDOC_NO_CACHE", "1")
    monkeypatch.setattr(jinja_internals, "_PARSED", OrderedDict())
    made: list[str] = []
    original = jinja_internals._parse_once

    def counted(env: object, source: str, name: str | None, filename: str | None) -> jinja_internals.Parsed:
        made.append(source.splitlines()[0] if source else "")
        return original(env, source, name, filename)  # type: ignore[arg-type]

    monkeypatch.setattr(jinja_internals, "_parse_once", counted)
    return made


def _first_lines(templates: Path) -> list[str]:
    return sorted(path.read_text("utf-8").splitlines()[0] for path in templates.glob("*.j2"))


def _compile_all(templates: Path) -> None:
    env = make_environment(templates)
    for path in sorted(templates.glob("*.j2")):
        env.get_template(path.name)


@pytest.mark.parametrize("compile_first", [True, False], ids=["compiled first", "extracted first"])
def test_a_run_parses_each_template_once_for_its_page_and_its_messages(
    project_copy: Path, parses: list[str], compile_first: bool
) -> None:
    templates = project_copy / "templates"
    if compile_first:
        _compile_all(templates)
    extracted = extraction.extract(project_copy)
    if not compile_first:
        _compile_all(templates)
    assert sorted(parses) == _first_lines(templates)
    # ... and the messages read from those parses are the committed POT's (it is current).
    committed = po.load(template_path(project_copy / "locales"), project_copy)
    assert extraction.same_content(committed, extracted)


def _babel_cfg(root: Path, options: str) -> None:
    path = root / "babel.cfg"
    text = path.read_text("utf-8")
    start = text.index("[jinja2: templates/**.j2]")
    end = text.index("\n\n", start)
    path.write_text(text[:start] + "[jinja2: templates/**.j2]\n" + options + text[end:], "utf-8")


@pytest.mark.parametrize(
    "options",
    [
        "trimmed = true",  # a project made before babel.cfg said the pages' settings
        "trimmed = true\nextensions = jinja2.ext.loopcontrols",  # read by Jinja's own extractor
    ],
    ids=["other settings", "an option rulesdoc does not read"],
)
def test_an_extraction_read_otherwise_gives_the_same_messages_from_a_parse_of_its_own(
    project_copy: Path, parses: list[str], options: str
) -> None:
    templates = project_copy / "templates"
    _compile_all(templates)
    _babel_cfg(project_copy, options)
    extracted = extraction.extract(project_copy)
    shared = len(_first_lines(templates))
    own_parses = len(parses) - shared
    assert own_parses == (shared if "extensions" not in options else 0), (
        "parsed here, or by Jinja's extractor"
    )
    committed = po.load(template_path(project_copy / "locales"), project_copy)
    assert extraction.same_content(committed, extracted)


def test_a_template_that_does_not_parse_is_named_and_nothing_is_kept(
    project_copy: Path, parses: list[str]
) -> None:
    page = project_copy / "templates" / "index.md.j2"
    page.write_text(page.read_text("utf-8") + "\n{% if %}\n", "utf-8")
    with pytest.raises(extraction.RulesdocError, match=r"template syntax error") as raised:
        extraction.extract(project_copy)
    assert raised.value.location is not None and raised.value.location.path.endswith("index.md.j2")
    assert all(source != page.read_text("utf-8") for _, source in jinja_internals._PARSED)
