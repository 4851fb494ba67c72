"""The MkDocs seam's assumptions (generator/site/mkdocs_internals.py), each checked on the
installed mkdocs and mkdocs-material: a failure names the versions, the assumption and the seam."""

from __future__ import annotations

import pytest

from generator.site import mkdocs_internals
from generator.site.mkdocs_internals import CHECKS, Assumption


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
