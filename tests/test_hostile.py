"""Issue 21 (untrusted input, round three): files, symlinks and YAML that once got past the bounds.

The bad-input corpus (tests/bad_inputs/cases.yaml) holds the command-level cases; these are
the cases the corpus cannot set up (symlink loops) and the unit-level ones.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import os
import resource
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from support import copy_project
from support.inprocess import run_main

from rulesdoc.errors import RulesdocError
from rulesdoc.i18n.translate import catalog_codes
from rulesdoc.io import files, folders


def test_a_symlink_loop_is_one_error(tmp_path: Path) -> None:
    loop = tmp_path / "rules.yaml"
    loop.symlink_to(loop)
    with pytest.raises(RulesdocError, match="is a symlink loop; refused"):
        files.read_text(loop, files.MAX_RULES_BYTES, tmp_path)


def test_a_folder_symlinked_out_of_the_project_is_refused(tmp_path: Path) -> None:
    """Not only the file itself: a folder on its way that leads out of the project."""
    outside = tmp_path / "outside" / "LC_MESSAGES"
    outside.mkdir(parents=True)
    (outside / "messages.po").write_text("secret", "utf-8")
    project = tmp_path / "project"
    (project / "locales").mkdir(parents=True)
    (project / "locales" / "sv").symlink_to(outside.parent)
    with pytest.raises(RulesdocError, match="outside the project"):
        files.read_bytes(project / "locales" / "sv" / "LC_MESSAGES" / "messages.po", 100, project)


def test_a_file_given_outside_the_project_is_the_users_choice(tmp_path: Path) -> None:
    elsewhere = tmp_path / "other.yaml"
    elsewhere.write_text("x: 1\n", "utf-8")
    (tmp_path / "project").mkdir()
    assert files.read_text(elsewhere, 100, tmp_path / "project") == "x: 1\n"


def test_dangling_and_looping_catalogs_are_languages_not_dropped(tmp_path: Path) -> None:
    for code, target in (("sv", tmp_path / "nothing.po"), ("fi", None)):
        folder = tmp_path / "locales" / code / "LC_MESSAGES"
        folder.mkdir(parents=True)
        (folder / "messages.po").symlink_to(target or folder / "messages.po")
    assert catalog_codes(tmp_path / "locales") == ["fi", "sv"]
    for code, error in (("sv", "dangling"), ("fi", "loop")):
        with pytest.raises(RulesdocError, match=error):
            files.read_bytes(tmp_path / "locales" / code / "LC_MESSAGES" / "messages.po", 100, tmp_path)


def run(root: Path, *args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "rulesdoc", "--root", str(root), *args],
        cwd=root, input=stdin, capture_output=True, timeout=120,
    )  # fmt: skip
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(), done.stderr.decode())


@pytest.mark.slow
@pytest.mark.parametrize("command", ["render", "score", "check", "export", "report"])
def test_a_rules_symlink_loop_is_one_line_in_every_command(tmp_path: Path, command: str) -> None:
    project = copy_project(tmp_path / "project")
    (project / "rules.yaml").unlink()
    (project / "rules.yaml").symlink_to(project / "rules.yaml")
    args = {"score": ["score", "-"], "report": ["report", "--base", "HEAD"]}.get(command, [command])
    done = run(project, *args)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines() == ["rulesdoc: error: rules.yaml: is a symlink loop; refused"]


# ---------------------------------------------------------------- writing: no traceback, no 0700


def test_the_staging_folder_has_the_umasks_mode(tmp_path: Path) -> None:
    """mkdtemp's 0700 became the published site's mode: a web server of another user got 403."""
    old = os.umask(0o022)
    try:
        staged = folders.staging_folder(tmp_path / "site")
    finally:
        os.umask(old)
    assert stat.S_IMODE(staged.stat().st_mode) == 0o755


def test_a_mount_point_has_its_contents_replaced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """renameat2 on a mount point (a Docker volume) fails with EBUSY: the contents are replaced."""
    target = tmp_path / "site"
    target.mkdir()
    (target / "old.html").write_text("old", "utf-8")
    (target / "assets").mkdir()
    staged = folders.staging_folder(target)
    (staged / "index.html").write_text("new", "utf-8")

    def busy(new: Path, old: Path) -> bool:
        raise OSError(errno.EBUSY, os.strerror(errno.EBUSY), str(old))

    monkeypatch.setattr(folders, "exchange", busy)
    folders.replace_folder(staged, target)
    assert sorted(p.name for p in target.iterdir()) == ["index.html"]
    assert not staged.exists()


def limited(size: int) -> Callable[[], None]:
    return lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


@pytest.mark.slow
@pytest.mark.parametrize("step", ["extract", "update"])
def test_a_file_size_limit_is_one_line(tmp_path: Path, step: str) -> None:
    """``ulimit -f``: EFBIG (Python ignores SIGXFSZ) is one line naming the file; the old file stays."""
    project = copy_project(tmp_path / "project")
    pot = project / "locales" / "messages.pot"
    pot.write_bytes(pot.read_bytes().replace(b'msgid "Rami help"', b'msgid "Rami help!"', 1))
    before = {p: p.read_bytes() for p in (project / "locales").rglob("*.po*")}
    done = subprocess.run(
        [sys.executable, "-m", "rulesdoc", "--root", str(project), "catalog", step],
        cwd=project, capture_output=True, text=True, timeout=120, preexec_fn=limited(4096),
    )  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("rulesdoc: error: "), done.stderr
    assert "cannot write: File too large" in lines[0]
    assert {p: p.read_bytes() for p in (project / "locales").rglob("*.po*")} == before


# ---------------------------------------------------------------- output details


def test_theme_strings_outside_the_bmp_stay_whole() -> None:
    """json.dumps' ASCII escapes gave Jinja two lone surrogates (&#55357;&#56832;) for one emoji."""
    import jinja2

    from rulesdoc.i18n.theme import ThemeStrings

    module = jinja2.Environment().from_string(ThemeStrings({"search": "Søg 😀"}).partial()).module
    assert str(module.t("search")) == "Søg 😀"  # type: ignore[attr-defined]


def test_a_card_name_is_escaped_once_in_its_aria_label() -> None:
    from rulesdoc.pages.view import CardChip

    chip = CardChip("AH", "A&amp;H\\_1", "♥", "red", "A&H_1")
    assert 'aria-label="A&amp;H_1"' in chip.html
    assert "</span> A&amp;H\\_1</span>" in chip.html


def test_a_no_python_format_note_keeps_one_flag() -> None:
    from babel.messages.catalog import Catalog

    from rulesdoc.catalog import po_writer

    catalog = Catalog(locale="da")
    catalog.add("Worth %(points)s", flags=["no-python-format"])
    text = po_writer.to_bytes(catalog).decode()
    assert "#, no-python-format\nmsgid" in text
    assert "python-format," not in text and ", python-format" not in text


@pytest.mark.slow
def test_a_site_build_past_ulimit_f_is_one_error_and_keeps_the_old_site(tmp_path: Path) -> None:
    """MkDocs' own copy of a theme file fails with EFBIG: its error line, no traceback, site/ kept."""
    project = copy_project(tmp_path / "project")
    (project / "site").mkdir()
    (project / "site" / "index.html").write_text("the old site", "utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build"], cwd=project, capture_output=True, text=True,
        timeout=300, preexec_fn=limited(100 * 1024), env={**os.environ},
    )  # fmt: skip
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert "Traceback" not in output
    assert "cannot write: File too large" in output
    assert (project / "site" / "index.html").read_text("utf-8") == "the old site"
    assert not list(project.glob(".site.rulesdoc-*"))


def test_a_utf8_bom_is_accepted_where_yaml_allows_it(tmp_path: Path) -> None:
    """rules.yaml (and check.yaml, glossaries, mkdocs.yml): YAML, PyYAML and MkDocs accept a
    UTF-8 byte order mark; the rules read with one are the rules read without."""
    from support import ROOT

    from rulesdoc.spec.rules import load_rules

    plain = ROOT / "rules.yaml"
    marked = tmp_path / "rules.yaml"
    marked.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes())
    with_mark, without = load_rules(marked, tmp_path), load_rules(plain)
    assert with_mark == dataclasses.replace(without, source=with_mark.source)


@pytest.mark.parametrize(
    ("data", "yaml_ok", "says"),
    [
        (
            b"\xef\xbb\xbfmsgid",
            False,
            "x.po:1: starts with a UTF-8 byte order mark; save it as UTF-8 without one",
        ),
        ("msgid".encode("utf-16"), True, "x.po:1: starts with a UTF-16 byte order mark; save it as UTF-8"),
        ("msgid".encode("utf-16-be"), True, None),  # no mark: bytes, not a byte order mark
        ("msgid".encode("utf-32"), True, "x.po:1: starts with a UTF-32 byte order mark; save it as UTF-8"),
    ],
)
def test_a_byte_order_mark_is_named(data: bytes, yaml_ok: bool, says: str | None) -> None:
    if says is None:
        assert files.decode_utf8(data, "x.po", utf8_bom=yaml_ok) == data.decode("utf-8")
        return
    with pytest.raises(RulesdocError) as raised:
        files.decode_utf8(data, "x.po", utf8_bom=yaml_ok)
    assert str(raised.value) == says
    if data.startswith(b"\xef\xbb\xbf"):
        assert files.decode_utf8(data, "x.po", utf8_bom=True) == "msgid"


def _update(project: Path) -> subprocess.CompletedProcess[str]:
    pot = project / "locales" / "messages.pot"
    pot.write_bytes(pot.read_bytes().replace(b'msgid "Rami help"', b'msgid "Rami help!"', 1))
    return run_main(["--root", str(project), "catalog", "update"], cwd=project)


def test_a_symlinked_catalog_is_updated_through_the_link(tmp_path: Path) -> None:
    """Issue 32, item 5: `catalog update` replaced the link by a regular file; the shared target went stale."""
    plain = copy_project(tmp_path / "plain")
    linked = copy_project(tmp_path / "linked")
    catalog = linked / "locales/da/LC_MESSAGES/messages.po"
    shared = linked / "translations/da.po"
    shared.parent.mkdir()
    catalog.rename(shared)
    catalog.symlink_to("../../../translations/da.po")
    for project in (plain, linked):
        done = _update(project)
        assert done.returncode == 0 and done.stderr == "", done.stderr
    assert catalog.is_symlink() and os.readlink(catalog) == "../../../translations/da.po"
    expected = (plain / "locales/da/LC_MESSAGES/messages.po").read_bytes()
    assert b'msgid "Rami help!"' in expected and shared.read_bytes() == expected
    leftovers = [
        p.name
        for folder in (catalog.parent, shared.parent)
        for p in folder.iterdir()
        if p.name.startswith(".")
    ]
    assert leftovers == []


@pytest.mark.parametrize("root", ["project", None])
def test_a_symlink_out_of_the_project_is_never_written_through(tmp_path: Path, root: str | None) -> None:
    outside = tmp_path / "outside.po"
    outside.write_text("theirs", "utf-8")
    project = tmp_path / "project"
    project.mkdir()
    link = project / "messages.po"
    link.symlink_to(outside)
    inside = project / "inside.po"
    inside.write_text("ours", "utf-8")
    says = " to a file outside the project" if root else r" \(and no project to keep it inside\)"
    with pytest.raises(
        RulesdocError, match=f"^project/messages.po: is a symlink{says}; refused, not written through$"
    ):
        with contextlib.chdir(tmp_path):
            files.write_atomically(link, b"new", root=tmp_path / root if root else None)
    assert link.is_symlink() and outside.read_text("utf-8") == "theirs"
    other = project / "other.po"
    other.symlink_to("inside.po")
    if root:  # inside the project: written through, the link kept
        files.write_atomically(other, b"new", root=project)
        assert other.is_symlink() and inside.read_text("utf-8") == "new"
