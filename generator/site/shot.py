"""One picture of one message, as ``rulesdoc screenshots`` records it: the manifest's entry and
the picture's file name. Shared by the pictures of the pages' messages
(:mod:`rulesdoc.site.screenshots`) and of the theme's (:mod:`rulesdoc.site.theme_shots`)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from rulesdoc.catalog.po import Key


@dataclass(frozen=True)
class Shot:
    key: Key
    file: str
    page: str
    text: str  # what the pictured element shows of the message ("3 resultater" for "# results")

    def entry(self) -> dict[str, str | None]:
        key = {"msgctxt": self.key[1], "msgid": self.key[0]}
        return {**key, "file": self.file, "page": self.page, "text": self.text}


def file_name(key: Key) -> str:
    """The same message, the same file, in every run: a hash of msgctxt and msgid."""
    text = f"{key[1] or ''}\x04{key[0]}".encode()
    return hashlib.sha256(text).hexdigest()[:16] + ".png"
