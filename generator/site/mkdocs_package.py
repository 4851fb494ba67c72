"""Which package is MkDocs in this process: ``mkdocs``, or ProperDocs' ``properdocs``.

ProperDocs (the maintained continuation of MkDocs 1.x) installs no ``mkdocs`` package: inside its
own command it answers ``mkdocs.*`` imports with its ``properdocs.*`` modules (``properdocs/replacement.py``
puts ``properdocs`` in ``sys.modules`` as ``mkdocs``), so the plugin's imports work there; outside
it (``rulesdoc check``, ``render``) a plain ``import mkdocs`` fails. The site code asks this module
instead, and only where it needs an engine: the commands that need none run with neither installed.
It also names the logger the engine counts a strict build's warnings on (``mkdocs`` or ``properdocs``).
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import sys
from types import ModuleType

PACKAGES = ("mkdocs", "properdocs")  # MkDocs first: where both are installed, MkDocs is the default


def name() -> str:
    """``mkdocs`` or ``properdocs``: the engine running (ProperDocs' command aliases ``mkdocs`` to
    it), else the one installed; ``mkdocs`` where neither is, so the error names the default."""
    running = sys.modules.get("mkdocs")
    if running is not None:
        return running.__name__.partition(".")[0]
    for package in PACKAGES:
        if importlib.util.find_spec(package) is not None:
            return package
    return PACKAGES[0]


def module(submodule: str) -> ModuleType:
    """The engine's ``submodule`` (``utils.yaml``: ``mkdocs.utils.yaml`` or ``properdocs.utils.yaml``)."""
    return importlib.import_module(f"{name()}.{submodule}")


def logger() -> logging.Logger:
    """The logger whose warnings the engine counts to refuse a strict build."""
    return logging.getLogger(name())


def alias_mkdocs() -> None:
    """Make ``mkdocs.*`` importable under ProperDocs outside its command, as its command does
    (``properdocs.replacement``): Material imports ``mkdocs``. Only the seam checks need it; a
    no-op under MkDocs."""
    if name() == "properdocs":
        importlib.import_module("properdocs.replacement")
