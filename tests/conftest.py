"""Shared fixtures: the repository's own project, and copies of it to break or change."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.render import Project

ROOT = Path(__file__).resolve().parent.parent
PUBLISHED = ("en", "da", "hi", "ms", "nl", "pt")


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def project() -> Project:
    return Project.at(ROOT)


def copy_project(destination: Path) -> Path:
    """A writable copy of everything a render or a site build reads."""
    destination.mkdir(parents=True, exist_ok=True)
    for name in ("rules.yaml", "babel.cfg", "mkdocs.yml"):
        shutil.copy(ROOT / name, destination / name)
    for name in ("templates", "locales", "docs"):
        shutil.copytree(ROOT / name, destination / name)
    return destination


@pytest.fixture
def project_copy(tmp_path: Path) -> Path:
    return copy_project(tmp_path)


def lint_error_lines(project: Project) -> list[str]:
    """The error lines `rulesdoc check` reports for a project, through the calls it makes."""
    from generator import lint
    from generator.policy import read_policy, site_options
    from generator.render import Workspace

    policy = read_policy(project.locales, site_options(project.root / "mkdocs.yml").languages, project.root)
    return lint.run(lint.gather(Workspace.load(project), policy)).error_lines()
