"""ProperDocs 1.6 in place of MkDocs (issue 28, goal 2), in a virtualenv without the mkdocs package
(scripts/engine-venv.sh, cached in .venv-properdocs): every rulesdoc command works there, the site
is MkDocs' byte for byte but the generator tag, and a strict build refuses what MkDocs refuses."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from support import PUBLISHED, ROOT, copy_project
from support.engines import ENV, engine_python, run

pytestmark = pytest.mark.slow

GENERATOR_TAG = re.compile(rb'<meta name="generator" content="[^"]*">')


@pytest.fixture(scope="module")
def python() -> Path:
    return engine_python("properdocs")


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_project(tmp_path_factory.mktemp("project"))


@pytest.fixture(scope="module")
def site(python: Path, project: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("properdocs-site")
    built = run(python, "-m", "properdocs", "build", "--strict", "-d", str(out), cwd=project)
    assert built.returncode == 0, built.stderr
    return out


def test_the_venv_has_no_mkdocs_package(python: Path) -> None:
    found = run(python, "-c", "import mkdocs", cwd=ROOT)
    assert found.returncode == 1 and "No module named 'mkdocs'" in found.stderr


def test_check_and_render_work_without_mkdocs(python: Path, project: Path, tmp_path: Path) -> None:
    checked = run(python, "-m", "rulesdoc", "check", cwd=project)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    rendered = run(python, "-m", "rulesdoc", "render", "--out", str(tmp_path / "pages"), cwd=project)
    assert rendered.returncode == 0, rendered.stderr
    for code in PUBLISHED:
        assert (tmp_path / "pages" / code / "index.md").is_file(), code


def test_the_site_is_mkdocs_byte_for_byte_but_the_generator_tag(
    site: Path, project: Path, tmp_path: Path
) -> None:
    mkdocs_site = tmp_path / "mkdocs-site"
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(mkdocs_site)],
        cwd=project, env=ENV, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr
    files = sorted(p.relative_to(site) for p in site.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(mkdocs_site) for p in mkdocs_site.rglob("*") if p.is_file())
    tags = 0
    for name in files:
        ours, theirs = (site / name).read_bytes(), (mkdocs_site / name).read_bytes()
        if name.suffix == ".html":
            tags += len(GENERATOR_TAG.findall(ours))
            ours, theirs = GENERATOR_TAG.sub(b"", ours), GENERATOR_TAG.sub(b"", theirs)
        assert ours == theirs, name
    assert tags >= len(PUBLISHED) * 4  # every page of every language carries one (four pages each)


def test_check_site_passes_on_the_properdocs_site(python: Path, project: Path, site: Path) -> None:
    checked = run(python, "-m", "rulesdoc", "check", "--site", str(site), cwd=project)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_broken_link_is_refused_and_the_previous_site_kept(python: Path, tmp_path: Path) -> None:
    """The link's warning comes from ProperDocs' core (the ``properdocs`` logger): our plugin must
    count it as ProperDocs does, or it would swap in the site ProperDocs then refuses."""
    root = copy_project(tmp_path / "project")
    out = tmp_path / "site"
    first = run(python, "-m", "properdocs", "build", "--strict", "-d", str(out), cwd=root)
    assert first.returncode == 0, first.stderr
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    (root / "docs" / "extra.md").write_text("# Extra\n\n[gone](nowhere.md)\n", "utf-8")
    second = run(python, "-m", "properdocs", "build", "--strict", "-d", str(out), cwd=root)
    assert second.returncode == 1
    assert "'nowhere.md', but the target is not found" in second.stderr
    assert "Aborted" in second.stderr
    after = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before  # not extra.html, nor anything else of the refused build


def test_a_warning_of_properdocs_core_is_counted_by_our_strict_check(python: Path) -> None:
    """ProperDocs' core logs on ``properdocs.*`` and counts a strict build's warnings there: our
    plugin's count (which decides whether the new site is swapped in) must see the same ones."""
    probe = (
        "import logging\n"
        "from rulesdoc.site.strict_warnings import StrictWarnings\n"
        "counted = StrictWarnings()\n"
        "counted.attach()\n"
        "logging.getLogger('properdocs.structure.pages').warning('a link to nowhere')\n"
        "logging.getLogger('properdocs.structure.pages').info('not a warning')\n"
        "counted.detach()\n"
        "logging.getLogger('properdocs.structure.pages').warning('after the build')\n"
        "print(counted.count)\n"
    )
    done = run(python, "-c", probe, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "1"


def test_every_mkdocs_seam_check_holds_under_properdocs(python: Path) -> None:
    """The seam's assumptions (generator/site/mkdocs_internals.py, and its probe builds in
    generator/site/mkdocs_probe.py) hold of ProperDocs as of MkDocs."""
    probe = (
        "from rulesdoc.site import mkdocs_internals, mkdocs_probe\n"
        "ASSUMPTIONS = mkdocs_internals.ASSUMPTIONS + mkdocs_probe.ASSUMPTIONS\n"
        "for assumption in ASSUMPTIONS:\n"
        "    try:\n"
        "        assumption.check()\n"
        "    except Exception as error:\n"
        "        print(assumption.name, type(error).__name__, error)\n"
        "print(len(ASSUMPTIONS), 'checked')\n"
    )
    done = run(python, "-c", probe, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["10 checked"]
