"""Any failure of a template (a page or a partial), as the one-line error naming file and line."""

from __future__ import annotations

import traceback
from pathlib import Path

import jinja2

from rulesdoc.errors import Location, RulesdocError, display_path


def _template_frame(error: BaseException, templates: Path) -> Location | None:
    """The innermost template line of a traceback (Jinja rewrites its frames to template lines)."""
    root = templates.resolve()
    found = None
    for frame in traceback.extract_tb(error.__traceback__):
        path = Path(frame.filename)
        if path.suffix == ".j2" and path.resolve().is_relative_to(root):
            found = Location(display_path(path), frame.lineno)
    return found


def template_error(error: Exception, templates: Path, name: str) -> RulesdocError:
    """Any failure of a template, as one line naming the template file and line."""
    if isinstance(error, jinja2.TemplateSyntaxError):
        path = display_path(templates / (error.name or name))
        return RulesdocError(f"template syntax error: {error.message}", Location(path, error.lineno))
    where = _template_frame(error, templates)
    if isinstance(error, jinja2.TemplateNotFound):
        missing = templates / error.name if error.name else None
        if where is None and missing is not None and missing.is_dir():
            return RulesdocError("is a directory, not a template file", Location(display_path(missing)))
        return RulesdocError(
            f"template {error.name!r} not found in {display_path(templates)}",
            where or Location(display_path(templates / name)),
        )
    if isinstance(error, UnicodeDecodeError):  # the loader read a file: which one?
        candidates = (p for p in sorted(templates.rglob("*")) if p.is_file())
        culprit = next((p for p in candidates if p.read_bytes() == error.object), None)
        if culprit is not None:
            line = error.object[: error.start].count(b"\n") + 1
            return RulesdocError(
                f"template is not UTF-8 text ({error.reason}: byte 0x{error.object[error.start]:02x})",
                Location(display_path(culprit), line),
            )
    if isinstance(error, OSError) and where is None:
        return RulesdocError(
            f"cannot read template: {error.strerror}", Location(display_path(templates / name))
        )
    what = str(error) if isinstance(error, jinja2.TemplateError) else f"{type(error).__name__}: {error}"
    return RulesdocError(f"template error: {what}", where or Location(display_path(templates / name)))
