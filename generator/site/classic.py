"""The calculator's three modules as one classic script, for a page opened from disk.

Chromium refuses module scripts to a ``file://`` page (its origin is null), so there the
calculator runs this script instead (``calculator.js`` chooses). Each module becomes a function
returning what it exports, called in order; an ``import { a, b } from "./m.mjs"`` line becomes
``const { a, b } = m;`` and ``export`` before a declaration is dropped. Nothing else of a module's
text changes: the scorer is still the export bundle's ``scoring.mjs``, word for word.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_IMPORT = re.compile(r'^import \{([\w\s,]+)\} from "\./(\w+)\.mjs";$')
_EXPORT_LIST = re.compile(r"^export \{[\w\s,]+\};")  # a module's re-exports (for the browser tests)
_EXPORTED = re.compile(r"^export ((?:function|class|const|let) (\w+)\b.*)$")
HEADER = (
    "// calculator-classic.js: made by rulesdoc (generator/site/classic.py) from scoring.mjs,\n"
    "// calculator_words.mjs and calculator.mjs, for a scoring page opened from disk.\n"
)


def _module(name: str, text: str, known: Sequence[str]) -> str:
    lines: list[str] = []
    exported: list[str] = []
    for line in text.splitlines():
        if found := _IMPORT.match(line):
            if found.group(2) not in known:
                raise ValueError(f"{name}.mjs imports {found.group(2)}.mjs, which comes later or not at all")
            lines.append(f"const {{{found.group(1)}}} = {found.group(2)};")
        elif _EXPORT_LIST.match(line):
            continue
        elif found := _EXPORTED.match(line):
            lines.append(found.group(1))
            exported.append(found.group(2))
        elif line.startswith(("import ", "export ")):
            raise ValueError(f"{name}.mjs: a line a classic script cannot hold: {line!r}")
        else:
            lines.append(line)
    body = "\n".join(lines)
    names = f"{{ {', '.join(exported)} }}" if exported else "{}"
    return f"const {name} = (() => {{\n{body}\nreturn {names};\n}})();\n"


def classic_script(modules: Sequence[tuple[str, str]]) -> str:
    """One classic script of ``modules`` (name without ``.mjs``, text), each after those it imports."""
    parts: list[str] = []
    known: list[str] = []
    for name, text in modules:
        parts.append(_module(name, text, known))
        known.append(name)
    return HEADER + '(() => {\n"use strict";\n' + "".join(parts) + "})();\n"
