"""Whether the engine will refuse a strict build: its warnings, counted as it counts them.

The assumption this leans on (the engine counts warnings on its logger and refuses *after*
``on_post_build``) is item 6 of :mod:`rulesdoc.site.mkdocs_internals`, checked by a build in
:mod:`rulesdoc.site.mkdocs_probe`.
"""

from __future__ import annotations

import logging

from rulesdoc.site import mkdocs_package


class StrictWarnings(logging.Handler):
    """The warnings the engine counts to refuse a strict build, counted alike while attached: on
    its own logger (``mkdocs``, or ``properdocs`` under ProperDocs, whose core logs there and whose
    command makes the ``mkdocs`` logger its child, so a plugin's warning is counted once too)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0
        self.logger = mkdocs_package.logger()
        self.quieted: tuple[int, list[tuple[logging.Handler, int]]] | None = None

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1

    def attach(self) -> None:
        """Count from now on; under ``--quiet`` too.

        ``-q`` raises the engine's logger to ERROR, so no warning reaches a counter and a strict
        build with warnings passes (mkdocs#4126, open). While attached, the logger lets warnings
        through again, and the engine's own console handlers are raised to the quiet level
        instead: still silent, but counted, by the engine and by us.
        """
        self.count = 0
        self.logger = mkdocs_package.logger()
        self.logger.addHandler(self)
        quiet = self.logger.getEffectiveLevel()
        if quiet > logging.WARNING and self.quieted is None:
            # the console (a StreamHandler), not the engine's counter (a NullHandler)
            shown: list[tuple[logging.Handler, int]] = [
                (h, h.level) for h in self.logger.handlers if isinstance(h, logging.StreamHandler)
            ]
            self.quieted = (self.logger.level, shown)
            for handler, level in shown:
                handler.setLevel(max(level, quiet))
            self.logger.setLevel(logging.WARNING)

    def detach(self) -> None:
        self.logger.removeHandler(self)
        if self.quieted is not None:
            level, shown = self.quieted
            self.logger.setLevel(level)
            for handler, handler_level in shown:
                handler.setLevel(handler_level)
            self.quieted = None
