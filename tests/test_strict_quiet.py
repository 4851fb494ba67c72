"""`mkdocs build --strict -q` refuses a site with warnings, as `--strict` alone does: `-q` hid every
warning from MkDocs' counter (mkdocs#4126), so a broken link passed quietly (StrictWarnings)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import copy_project
from support.newlang import build_site


@pytest.mark.slow
def test_a_quiet_strict_build_with_a_broken_link_is_refused_and_the_old_site_stays(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    template = project / "templates" / "index.md.j2"
    template.write_text(template.read_text(encoding="utf-8") + "\n[Nowhere](nowhere.md)\n", encoding="utf-8")
    out = tmp_path / "site"
    (out / "old").mkdir(parents=True)

    result = build_site(project, out)  # --strict -q

    assert result.returncode == 1, result.stderr
    assert "Aborted with" in result.stderr and "in strict mode" in result.stderr
    assert "nowhere.md" not in result.stderr  # quiet: the warning is counted, not shown
    assert sorted(path.name for path in out.iterdir()) == ["old"]
