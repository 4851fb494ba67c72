"""The site's name is the project's own (mkdocs.yml `site_name`), not ours (issue 29): extracted
for translators from mkdocs.yml, translated where a catalog has it, and marked English where not."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from support.newlang import build_site

from rulesdoc.cli.main import run as main
from rulesdoc.cli.scaffold import new_project
from rulesdoc.i18n.theme import CONFIG_NOTES, SITE_NAME_NOTE, config_message, extract_theme
from rulesdoc.io.project import Project
from rulesdoc.site.languages import DEFAULT_SITE_NAME, prepare, site_name_of


def with_site_name(project: Path, line: str) -> Project:
    config = project / "mkdocs.yml"
    lines = [
        line if text.startswith("site_name:") else text
        for text in config.read_text(encoding="utf-8").splitlines()
    ]
    config.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return Project.at(project)


def test_every_language_shows_the_projects_own_name(project_copy: Path) -> None:
    project = with_site_name(project_copy, "site_name: 'Kortspil <hjælp> & regler'")
    assert site_name_of(project) == "Kortspil <hjælp> & regler"
    rendering = prepare(project, ["da"], strict=False)
    for site in rendering.sites.values():
        assert str(site.site_name) == "Kortspil &lt;hjælp&gt; &amp; regler"  # escaped for the page
    danish = rendering.sites["da"]
    assert danish.site_name_english  # no catalog translates it yet: marked lang="en" by the chrome
    assert not rendering.sites["en"].site_name_english


def test_the_name_is_extracted_from_mkdocs_yml_with_its_line() -> None:
    text = b'# the site\nsite_name: "My game help"\ntheme:\n  name: material\n'
    found = [entry for entry in extract_theme(io.BytesIO(text), {}, (), {}) if entry[1] == "gettext"]
    assert found == [(2, "gettext", "My game help", [SITE_NAME_NOTE])]


def test_no_site_name_is_a_plain_default(tmp_path: Path) -> None:
    (tmp_path / "mkdocs.yml").write_text("theme: material\n", encoding="utf-8")
    assert site_name_of(Project.at(tmp_path)) == DEFAULT_SITE_NAME


def with_config(project: Path, lines: dict[str, str]) -> Project:
    """mkdocs.yml with these top-level lines instead of (or besides) its own."""
    config = project / "mkdocs.yml"
    kept = [text for text in config.read_text("utf-8").splitlines() if text.partition(":")[0] not in lines]
    config.write_text(
        "\n".join([*(f"{key}: {value}" for key, value in lines.items()), *kept]) + "\n", "utf-8"
    )
    return Project.at(project)


def translate_in(po: Path, translations: dict[str, str]) -> None:
    text = po.read_text("utf-8")
    for msgid, msgstr in translations.items():
        entry = f'msgid "{msgid}"\nmsgstr ""\n'
        assert entry in text, f"{msgid!r} is not an untranslated entry of {po}"
        text = text.replace(entry, f'msgid "{msgid}"\nmsgstr "{msgstr}"\n')
    po.write_text(text, "utf-8")


OTHER_NAMES = {
    "site_name": '"Kortspil"',
    "copyright": '"&copy; 2026 Spilfirma &amp; Co"',
    "repo_name": '"spilfirma/kortspil"',
    "repo_url": "https://example.org/spilfirma/kortspil",
}


def test_copyright_and_repo_name_are_messages_with_their_lines_and_notes() -> None:
    text = (
        b'site_name: "My game help"\ncopyright: "&copy; 2026 Me"\nrepo_name: me/game\n'
        b"theme:\n  name: material\n"
    )
    found = [entry for entry in extract_theme(io.BytesIO(text), {}, (), {}) if entry[1] == "gettext"]
    assert [(line, message) for line, _, message, _ in found] == [
        (1, "My game help"), (2, "© 2026 Me"), (3, "me/game"),
    ]  # fmt: skip
    assert [note for *_, (note,) in found] == list(CONFIG_NOTES.values())


def test_a_copyright_with_tags_stays_as_written() -> None:
    """The copyright is HTML by the theme's design; a catalog may put no markup into the site."""
    assert config_message("copyright", '<a href="https://example.org">Me</a>') is None
    assert config_message("copyright", "&copy; 2026  Me") == "© 2026 Me"


def test_copyright_and_repo_name_translated_escaped_or_marked_english(project_copy: Path) -> None:
    """A catalog's translation is text, escaped; where none is, mkdocs.yml's own, lang="en"."""
    project = with_config(
        project_copy, {"copyright": '"&copy; 2026 Spilfirma"', "repo_name": "spilfirma/kortspil"}
    )
    assert main(["--root", str(project_copy), "catalog", "extract"]) == 0
    assert main(["--root", str(project_copy), "catalog", "update"]) == 0
    po = project_copy / "locales" / "da" / "LC_MESSAGES" / "messages.po"
    translate_in(po, {"© 2026 Spilfirma": '© 2026 Spilfirma \\"Danmark\\"'})
    # A translation that adds a tag is refused (the markup rule): the English shows, marked.
    translate_in(
        project_copy / "locales" / "nl" / "LC_MESSAGES" / "messages.po", {"© 2026 Spilfirma": "<b>©</b>"}
    )
    rendering = prepare(project, ["da", "nl"], strict=False)
    english, danish, dutch = (rendering.sites[code] for code in ("en", "da", "nl"))
    assert (
        str(english.copyright) == "&copy; 2026 Spilfirma"
        and str(english.repo_name_html()) == "spilfirma/kortspil"
    )
    assert str(danish.copyright) == "© 2026 Spilfirma &#34;Danmark&#34;"
    assert str(danish.repo_name_html()) == '<span lang="en">spilfirma/kortspil</span>'
    assert str(dutch.copyright) == '<span lang="en">&copy; 2026 Spilfirma</span>'


@pytest.mark.slow
def test_a_project_with_its_own_names_shows_none_of_ours(tmp_path: Path) -> None:
    """Built, a project of the user's own (`rulesdoc new`) with its own name, copyright and
    repository has them in every language, and none of this checkout's."""
    project_copy = tmp_path / "project"
    new_project(project_copy, "Kortspil", ["da", "nl"], lambda line: None)
    with_config(project_copy, OTHER_NAMES)
    assert main(["--root", str(project_copy), "catalog", "extract"]) == 0
    assert main(["--root", str(project_copy), "catalog", "update"]) == 0
    po = project_copy / "locales" / "da" / "LC_MESSAGES" / "messages.po"
    translate_in(po, {"Kortspil": "Kortspil på dansk", "spilfirma/kortspil": "spilfirma/kortspil-da",
                      "© 2026 Spilfirma & Co": "© 2026 Spilfirma & Co (Danmark)"})  # fmt: skip
    built = build_site(project_copy, tmp_path / "site")
    assert built.returncode == 0, built.stdout + built.stderr
    pages = {
        path.relative_to(tmp_path / "site").as_posix(): path.read_text("utf-8", "replace")
        for path in (tmp_path / "site").rglob("*")
        if path.suffix in (".html", ".json", ".xml")
    }
    ours = ("Rami help", "OWNER", "github.com")
    assert [(name, word) for name, text in pages.items() for word in ours if word in text] == []
    english, danish, dutch = (pages[f"{lang}scoring.html"] for lang in ("", "da/", "nl/"))
    assert "&copy; 2026 Spilfirma &amp; Co" in english and "spilfirma/kortspil" in english  # as written
    assert "Kortspil på dansk" in danish and "spilfirma/kortspil-da" in danish
    assert "© 2026 Spilfirma &amp; Co (Danmark)" in danish
    # Untranslated: mkdocs.yml's own, marked English.
    assert '<span lang="en">&copy; 2026 Spilfirma &amp; Co</span>' in dutch
    assert '<span lang="en">spilfirma/kortspil</span>' in dutch
