"""Compare a rendered page with the user's seed page: share of the seed's words found, in order.

Layout and markup are ignored: HTML tags, Markdown syntax, punctuation, case and
whitespace. The seed was copied from a published page where the card chips of a
hand ran together ("as hatijokerlima kelawar"), so words are matched inside the
page's text with spaces removed, not word for word.

Run ``python tests/seedmatch.py da`` to see the words of the seed that are missing.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path

SEEDS = Path(__file__).parent / "fixtures" / "seeds"
_TAG = re.compile(r"<[^>]+>")


def _letters(text: str) -> str:
    text = unicodedata.normalize("NFC", text).casefold()
    return "".join(ch for ch in text if unicodedata.category(ch)[0] in "LMN")


def page_text(markdown: str) -> str:
    """The page's words run together, as a reader's copy of it would have them."""
    return _letters(_TAG.sub(" ", markdown))


@dataclass(frozen=True)
class Match:
    found: int
    total: int
    missing: tuple[str, ...]

    @property
    def ratio(self) -> float:
        return self.found / self.total


def match(seed: str, markdown: str) -> Match:
    text = page_text(markdown)
    position = found = 0
    missing = []
    words = [w for w in (_letters(word) for word in seed.split()) if w]
    for word in words:
        index = text.find(word, position)
        if index < 0:
            missing.append(word)
            continue
        found += 1
        position = index + len(word)
    return Match(found, len(words), tuple(missing))


if __name__ == "__main__":
    import subprocess
    import tempfile

    lang = sys.argv[1]
    with tempfile.TemporaryDirectory() as out:
        subprocess.run(
            [sys.executable, "-m", "generator", "render", "--no-strict", "--lang", lang, "--out", out],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        result = match((SEEDS / f"{lang}.txt").read_text("utf-8"), (Path(out) / lang / "scoring.md").read_text("utf-8"))
    print(f"{lang}: {result.found}/{result.total} seed words in order = {result.ratio:.1%} (need 97%)")
    print("missing:", " ".join(result.missing))
