"""The Jinja seam: the one module that relies on private Jinja names.

One use: the template line that asked for a message. (The site's preview, which once deleted
templates from the private ``Environment.cache``, uses the public ``auto_reload`` now.)

A message a catalog lacks is recorded with the template line that asked for it (``check``
names it: "missing in da, asked at templates/index.md.j2:12"). Jinja has no public way to
know, at run time, which template line is executing: ``@pass_context`` gives a gettext
callable the :class:`jinja2.runtime.Context`, whose ``name`` is the template being rendered
(for a block inherited through ``{% extends %}``, the child's, not the file the block is
written in) and no line at all. The line is only in the stack: Jinja compiles each template
to a Python module whose globals hold ``__jinja_template__`` (the :class:`jinja2.Template`,
private: Jinja's own traceback rewriting, ``jinja2/debug.py``, reads it the same way), and
the public ``Template.get_corresponding_lineno`` maps the compiled code's line back to the
template's. If ``__jinja_template__`` goes: misses are still shown in English and counted,
but without the line (``where`` is None); :data:`ASSUMPTIONS` says so first.

The stack is read with :func:`inspect.currentframe` (public), not ``sys._getframe``. A catalog
that lacks every message asks this once per message and language, from the same few hundred
template lines: each template's answers are kept beside it (weakly: they go with the template,
whose environment is one run's or one preview rebuild's), so the line map is read once per line.
"""

from __future__ import annotations

import inspect
import weakref
from typing import Any

from rulesdoc.errors import Location, display_path
from rulesdoc.seam import Assumption, SeamChanged, installed

LIBRARY = "jinja2"
_TEMPLATE_GLOBAL = "__jinja_template__"  # set by jinja2.Template._from_namespace


# Per template, its compiled lines already asked about -> the template line, as a Location.
_KNOWN: weakref.WeakKeyDictionary[Any, dict[int, Location]] = weakref.WeakKeyDictionary()


def asking_template() -> Location | None:
    """The innermost template line on the stack, or None when no template is running."""
    frame = inspect.currentframe()
    while frame is not None:
        template = frame.f_globals.get(_TEMPLATE_GLOBAL)
        if template is not None and template.filename:
            known = _KNOWN.setdefault(template, {})
            where = known.get(frame.f_lineno)
            if where is None:
                shown = next(iter(known.values())).path if known else display_path(template.filename)
                where = known[frame.f_lineno] = Location(
                    shown, template.get_corresponding_lineno(frame.f_lineno)
                )
            return where
        frame = frame.f_back
    return None


# ---------------------------------------------------------------- assumptions (tests/test_seams.py)


def _template_line_on_stack() -> None:
    """A compiled template's frames carry __jinja_template__ (the Template, with its filename), and
    Template.get_corresponding_lineno maps the frame's line to the template line that is running."""
    import tempfile
    from pathlib import Path

    import jinja2  # only here: reading frames needs no Jinja import

    source = "{% macro m() %}\n{{ ask() }}\n{% endmacro %}\nfirst line\n{{ m() }}\n{{ ask() }}\n"
    asked: list[Location | None] = []
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "probe.j2").write_text(source, encoding="utf-8")
        env = jinja2.Environment(loader=jinja2.FileSystemLoader(folder))

        def ask() -> str:
            asked.append(asking_template())
            return ""

        env.globals["ask"] = ask
        env.get_template("probe.j2").render()
    found = [(Path(where.path).name, where.line) if where else None for where in asked]
    if found != [("probe.j2", 2), ("probe.j2", 6)]:
        raise SeamChanged(
            f"a template's frames no longer give its file and line through {_TEMPLATE_GLOBAL} (got {found})"
        )


ASSUMPTIONS: tuple[Assumption, ...] = tuple(Assumption.of(check) for check in (_template_line_on_stack,))


def versions() -> str:
    return installed(LIBRARY)
