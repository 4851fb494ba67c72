"""The seams: each library's private names used in one module, and each assumption checked.

Every seam module exports ``ASSUMPTIONS`` (``rulesdoc.seam.Assumption``: a name, the assumption
in a sentence, a check that raises ``SeamChanged`` when it no longer holds) and ``versions()``;
this test runs them all, so the seam and its test cannot drift. A failure names the libraries'
versions, what no longer holds and the module that relies on it: what to read before raising a
pin in constraints.txt.
"""

from __future__ import annotations

import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.pofile import PoFileParser

from rulesdoc.catalog import babel_internals
from rulesdoc.errors import RulesdocError
from rulesdoc.i18n import jinja_internals, theme
from rulesdoc.io import yaml_seam
from rulesdoc.localedata import material_partials
from rulesdoc.seam import Assumption, SeamChanged
from rulesdoc.site import mkdocs_internals, mkdocs_probe

ROOT = Path(__file__).resolve().parent.parent
SEAMS: tuple[ModuleType, ...] = (
    babel_internals,
    jinja_internals,
    yaml_seam,  # the checks of generator/io/yamlload.py's uses
    material_partials,
    mkdocs_internals,
    mkdocs_probe,  # the MkDocs seam's checks that watch a build
)


def _where(seam: ModuleType) -> str:
    return Path(seam.__file__ or "").resolve().relative_to(ROOT).as_posix()


def _cases() -> list[tuple[ModuleType, Assumption]]:
    return [(seam, assumption) for seam in SEAMS for assumption in seam.ASSUMPTIONS]


def _message(seam: ModuleType, assumption: Assumption, problem: BaseException) -> str:
    return (
        f"{seam.versions()}: {problem}; {_where(seam)} relies on it "
        f"(assumed, {assumption.name}: {assumption.what})"
    )


def check_assumption(seam: ModuleType, assumption: Assumption) -> None:
    try:
        assumption.check()
    except SeamChanged as changed:
        pytest.fail(_message(seam, assumption, changed), pytrace=False)
    except Exception as error:  # noqa: BLE001  # a probe that crashes: the library changed under it too
        pytest.fail(_message(seam, assumption, error) + f" [{type(error).__name__}]", pytrace=False)


@pytest.mark.parametrize(
    ("seam", "assumption"), _cases(), ids=[f"{s.__name__.rsplit('.', 1)[1]}:{a.name}" for s, a in _cases()]
)
def test_each_assumption_of_each_seam_holds(seam: ModuleType, assumption: Assumption) -> None:
    check_assumption(seam, assumption)


def test_every_seam_names_its_versions_and_assumptions() -> None:
    for seam in SEAMS:
        assert re.fullmatch(r"[\w.-]+ \d[^,]*(, [\w.-]+ \d[^,]*)*", seam.versions()), seam.versions()
        assert seam.ASSUMPTIONS, f"{_where(seam)} lists no assumption"
        for assumption in seam.ASSUMPTIONS:
            assert isinstance(assumption, Assumption), f"{_where(seam)}: {assumption!r} is not an Assumption"
            assert assumption.name and assumption.what.strip(), (
                f"{_where(seam)}: {assumption.name} says nothing"
            )


def test_a_broken_assumption_names_versions_change_and_module(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks can fail: a Babel without one of the private methods the parser overrides."""
    monkeypatch.delattr(PoFileParser, "_process_keyword_line")
    assumption = babel_internals.ASSUMPTIONS[0]
    with pytest.raises(pytest.fail.Exception) as failed:
        check_assumption(babel_internals, assumption)
    version = metadata.version("babel")
    assert str(failed.value).startswith(
        f"babel {version}: PoFileParser no longer has _process_keyword_line; "
        "generator/catalog/babel_internals.py relies on it (assumed, methods_exist: PoFileParser has the four private"
    ), str(failed.value)


def test_a_crashing_probe_fails_too_naming_the_error() -> None:
    def crashes() -> None:
        raise KeyError("gone")

    with pytest.raises(pytest.fail.Exception, match=r"mkdocs \S+.*'gone'.*\[KeyError\]"):
        check_assumption(mkdocs_internals, Assumption("probe", "a probe", crashes))


@pytest.mark.slow  # a child interpreter, to run it with -O
def test_the_checks_still_fail_under_python_O() -> None:
    """No check relies on `assert`, which -O strips: a broken assumption is caught there too."""
    code = (
        "from babel.messages.pofile import PoFileParser\n"
        "from rulesdoc.catalog import babel_internals\n"
        "from rulesdoc.seam import SeamChanged\n"
        "del PoFileParser._process_keyword_line\n"
        "try:\n"
        "    babel_internals.ASSUMPTIONS[0].check()\n"
        "except SeamChanged as changed:\n"
        "    print('caught:', changed)\n"
    )
    done = subprocess.run([sys.executable, "-O", "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout == "caught: PoFileParser no longer has _process_keyword_line\n", done.stderr


def test_a_babel_that_words_extra_forms_otherwise_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(babel_internals, "TOO_MANY_FORMS", "plural entry has too many forms")
    with pytest.raises(SeamChanged) as changed:
        babel_internals._too_many_forms()
    assert str(changed.value).startswith(
        "an extra plural form is no longer reported as 'plural entry has too many forms' (reported: ['msg has"
    )


def test_a_jinja_without_the_template_global_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jinja_internals, "_TEMPLATE_GLOBAL", "__renamed__")
    with pytest.raises(SeamChanged, match=r"no longer give its file and line.*\[None, None\]"):
        jinja_internals._template_line_on_stack()


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
    assert set(pins) >= {seam.LIBRARY for seam in SEAMS if hasattr(seam, "LIBRARY")} | {
        "mkdocs",
        "markupsafe",
    }
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
    # (Environment.cache: the preview once deleted from it; Jinja's public auto_reload does that now)
    "generator/i18n/jinja_internals.py": [
        r"__jinja_template__", r"_getframe", r"currentframe", r"\benv\.cache\b",
        r"_CommentFinder", r"def _parse\(", r"\._parse\(", r"\.lexer\.", r"filter_stream", r"\bParser\(",
    ],
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


# A seam's checks kept in a module beside it probe the same private names: allowed there too.
_CHECKS_BESIDE = {"generator/io/yaml_seam.py": "generator/io/yamlload.py"}


def test_each_private_name_is_used_in_its_seam_only() -> None:
    found = []
    for path in sorted((ROOT / "generator").rglob("*.py")):
        shown = path.relative_to(ROOT).as_posix()
        text = path.read_text("utf-8")
        for seam, patterns in _ONLY_IN_SEAM.items():
            if seam in (shown, _CHECKS_BESIDE.get(shown)):
                continue
            found += [
                f"{shown}: {pattern} (belongs in {seam})" for pattern in patterns if re.search(pattern, text)
            ]
    assert not found, "\n".join(found)
