"""The seams: each library's private names used in one module, and each assumption checked.

A seam module lists its assumptions (``ASSUMPTIONS``: checks that return None, or what
changed) and the library they are about (``LIBRARY``); this test runs them all, so the
seam and its test cannot drift. A failure names the library, the version found, what no
longer holds and the module that relies on it: what to read before raising a pin in
constraints.txt. (MkDocs' seam is generator/site/'s.)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.pofile import PoFileParser

from rulesdoc.catalog import babel_internals
from rulesdoc.errors import RulesdocError
from rulesdoc.i18n import jinja_internals, theme
from rulesdoc.io import yamlload
from rulesdoc.localedata import material_partials

ROOT = Path(__file__).resolve().parent.parent
SEAMS: tuple[ModuleType, ...] = (babel_internals, jinja_internals, yamlload, material_partials)


def _where(seam: ModuleType) -> str:
    return Path(seam.__file__ or "").resolve().relative_to(ROOT).as_posix()


def _cases() -> list[tuple[ModuleType, Callable[[], str | None]]]:
    return [(seam, check) for seam in SEAMS for check in seam.ASSUMPTIONS]


def _message(seam: ModuleType, check: Callable[[], str | None], problem: str) -> str:
    assumed = " ".join((check.__doc__ or check.__name__).split())
    return (
        f"{seam.LIBRARY} {metadata.version(seam.LIBRARY)}: {problem}; {_where(seam)} relies on it "
        f"(assumed: {assumed})"
    )


@pytest.mark.parametrize(("seam", "check"), _cases(), ids=[f"{s.LIBRARY}:{c.__name__}" for s, c in _cases()])
def test_each_assumption_of_each_seam_holds(seam: ModuleType, check: Callable[[], str | None]) -> None:
    problem = check()
    if problem is not None:
        pytest.fail(_message(seam, check, problem), pytrace=False)


def test_every_seam_names_its_library_and_assumptions() -> None:
    for seam in SEAMS:
        assert metadata.version(seam.LIBRARY), seam.__name__
        assert seam.ASSUMPTIONS, f"{_where(seam)} lists no assumption"
        for check in seam.ASSUMPTIONS:
            assert check.__doc__ and check.__doc__.strip(), f"{_where(seam)}: {check.__name__} says nothing"


def test_a_broken_assumption_names_library_version_change_and_module(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks can fail: a Babel without one of the private methods the parser overrides."""
    monkeypatch.delattr(PoFileParser, "_process_keyword_line")
    check = babel_internals.ASSUMPTIONS[0]
    problem = check()
    assert problem == "PoFileParser no longer has _process_keyword_line"
    message = _message(babel_internals, check, problem)
    version = metadata.version("babel")
    assert message.startswith(
        f"babel {version}: PoFileParser no longer has _process_keyword_line; "
        "generator/catalog/babel_internals.py relies on it (assumed: PoFileParser has the four private methods"
    )


def test_a_babel_that_words_extra_forms_otherwise_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(babel_internals, "TOO_MANY_FORMS", "plural entry has too many forms")
    problem = babel_internals._too_many_forms()
    assert problem is not None and problem.startswith(
        "an extra plural form is no longer reported as 'plural entry has too many forms' (reported: ['msg has"
    )


def test_a_jinja_without_the_template_global_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jinja_internals, "_TEMPLATE_GLOBAL", "__renamed__")
    problem = jinja_internals._template_line_on_stack()
    assert problem is not None and "no longer give its file and line" in problem and "[None, None]" in problem


def test_a_changed_material_partial_is_an_error_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "en.html"
    good = '{% macro t(key) %}{{ {\n  "toc": "Table of contents",\n  "top": "Back to top"\n}[key] }}{% endmacro %}\n'
    assert material_partials.parse_partial(good, path) == {"toc": "Table of contents", "top": "Back to top"}
    changed = good.replace('"top": "Back to top"', "top: 'Back to top'")
    with pytest.raises(RulesdocError) as caught:
        material_partials.parse_partial(changed, path)
    assert caught.value.location is not None and caught.value.location.line == 3
    assert f"mkdocs-material {metadata.version('mkdocs-material')}: not a" in caught.value.message
    with pytest.raises(RulesdocError, match="no .* in the language partial"):
        material_partials.parse_partial("{{ lang.t(key) }}\n", path)


def test_materials_english_partial_has_every_key_the_theme_messages_use() -> None:
    english = material_partials.english()
    missing = sorted(set(theme.KEYS) - set(english))
    assert not missing, (
        f"mkdocs-material {metadata.version('mkdocs-material')}: en.html lacks {missing}, "
        "keys generator/i18n/theme.py makes messages of"
    )


def test_the_installed_libraries_are_the_minor_versions_constraints_txt_names() -> None:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text("utf-8").splitlines():
        line = line.split("#")[0].strip()
        if line:
            match = re.fullmatch(r"([A-Za-z0-9_.-]+)==(\d+)\.(\d+)\.\*", line)
            assert match, f"constraints.txt: {line!r} is not name==X.Y.*"
            pins[match.group(1)] = (match.group(2), match.group(3))
    assert set(pins) >= {seam.LIBRARY for seam in SEAMS} | {"mkdocs", "markupsafe"}
    for name, minor in pins.items():
        found = tuple(metadata.version(name).split(".")[:2])
        assert found == minor, (
            f"{name} {metadata.version(name)} is installed; constraints.txt pins {'.'.join(minor)}.*: "
            "run `make setup` (or raise the pin once tests/test_seams.py passes with it)"
        )


# Private names (and what stands for them) that only their seam may use; every package is scanned.
_ONLY_IN_SEAM = {
    "generator/catalog/babel_internals.py": [
        r"PoFileParser", r"_process_keyword_line", r"_process_string_continuation_line",
        r"_add_message\b", r"_invalid_pofile", r"_num_plurals", r"_plural_expr", r"_NormalizedString",
    ],
    "generator/i18n/jinja_internals.py": [r"__jinja_template__", r"_getframe", r"currentframe"],
    "generator/io/yamlload.py": [
        r"yaml\._yaml", r"\bCParser\b", r"compose_node", r"\.anchors\b", r"yaml_constructors",
        r"NON_PRINTABLE", r"ComposerError", r"yaml\.composer", r"\bComposer\b", r"construct_undefined",
    ],
    "generator/site/mkdocs_internals.py": [
        r'"commands\.build"', r"\._schema\b", r"clean_directory", r"add_files_from_theme",
        r"mkdocs_priority", r"PluginCollection", r"url_filter", r"list_templates\(",
    ],
    "generator/localedata/material_partials.py": [
        r'"partials" / "languages"', r'find_spec\("material"\)', r'"lunr" / "min"',
    ],
}  # fmt: skip


def test_each_private_name_is_used_in_its_seam_only() -> None:
    found = []
    for path in sorted((ROOT / "generator").rglob("*.py")):
        shown = path.relative_to(ROOT).as_posix()
        text = path.read_text("utf-8")
        for seam, patterns in _ONLY_IN_SEAM.items():
            if shown == seam:
                continue
            found += [
                f"{shown}: {pattern} (belongs in {seam})" for pattern in patterns if re.search(pattern, text)
            ]
    assert not found, "\n".join(found)
