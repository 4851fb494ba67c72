"""The environment of the tests and of the processes they start, in one place.

``QUIET_ENGINE``: Material prints its end-of-life notice (manual/publishing.md, "Platform") on
every MkDocs run; the tests run MkDocs hundreds of times, in this process and in children, and
they alone silence it (tests/conftest.py puts it in ``os.environ`` once). `make site` and
`make serve` show it to the user.

``TEST_CACHE``: the user's cache (generator/io/cache.py) of the tests and their children, apart
from the developer's own: the tests make hundreds of entries, and a test run passes the same
whether the developer's folder is usable or not.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

QUIET_ENGINE = {"NO_MKDOCS_2_WARNING": "1"}
TEST_CACHE = {"RULESDOC_CACHE_DIR": str(Path(tempfile.gettempdir()) / f"rulesdoc-test-cache-{os.getuid()}")}
# Any fixed build time: pages and sitemaps carry it, so two builds can be compared byte for byte.
FIXED_EPOCH = "1700000000"
# Bytecode of the children goes to a cache outside the repository (the environment may set
# PYTHONDONTWRITEBYTECODE, which would make every one of them compile the package again).
PYCACHE = Path(tempfile.gettempdir()) / "rulesdoc-test-pycache"


def child_env(**extra: str) -> dict[str, str]:
    """This process's environment for a child, with Material's notice off and ``extra`` set."""
    return {**os.environ, **QUIET_ENGINE, **extra}


def dated_env(**extra: str) -> dict[str, str]:
    """:func:`child_env` with the fixed build time, as most builds under test want."""
    return child_env(SOURCE_DATE_EPOCH=FIXED_EPOCH, **extra)


def python_child_env(**extra: str) -> dict[str, str]:
    """:func:`child_env` for a Python child that reuses compiled bytecode across the session."""
    env = {k: v for k, v in child_env(**extra).items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPYCACHEPREFIX": str(PYCACHE)}
