"""rulesdoc's own files in every site: the scoring page's calculator and the scorer it runs.

The scorer is the export bundle's ``scoring.mjs`` itself, read from the package (not a copy),
so the page and the apps score with one module. Every engine gets the same files at the same
paths: the MkDocs plugin adds them to the main build (the language builds point at the site
root's), the site source writes them into every language's docs folder. The page's script is
``calculator.js``, a classic script: it runs the module over http(s), and opened from disk (where
Chromium refuses modules) the same modules made into one classic script (:mod:`.classic`).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from typing import Any

from rulesdoc.site.classic import classic_script

FOLDER = "assets/rulesdoc"
SCRIPT = f"{FOLDER}/calculator.js"  # the page's script: it starts one of the two below
MODULE = f"{FOLDER}/calculator.mjs"  # the calculator; it imports the two modules beside it
CLASSIC = f"{FOLDER}/calculator-classic.js"  # the three modules as one classic script
WORDS = f"{FOLDER}/calculator_words.mjs"  # its sentences and numbers, in the page's language
SCORER = f"{FOLDER}/scoring.mjs"


def site_files() -> dict[str, bytes]:
    """The files by their path in the site, as bytes: the same package gives the same bytes."""
    # Each beside the module that owns it, wherever that package was imported from.
    site, export = resources.files("rulesdoc.site"), resources.files("rulesdoc.export")
    modules = {
        MODULE: site.joinpath("calculator.mjs").read_bytes(),
        WORDS: site.joinpath("calculator_words.mjs").read_bytes(),
        SCORER: export.joinpath("scoring.mjs").read_bytes(),
    }
    order = [
        (path.rpartition("/")[2].removesuffix(".mjs"), modules[path].decode())
        for path in (SCORER, WORDS, MODULE)
    ]
    classic = classic_script(order).encode()
    return {SCRIPT: site.joinpath("calculator.js").read_bytes(), **modules, CLASSIC: classic}


def with_script(scripts: list[Any], make: Callable[[str], Any] = str) -> list[Any]:
    """A configuration's ``extra_javascript`` with the calculator's (a classic script), once.
    ``make``: the entry as the engine's validated configuration holds it (MkDocs: its value)."""
    return scripts if any(str(script) == SCRIPT for script in scripts) else [*scripts, make(SCRIPT)]
