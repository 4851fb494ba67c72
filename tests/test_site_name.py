"""The site's name is the project's own (mkdocs.yml `site_name`), not ours (issue 29): extracted
for translators from mkdocs.yml, translated where a catalog has it, and marked English where not."""

from __future__ import annotations

import io
from pathlib import Path

from rulesdoc.i18n.theme import SITE_NAME_NOTE, extract_theme
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
