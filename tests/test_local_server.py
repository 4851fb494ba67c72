"""The local server of the screenshots, the bench and the browser tests (generator/site/local_server.py)."""

from __future__ import annotations

import pytest

from rulesdoc.site.local_server import QuietHandler, QuietServer


def test_a_browser_leaving_mid_file_prints_nothing_and_a_real_failure_is_shown(
    capsys: pytest.CaptureFixture[str],
) -> None:
    server = QuietServer(("127.0.0.1", 0), QuietHandler)
    try:
        for left in (
            BrokenPipeError(32, "Broken pipe"),
            ConnectionResetError(104, "Connection reset by peer"),
        ):
            try:
                raise left
            except OSError:
                server.handle_error(None, ("127.0.0.1", 1))
        assert capsys.readouterr().err == ""
        try:
            raise ValueError("a failure of the server's own")
        except ValueError:
            server.handle_error(None, ("127.0.0.1", 1))
        assert "ValueError: a failure of the server's own" in capsys.readouterr().err
    finally:
        server.server_close()
