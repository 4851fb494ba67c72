"""What every engine's site must hold for the scoring page's calculator: its script, found from
the page's own <script> tag (classic), and beside it the page's module and the export bundle's
scorer, byte for byte, and the classic script made of those modules."""

from __future__ import annotations

import re
from pathlib import Path

from rulesdoc.site import assets
from support import PUBLISHED, ROOT

_SCRIPT = re.compile(r'<script src="([^"]*rulesdoc/calculator\.js)">')


def calculator_problems(site: Path) -> list[str]:
    problems = []
    for code in PUBLISHED:
        folder = site if code == "en" else site / code
        html = (folder / "scoring.html").read_text("utf-8")
        found = _SCRIPT.search(html)
        if found is None or 'id="rd-calc-data"' not in html:
            problems.append(f"{code}/scoring.html: no calculator script or data block")
            continue
        script = folder / found.group(1)
        if script.read_bytes() != (ROOT / "generator" / "site" / "calculator.js").read_bytes():
            problems.append(f"{code}: {found.group(1)} is not the package's calculator.js")
        if (script.parent / "calculator-classic.js").read_bytes() != assets.site_files()[assets.CLASSIC]:
            problems.append(f"{code}: the classic script beside it is not made of the package's modules")
        if (script.parent / "calculator.mjs").read_bytes() != (
            ROOT / "generator" / "site" / "calculator.mjs"
        ).read_bytes():
            problems.append(f"{code}: the module beside it is not the package's calculator.mjs")
        words = ROOT / "generator" / "site" / "calculator_words.mjs"
        if (script.parent / "calculator_words.mjs").read_bytes() != words.read_bytes():
            problems.append(f"{code}: the calculator's words beside it are not the package's")
        if (script.parent / "scoring.mjs").read_bytes() != (
            ROOT / "generator" / "export" / "scoring.mjs"
        ).read_bytes():
            problems.append(f"{code}: the scorer beside it is not the export bundle's scoring.mjs")
    return problems
