"""The MkDocs seam's assumptions (generator/site/mkdocs_internals.py), each checked on the
installed mkdocs and mkdocs-material: a failure names the versions, the assumption and the seam."""

from __future__ import annotations

import pytest

from rulesdoc.site import mkdocs_internals
from rulesdoc.site.mkdocs_internals import CHECKS, Assumption


@pytest.mark.parametrize("assumption", CHECKS, ids=[a.name for a in CHECKS])
def test_mkdocs_seam_assumption_holds(assumption: Assumption) -> None:
    try:
        assumption.check()
    except Exception as error:  # noqa: BLE001  # any failure is the assumption broken: say which
        pytest.fail(
            f"{mkdocs_internals.versions()}: the MkDocs seam (generator/site/mkdocs_internals.py) "
            f"assumes {assumption.name}: {assumption.what}; it no longer holds: "
            f"{type(error).__name__}: {error}",
            pytrace=False,
        )


def test_a_broken_assumption_is_reported_with_versions_and_name() -> None:
    """The check itself can fail: a false assumption fails with the words above."""

    def broken() -> None:
        raise AssertionError("no such thing")

    with pytest.raises(pytest.fail.Exception, match=r"mkdocs \S+.*assumes probe: a probe.*no such thing"):
        test_mkdocs_seam_assumption_holds(Assumption("probe", "a probe", broken))


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
