"""The user's cache (generator/io/cache.py): compiled templates (pages/compiled.py) and extracted
messages (i18n/extraction.py) kept between runs, found by what they are made from, not by where:
a speed-up that changes no page, no catalog and no error."""

from __future__ import annotations

import os
import types
from collections.abc import Iterator
from pathlib import Path

import jinja2
import pytest
from support import ROOT

from rulesdoc.catalog import kept, po, po_writer
from rulesdoc.errors import RulesdocError, display_path
from rulesdoc.i18n import extraction
from rulesdoc.io import cache as user_cache
from rulesdoc.pages import compiled
from rulesdoc.pages.environment import make_environment
from rulesdoc.pages.template_errors import template_error

PAGE = "{% for n in range(3) %}\n  {{ n }}{% endfor %}\n{{ _('Hello') }} {{ missing.name }}\n"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv("RULESDOC_CACHE_DIR", str(where))
    monkeypatch.delenv("RULESDOC_NO_CACHE", raising=False)
    return where / "templates"


@pytest.fixture
def compiles(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str | None]]:
    """The names of the templates Jinja compiles from their text."""
    names: list[str | None] = []
    original = jinja2.Environment.compile

    def counted(
        self: jinja2.Environment, source: object, name: str | None = None, *args: object, **kw: object
    ) -> object:
        names.append(name)
        return original(self, source, name, *args, **kw)  # type: ignore[call-overload]

    monkeypatch.setattr(jinja2.Environment, "compile", counted)
    yield names


def templates(folder: Path, text: str = PAGE) -> Path:
    folder.mkdir(parents=True)
    (folder / "page.md.j2").write_text(text, "utf-8")
    return folder


def code_files(code: types.CodeType) -> set[str]:
    inner = [c for c in code.co_consts if isinstance(c, types.CodeType)]
    return {code.co_filename}.union(*(code_files(c) for c in inner))


def test_a_second_run_loads_the_code_and_a_changed_template_is_compiled(
    tmp_path: Path, cache: Path, compiles: list[str | None]
) -> None:
    folder = templates(tmp_path / "templates")
    make_environment(folder).get_template("page.md.j2")
    assert compiles == ["page.md.j2"] and len(list(cache.glob("*.entry"))) == 1
    make_environment(folder).get_template("page.md.j2")
    assert compiles == ["page.md.j2"], "the second run compiled again"
    (folder / "page.md.j2").write_text(PAGE.replace("Hello", "Hi"), "utf-8")
    template = make_environment(folder).get_template("page.md.j2")
    assert compiles == ["page.md.j2"] * 2
    assert template.render(_=str, missing={"name": "x"}).endswith("Hi x\n")


def test_another_copy_of_the_templates_is_named_in_its_code_and_its_errors(
    tmp_path: Path, cache: Path
) -> None:
    first, second = templates(tmp_path / "a" / "templates"), templates(tmp_path / "b" / "templates")
    make_environment(first).get_template("page.md.j2")
    loaded = make_environment(second).get_template("page.md.j2")
    assert len(list(cache.glob("*.entry"))) == 1, "the two copies should share one entry"
    assert code_files(loaded.root_render_func.__code__) == {str(second / "page.md.j2")}
    with pytest.raises(jinja2.UndefinedError) as raised:
        loaded.render(_=str)
    error = template_error(raised.value, second, "page.md.j2")
    assert error.location is not None and error.location.line == 3
    assert Path(error.location.path).resolve() == (second / "page.md.j2").resolve()


def test_an_environment_that_makes_other_code_has_its_own_entry(
    tmp_path: Path, cache: Path, compiles: list[str | None]
) -> None:
    folder = templates(tmp_path / "templates")
    trimmed = make_environment(folder).get_template("page.md.j2").render(_=str, missing={"name": "x"})
    kept = make_environment(folder)
    kept.trim_blocks = kept.lstrip_blocks = False  # the lexer's settings change the code
    untrimmed = kept.get_template("page.md.j2").render(_=str, missing={"name": "x"})
    assert compiles == ["page.md.j2"] * 2
    assert trimmed == "  0  1  2Hello x\n"  # the newline after each block tag dropped
    assert untrimmed == "\n  0\n  1\n  2\nHello x\n"
    assert len(list(cache.glob("*.entry"))) == 2


def test_a_damaged_entry_is_compiled_again_with_the_same_page(
    tmp_path: Path, cache: Path, compiles: list[str | None]
) -> None:
    folder = templates(tmp_path / "templates")
    page = make_environment(folder).get_template("page.md.j2").render(_=str, missing={"name": "x"})
    for damage in (b"", b"\x00" * 40, b"not a Jinja entry at all"):
        (entry,) = cache.glob("*.entry")
        entry.write_bytes(damage)
        again = make_environment(folder).get_template("page.md.j2").render(_=str, missing={"name": "x"})
        assert again == page
    assert compiles == ["page.md.j2"] * 4


def test_the_user_can_turn_it_off_and_a_folder_others_can_write_is_not_used(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("RULESDOC_NO_CACHE", "1")
    assert compiled.code_cache() is None
    monkeypatch.setenv("RULESDOC_NO_CACHE", "0")
    assert compiled.code_cache() is not None and cache.is_dir()
    assert cache.stat().st_mode & 0o777 == 0o700
    os.chmod(cache, 0o777)  # the code it holds would be anyone's
    assert compiled.code_cache() is None and compiled.code_cache() is None
    said = [r.getMessage() for r in caplog.records if r.name == "rulesdoc"]
    assert said == [
        f"cache {cache} not used (not a folder of this user's alone): working without it; "
        "RULESDOC_CACHE_DIR names another folder, RULESDOC_NO_CACHE=1 turns it off"
    ], "said once, as a warning"
    assert caplog.records[0].levelname == "WARNING"
    blocked = tmp_path / "a file"
    blocked.write_text("", "utf-8")
    monkeypatch.setenv("RULESDOC_CACHE_DIR", str(blocked))  # cannot be made: compiled as before
    assert compiled.code_cache() is None
    folder = templates(tmp_path / "templates")
    assert make_environment(folder).get_template("page.md.j2").render(_=str, missing={"name": "x"})


def test_only_the_most_recently_used_entries_are_kept(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(user_cache, "KEPT", 3)
    folder = templates(tmp_path / "templates")
    env = make_environment(folder)
    for n in range(5):
        (folder / f"t{n}.j2").write_text(f"{n}", "utf-8")
        env.get_template(f"t{n}.j2")
    assert len(list(cache.glob("*.entry"))) == 3
    assert not list(cache.glob(".*.tmp")), "a temporary file was left behind"


def test_a_set_of_templates_is_kept_while_none_of_its_members_changes(tmp_path: Path, cache: Path) -> None:
    """The theme's templates, compiled together by the site build's helper process."""
    folder = templates(tmp_path / "templates", "{% include 'part.html' %}")
    (folder / "part.html").write_text("part", "utf-8")
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(folder)))
    kept = compiled.code_cache()
    assert kept is not None and kept.load_set(env, ["page.md.j2"]) is None
    members = {
        name: (str(folder / name), kept.get_source_checksum((folder / name).read_text("utf-8")))
        for name in ("page.md.j2", "part.html")
    }
    code = {"some key": b"some code"}
    kept.dump_set(env, ["page.md.j2"], members, code)
    assert kept.load_set(env, ["page.md.j2"]) == code
    assert kept.load_set(env, ["part.html"]) is None, "another set"
    (folder / "part.html").write_text("changed", "utf-8")
    assert kept.load_set(env, ["page.md.j2"]) is None, "a member changed: compiled again"
    (folder / "part.html").write_text("part", "utf-8")
    assert kept.load_set(env, ["page.md.j2"]) == code
    (entry,) = cache.glob("*.entry")
    entry.write_bytes(entry.read_bytes()[:-3])
    assert kept.load_set(env, ["page.md.j2"]) is None, "a damaged entry"


@pytest.fixture
def extractions(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Each template Jinja's extractor reads (the kept extraction not found)."""
    from rulesdoc.i18n import jinja_internals

    parsed: list[object] = []
    original = jinja_internals.extract

    def counted(fileobj: object, *args: object, **kw: object) -> object:
        parsed.append(fileobj)
        return original(fileobj, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(jinja_internals, "extract", counted)
    return parsed


def test_an_extraction_kept_gives_the_same_catalog_and_a_changed_template_is_parsed(
    project_copy: Path, cache: Path, extractions: list[object], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    first = po_writer.to_bytes(extraction.extract(project_copy))
    parsed = len(extractions)
    assert parsed == len(list((project_copy / "templates").glob("*.j2")))
    assert po_writer.to_bytes(extraction.extract(project_copy)) == first
    assert len(extractions) == parsed, "the second extraction parsed the templates again"
    monkeypatch.setenv("RULESDOC_NO_CACHE", "1")
    assert po_writer.to_bytes(extraction.extract(project_copy)) == first, "the cache changed the catalog"
    monkeypatch.delenv("RULESDOC_NO_CACHE")
    page = project_copy / "templates" / "index.md.j2"
    page.write_text(page.read_text("utf-8") + "\n{{ _('A message added') }}\n", "utf-8")
    parsed = len(extractions)
    assert b'msgid "A message added"' in po_writer.to_bytes(extraction.extract(project_copy))
    assert len(extractions) == parsed + 1, "only the changed template is parsed"
    for entry in (cache.parent / extraction.EXTRACTED).glob("*.entry"):
        entry.write_bytes(b"damaged")
    damaged = po_writer.to_bytes(extraction.extract(project_copy))
    monkeypatch.setenv("RULESDOC_NO_CACHE", "1")
    assert damaged == po_writer.to_bytes(extraction.extract(project_copy)), "a damaged entry was used"


def test_a_template_that_does_not_parse_is_refused_every_time(project_copy: Path, cache: Path) -> None:
    page = project_copy / "templates" / "index.md.j2"
    page.write_text(page.read_text("utf-8") + "\n{% if %}\n", "utf-8")
    for _ in range(2):
        with pytest.raises(RulesdocError, match="template syntax error"):
            extraction.extract(project_copy)


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Each catalog the parser reads."""
    parsed: list[Path] = []
    original = po.parse

    def counted(data: bytes, path: Path, shown: str | None = None) -> po.LoadedCatalog:
        parsed.append(path)
        return original(data, path, shown)

    monkeypatch.setattr(po, "parse", counted)
    return parsed


def test_a_catalog_kept_is_the_catalog_parsed_and_names_its_own_file(
    tmp_path: Path, cache: Path, parses: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    source = ROOT / "locales" / "da" / "LC_MESSAGES" / "messages.po"
    first, second = tmp_path / "a.po", tmp_path / "b.po"
    for path in (first, second):
        path.write_bytes(source.read_bytes())
    parsed = po.load(first)
    loaded = po.load(second)
    assert parses == [first], "the copy was parsed again"
    assert (loaded.path, loaded.shown) == (second, display_path(second))
    assert po_writer.to_bytes(loaded.catalog, loaded.headers) == po_writer.to_bytes(
        parsed.catalog, parsed.headers
    )
    same = ("forms_written", "header_lines", "plural_error", "lines", "headers", "entry_lines")
    assert all(getattr(loaded, name) == getattr(parsed, name) for name in same)
    assert loaded.plural_forms is not None and parsed.plural_forms is not None
    assert [loaded.plural_forms.select(n) for n in range(30)] == [
        parsed.plural_forms.select(n) for n in range(30)
    ]
    (entry,) = (cache.parent / kept.KIND).glob("*.entry")
    entry.write_bytes(b"\x80\x05damaged")
    assert po.load(second).catalog.get("Joker") is not None
    assert parses == [first, second], "a damaged entry is parsed again"
    monkeypatch.setattr(kept, "_parser", lambda: "another parser's code")
    po.load(second)
    assert parses == [first, second, second], "a parse by other code was used"
    second.write_bytes(source.read_bytes().replace(b'msgid "Joker"', b'msgid "Jokers"'))
    assert po.load(second).catalog.get("Jokers") is not None, "changed bytes, another entry"


def test_a_refused_catalog_is_refused_every_time(tmp_path: Path, cache: Path) -> None:
    broken = tmp_path / "broken.po"
    broken.write_text('msgid "a"\nmsgstr "b"\nmsgid "a"\nmsgstr "c"\n', "utf-8")
    for _ in range(2):
        with pytest.raises(RulesdocError, match="broken.po:3"):
            po.load(broken)


def test_a_set_member_named_but_missing_stays_fresh_until_it_is_made(tmp_path: Path, cache: Path) -> None:
    folder = templates(tmp_path / "templates", "{% include 'part.html' ignore missing %}")
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(folder)))
    kept = compiled.code_cache()
    assert kept is not None
    checksum = kept.get_source_checksum((folder / "page.md.j2").read_text("utf-8"))
    members = {"page.md.j2": (str(folder / "page.md.j2"), checksum), "part.html": (None, compiled.MISSING)}
    kept.dump_set(env, ["page.md.j2"], members, {"key": b"code"})
    assert kept.load_set(env, ["page.md.j2"]) == {"key": b"code"}
    (folder / "part.html").write_text("made", "utf-8")
    assert kept.load_set(env, ["page.md.j2"]) is None, "the template made since is compiled with the set"


def test_the_cache_is_the_users_own_by_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("RULESDOC_CACHE_DIR", "RULESDOC_NO_CACHE", "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert user_cache.root() == tmp_path / "home" / ".cache" / "rulesdoc"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert user_cache.root() == tmp_path / "xdg" / "rulesdoc"
    monkeypatch.setenv("RULESDOC_CACHE_DIR", str(tmp_path / "chosen"))
    assert user_cache.root() == tmp_path / "chosen"
    monkeypatch.setenv("RULESDOC_NO_CACHE", "yes")
    assert user_cache.root() is None


def test_a_kept_catalog_is_named_by_every_module_its_parse_runs() -> None:
    """kept.PARSER_MODULES: po.py and every rulesdoc module it imports, to the end (a change to
    any of them must not serve a parse made by the code before it)."""
    import ast

    package = ROOT / "generator"
    found: set[str] = set()
    waiting = ["catalog/po.py"]
    while waiting:
        name = waiting.pop()
        if name in found:
            continue
        found.add(name)
        for node in ast.walk(ast.parse((package / name).read_text("utf-8"))):
            modules = [node.module] if isinstance(node, ast.ImportFrom) and node.module else []
            modules += [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module in (
                "rulesdoc",
                "rulesdoc.catalog",
                "rulesdoc.io",
            ):
                modules = [f"{node.module}.{alias.name}" for alias in node.names]
            for module in modules:
                if module.startswith("rulesdoc."):
                    path = module.removeprefix("rulesdoc.").replace(".", "/")
                    waiting.append(
                        f"{path}.py" if (package / f"{path}.py").is_file() else f"{path}/__init__.py"
                    )
    assert found == set(kept.PARSER_MODULES)


def test_without_a_helper_the_theme_is_the_set_kept_or_compiled_on_use(
    cache: Path, compiles: list[str | None], monkeypatch: pytest.MonkeyPatch
) -> None:
    """One core (or RULESDOC_WORKERS=1): no helper process, and the theme's code still outlives
    the run in the user's cache; with the cache off, nothing is compiled ahead of use."""
    from mkdocs.theme import Theme

    from rulesdoc.site import helper

    theme = Theme(name="mkdocs")

    def environment(env: jinja2.Environment, dirs: list[str]) -> jinja2.Environment:
        made = jinja2.Environment(loader=env.loader, extensions=list(env.extensions))
        made.filters.update(env.filters)
        return made

    helper.without_helper(theme, environment)
    first = helper.compiled()
    assert "main.html" in compiles and len(first) == len(compiles) > 3
    compiles.clear()
    helper.without_helper(theme, environment)
    assert helper.compiled() == first and not compiles, "the kept set, nothing compiled"
    assert helper.compiled() == {}, "given once: the run's environment holds it from then on"
    monkeypatch.setenv("RULESDOC_NO_CACHE", "1")
    helper.without_helper(theme, environment)
    assert helper.compiled() == {} and not compiles


def test_without_a_helper_a_theme_that_does_not_compile_is_left_to_the_build(
    cache: Path, tmp_path: Path
) -> None:
    """A broken override is the build's to report, on use, as with the helper: no traceback here."""
    from mkdocs.theme import Theme

    from rulesdoc.site import helper

    custom = tmp_path / "overrides"
    custom.mkdir()
    (custom / "main.html").write_text("{% block content %}{% if %}{% endblock %}", "utf-8")
    theme = Theme(name="mkdocs", custom_dir=str(custom))
    helper.without_helper(theme, lambda env, dirs: env)
    assert helper.compiled() == {}
