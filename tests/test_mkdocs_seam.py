"""The MkDocs seam's strict-warning counting (generator/site/strict_warnings.py) on the installed
engine. The seam's assumptions (generator/site/mkdocs_internals.py) run with every other seam's,
in tests/test_seams.py."""

from __future__ import annotations

import pytest


def test_strict_warnings_are_counted_on_the_running_engines_logger() -> None:
    """Here MkDocs is installed: its package is the engine, and its core's warnings are counted."""
    import logging

    from rulesdoc.site import mkdocs_package
    from rulesdoc.site.strict_warnings import StrictWarnings

    assert mkdocs_package.name() == "mkdocs"
    counted = StrictWarnings()
    counted.attach()
    try:
        logging.getLogger("mkdocs.structure.pages").warning("a link to nowhere")
        logging.getLogger("mkdocs.structure.pages").info("not a warning")
    finally:
        counted.detach()
    logging.getLogger("mkdocs.structure.pages").warning("after the build")
    assert counted.count == 1


def test_strict_warnings_are_counted_under_quiet_and_stay_silent(capsys: pytest.CaptureFixture[str]) -> None:
    """`mkdocs build -q` raises the logger to ERROR: no counter saw a warning (mkdocs#4126). While
    attached, warnings reach every counter, the console stays quiet, and all is restored after."""
    import logging
    import sys

    from rulesdoc.site.strict_warnings import StrictWarnings

    engine = logging.getLogger("mkdocs")
    console = logging.StreamHandler(sys.stderr)
    theirs = StrictWarnings()  # stands for the engine's own counter (a handler at WARNING)
    engine.addHandler(console)
    engine.addHandler(theirs)
    before = engine.level
    engine.setLevel(logging.ERROR)  # what -q does
    counted = StrictWarnings()
    try:
        counted.attach()
        logging.getLogger("mkdocs.structure.pages").warning("a link to nowhere")
        counted.detach()
        assert (engine.level, console.level) == (logging.ERROR, logging.NOTSET)
        logging.getLogger("mkdocs.structure.pages").warning("quiet again: neither counts this")
    finally:
        engine.removeHandler(console)
        engine.removeHandler(theirs)
        engine.setLevel(before)
    assert (counted.count, theirs.count) == (1, 1)
    assert "a link to nowhere" not in capsys.readouterr().err
