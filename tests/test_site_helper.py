"""generator/site/helper.py: a helper that fails is said, as a warning, and the build goes on
without it (extracting and compiling in the main process)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from rulesdoc.site import helper


class _Failed:
    """An AsyncResult whose work raised in the helper process."""

    def get(self, timeout: float) -> Any:
        raise OSError("the helper died")


class _Pool:
    def terminate(self) -> None:
        pass


def test_a_failed_helper_is_a_warning_and_the_work_is_done_here(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, seed_root: Path
) -> None:
    failed = helper._Helper.__new__(helper._Helper)
    failed.pool, failed.root = _Pool(), seed_root  # type: ignore[assignment]
    failed.extraction = failed.theme = _Failed()  # type: ignore[assignment]
    monkeypatch.setattr(helper, "_helper", failed)
    with caplog.at_level(logging.WARNING, logger="rulesdoc"):
        catalog = helper.extracted(seed_root)
        assert helper.compiled() == {}
    assert len(catalog) > 10  # extracted here after all
    said = [(record.levelno, record.getMessage()) for record in caplog.records]
    assert said == [
        (logging.WARNING, "the helper's extraction failed (OSError: the helper died); extracting here"),
        (
            logging.WARNING,
            "the helper's theme compilation failed (OSError: the helper died); compiling on use",
        ),
    ]
    assert helper._helper is None  # stopped
