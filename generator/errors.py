"""The one error type every user-facing failure is turned into.

A :class:`RulesdocError` renders as a single line ``file:line: message`` so the
CLI, the MkDocs glue and CI annotations can all show it without a traceback.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Location:
    """Where a problem is: a file and, where known, a 1-based line."""

    path: str
    line: int | None = None

    def __str__(self) -> str:
        return f"{self.path}:{self.line}" if self.line else self.path


class RulesdocError(Exception):
    """Bad input: the message names the file, the line and what is wrong."""

    def __init__(self, message: str, location: Location | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.location = location

    def __reduce__(self) -> tuple[Callable[..., RulesdocError], tuple[Any, ...]]:
        # Whole across a worker process, whatever a subclass's constructor takes.
        return _restore, (type(self), self.args, self.__dict__)

    def __str__(self) -> str:
        text = " ".join(self.message.split())  # always one line, and a short one
        return short(printable(f"{self.location}: {text}" if self.location else text), MAX_LINE)


def _restore(kind: type[RulesdocError], args: tuple[Any, ...], state: dict[str, Any]) -> RulesdocError:
    error = kind.__new__(kind)
    error.args = args
    error.__dict__.update(state)
    return error


class Refusal(RulesdocError):
    """Several one-line errors at once (the strict build's refusal of what ``check`` reports)."""

    def __init__(self, summary: str, lines: list[str]) -> None:
        super().__init__(summary)
        self.lines = lines

    def __str__(self) -> str:
        lines = [" ".join(self.message.split()), *self.lines]
        return "\n  ".join(short(printable(line), MAX_LINE) for line in lines)


# C0 controls but tab and newline, DEL, and C1 controls: what a terminal may act on (ESC starts
# title-setting and conceal sequences, CSI U+009B too; BEL rings). Shown as Python escapes here;
# refused in rules.yaml's texts and in catalogs (as msgfmt and YAML's own reader refuse them raw).
CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
MAX_LINE = 1000  # characters of one error line: a value echoed in full could be megabytes


def printable(text: str) -> str:
    """Text safe to print on a terminal: control characters but tab and newline escaped (``\\x1b``)."""
    return CONTROL_CHARACTERS.sub(lambda match: f"\\x{ord(match.group()):02x}", text)


def short(text: str, width: int = 60) -> str:
    """A value as echoed in a message: at most ``width`` characters, cut with an ellipsis."""
    return text if len(text) <= width else text[: width - 1] + "…"


def display_path(path: Path | str) -> str:
    """A path as the user gave it, relative to the working directory when inside it."""
    p = Path(path)
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError, RuntimeError):  # outside; or a symlink loop, which resolve() refuses
        try:
            return str(Path(os.path.abspath(p)).relative_to(os.path.abspath(os.getcwd())))
        except (ValueError, OSError):
            return str(p)
