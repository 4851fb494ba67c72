"""Adding a language to a copy of the project as a maintainer would: `catalog init`, fill, build."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from babel.messages.pofile import read_po, write_po

from rulesdoc.catalog import plurals
from rulesdoc.i18n import catalogs
from rulesdoc.i18n.theme import THEME_CONTEXT
from support.env import dated_env


def marked(english: str) -> str:
    return f"«{english}»"


def fill(
    path: Path,
    header: str | None = None,
    theme: str = "mark",
    words: Mapping[str, str | tuple[str, ...]] | None = None,
) -> None:
    """Every message translated: English text (or ``words``: a plural message by its singular,
    as a tuple of its forms), plural forms as the header has.

    ``theme``: "mark" writes the theme's strings «…» (to tell them on a page), "keep" keeps what
    `catalog init` prefilled from Material and marks only the rest.
    """
    with path.open("rb") as handle:
        catalog = read_po(handle)
    if header is not None:
        catalogs.set_plural_forms(catalog, plurals.parse(header))
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, tuple) and words and isinstance(words.get(message.id[0]), tuple):
            message.string = words[message.id[0]]
        elif isinstance(message.id, tuple):
            message.string = (message.id[0],) + (message.id[1],) * (catalog.num_plurals - 1)
        elif words and isinstance(words.get(message.id), str):
            message.string = words[message.id]
        elif message.context == THEME_CONTEXT:
            message.string = message.string if (theme == "keep" and message.string) else marked(message.id)
        else:
            message.string = message.id
        message.flags.discard("fuzzy")
    with path.open("wb") as handle:
        write_po(handle, catalog, width=0)


def build_site(project: Path, out: Path, strict: bool = True) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` as CI runs it; ``strict=False`` builds as a preview does."""
    env = dated_env()
    env.pop("RULESDOC_STRICT", None)
    if not strict:
        env["RULESDOC_STRICT"] = "false"
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", *(["--strict"] if strict else []), "-q", "-d", str(out)],
        cwd=project, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
