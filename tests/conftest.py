"""Shared fixtures: the repository's own project, the seed-rules copy, copies of the project.

The plain helpers and constants they use live in the ``support`` package (tests/support/).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings
from support import ROOT, copy_project
from support.env import QUIET_ENGINE, TEST_CACHE

from rulesdoc.io.project import Project

# The property tests' examples: Hypothesis's 100 by default (tests ask for a multiple of
# settings.default.max_examples), a quarter in `make test-fast` (--hypothesis-profile=fast): the
# fast loop samples what `make test` searches in full.
settings.register_profile("full", max_examples=100)
settings.register_profile("fast", max_examples=25)
settings.load_profile("full")

# Material's end-of-life notice off for every MkDocs run of the tests, here and in children (support/env.py).
os.environ.update(QUIET_ENGINE)
# The tests' own cache of compiled templates, extractions and catalogs (support/env.py); the
# RULESDOC_NO_CACHE the developer may have set is kept.
os.environ.update(TEST_CACHE)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Keep the tests that share an expensive module fixture on one pytest-xdist worker.

    `make test` runs on every core with ``--dist loadgroup``. A module's tests often share a
    module-scoped site build: each module is one group, so nothing is built twice. The browser
    tests' site and Chromium are session fixtures, made once per worker whatever the groups:
    one group per browser module lets both workers drive Chromium (one group for all of them
    made them the run's longest path, 15 min on one core beside an idle one). An explicit
    ``xdist_group`` mark wins: a module whose tests share nothing splits itself that way.
    """
    for item in items:
        module = item.nodeid.split("::", 1)[0]
        # Everything under tests/browser/ drives Chromium (or starts the command that does): a module
        # that forgets its `pytestmark` would otherwise run in `make test-fast` (test_screenshots did).
        if module.startswith("tests/browser/") and not item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.browser)
        if item.get_closest_marker("xdist_group"):
            continue
        item.add_marker(pytest.mark.xdist_group(module))


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def project() -> Project:
    """This checkout's project, live rules and all: assert only what holds for any values."""
    return Project.at(ROOT)


@pytest.fixture(scope="session")
def seed_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the project with the seed rules, shared by the tests that only read it."""
    return copy_project(tmp_path_factory.mktemp("seed") / "project")


@pytest.fixture(scope="session")
def seed_project(seed_root: Path) -> Project:
    return Project.at(seed_root)


@pytest.fixture
def project_copy(tmp_path: Path) -> Path:
    return copy_project(tmp_path)
