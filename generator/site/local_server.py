"""A built site over HTTP on this machine, for a run's browser only (the screenshots' theme pictures,
the browser tests, the calculator's benchmark): the site's own files, no request leaving the machine.

Served over HTTP rather than opened from disk so the theme's script runs as it does where the site
is published.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """A folder's files, served without a line per request."""

    def log_message(self, format: str, *args: Any) -> None:
        pass


class QuietServer(http.server.ThreadingHTTPServer):
    """A browser that closes a connection mid-file (it left the page, or the test ended) is no
    error of the site's: not a traceback on the run's output. Any other failure is shown."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@contextlib.contextmanager
def serving(
    folder: Path, handler_class: type[http.server.SimpleHTTPRequestHandler] = QuietHandler, base: str = "/"
) -> Iterator[str]:
    """A folder (the built site) over HTTP on 127.0.0.1 and a free port, for this run only:
    "http://127.0.0.1:<port><base>" (the browser tests serve a site under a project's path too)."""
    handler = functools.partial(handler_class, directory=str(folder))
    server = QuietServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{base}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def local_only(route: Any, root_url: str) -> None:
    """The site's own files only (a Playwright route handler): no request leaves the machine."""
    if route.request.url.startswith(root_url):
        route.continue_()
    else:
        route.abort()
