"""Compare a rendered page with the user's seed page: share of the seed's words found, in order.

Layout and markup are ignored: the page is turned into HTML with the site's own
Markdown extensions, then tags, punctuation, case and whitespace are dropped. The
seed was copied from a published page where the card chips of a hand ran
together ("as hatijokerlima kelawar"), so the two texts are aligned letter by
letter (spaces removed), and a seed word counts when all its letters align.

Run ``python -m support.seedmatch da`` from ``tests/`` to see the words of the seed that are missing.
"""

from __future__ import annotations

import difflib
import re
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import markdown
from mkdocs.utils.yaml import yaml_load

from support import ROOT

SEEDS = ROOT / "tests" / "fixtures" / "seeds"
_TAG = re.compile(r"<[^>]+>")


def _letters(text: str) -> str:
    text = unicodedata.normalize("NFC", text).casefold()
    return "".join(ch for ch in text if unicodedata.category(ch)[0] in "LMN")


def page_text(markdown_text: str) -> str:
    """The page's words run together, in the order a reader sees them on the site."""
    return _letters(_TAG.sub(" ", to_html(markdown_text)))


def to_html(markdown_text: str) -> str:
    """Markdown to HTML with the site's own extensions (captions move before their tables)."""
    with (ROOT / "mkdocs.yml").open("rb") as handle:
        config = yaml_load(handle)  # MkDocs' own loader: !ENV and !!python/name resolved
    names, configs = [], {}
    for entry in config["markdown_extensions"]:
        name, options = next(iter(entry.items())) if isinstance(entry, dict) else (entry, {})
        names.append(name)
        configs[name] = {key: value for key, value in (options or {}).items() if value is not None}
    return markdown.markdown(markdown_text, extensions=names, extension_configs=configs)


@dataclass(frozen=True)
class Match:
    found: int
    total: int
    missing: tuple[str, ...]

    @property
    def ratio(self) -> float:
        return self.found / self.total


def match(seed: str, markdown_text: str) -> Match:
    """Align the seed's letters with the page's (in order) and count the seed words fully matched."""
    words = [w for w in (_letters(word) for word in seed.split()) if w]
    seed_letters = "".join(words)
    matcher = difflib.SequenceMatcher(None, seed_letters, page_text(markdown_text), autojunk=False)
    matched = [False] * len(seed_letters)
    for block in matcher.get_matching_blocks():
        for i in range(block.a, block.a + block.size):
            matched[i] = True
    found, missing, position = 0, [], 0
    for word in words:
        if all(matched[position : position + len(word)]):
            found += 1
        else:
            missing.append(word)
        position += len(word)
    return Match(found, len(words), tuple(missing))


if __name__ == "__main__":
    import subprocess
    import tempfile

    lang = sys.argv[1]
    with tempfile.TemporaryDirectory() as out:
        subprocess.run(
            [sys.executable, "-m", "rulesdoc", "render", "--no-strict", "--lang", lang, "--out", out],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        result = match(
            (SEEDS / f"{lang}.txt").read_text("utf-8"), (Path(out) / lang / "scoring.md").read_text("utf-8")
        )
    print(f"{lang}: {result.found}/{result.total} seed words in order = {result.ratio:.1%} (need 97%)")
    print("missing:", " ".join(result.missing))
