"""What every engine's site must hold for the scoring page's calculator: its script, found from
the page's own <script> tag, and beside it the export bundle's scorer, both byte for byte."""

from __future__ import annotations

import re
from pathlib import Path

from support import PUBLISHED, ROOT

_SCRIPT = re.compile(r'<script src="([^"]*rulesdoc/calculator\.mjs)" type="module"')


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
        if script.read_bytes() != (ROOT / "generator" / "site" / "calculator.mjs").read_bytes():
            problems.append(f"{code}: {found.group(1)} is not the package's calculator.mjs")
        words = ROOT / "generator" / "site" / "calculator_words.mjs"
        if (script.parent / "calculator_words.mjs").read_bytes() != words.read_bytes():
            problems.append(f"{code}: the calculator's words beside it are not the package's")
        if (script.parent / "scoring.mjs").read_bytes() != (
            ROOT / "generator" / "export" / "scoring.mjs"
        ).read_bytes():
            problems.append(f"{code}: the scorer beside it is not the export bundle's scoring.mjs")
    return problems
