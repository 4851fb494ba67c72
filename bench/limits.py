"""The worst inputs the catalog limits allow, made as projects to time each command on (issue 32).

    .venv/bin/python bench/limits.py DEST entries   # catalogs near 512 KiB each, up to the run's entries
    .venv/bin/python bench/limits.py DEST languages  # as many header-only catalogs as allowed
    .venv/bin/python bench/limits.py DEST tiny       # the entries in one catalog of the shortest entries
    .venv/bin/python bench/limits.py DEST template   # header-only catalogs and a template of 500 messages

Each makes DEST a copy of this project (rules, templates, locales, babel.cfg, mkdocs.yml) with
its catalogs replaced; time the commands on it with ``/usr/bin/time``, e.g.
``/usr/bin/time -f "%U %S %e" .venv/bin/python -m rulesdoc --root DEST check``. The measured
table is in manual/publishing.md ("Bounded time"). Not a test: timings are noisy on a shared
machine, and the limits, not a time, are what the tests hold.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from babel import Locale

from rulesdoc.catalog import plurals, po
from rulesdoc.catalog.budget import MAX_RUN_CATALOGS, MAX_RUN_ENTRIES
from rulesdoc.io.files import MAX_CATALOG_BYTES

ROOT = Path(__file__).resolve().parents[1]

CODES = (
    "af am ar az be bg bn bs ca cs cy da de el eo es et eu fa fi fr ga gl gu he hi hr hu hy id is it "
    "ja ka kk km kn ko ky lo lt lv mk ml mn mr ms my nb ne nl pa pl ps pt ro ru si sk sl sq sr sv sw "
    "ta te th tr uk ur uz vi zh zu"
).split()


def header(code: str) -> str:
    rule = plurals.cldr(Locale.parse(code))
    return (
        'msgid ""\nmsgstr ""\n'
        f'"Language: {code}\\n"\n"Plural-Forms: {rule.header}\\n"\n'
        '"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    )


def entry(number: int, tiny: bool) -> str:
    """An entry the template lacks: judged, counted as stale, never on a page."""
    if tiny:
        return f'msgid "{number:x}"\nmsgstr "x"\n\n'
    return (
        f"#. A message the template lacks, number {number}.\n"
        f'msgid "Message number {number}: {{count}} cards"\n'
        f'msgstr "Bericht nummer {number}: {{count}} kaarten"\n\n'
    )


def catalog(code: str, first: int, most: int, tiny: bool) -> tuple[str, int]:
    """A catalog of up to ``most`` entries under the byte limit; returns it and its entries."""
    parts, size, count = [header(code)], len(header(code)), 0
    while count < most:
        text = entry(first + count, tiny)
        if size + len(text.encode()) > MAX_CATALOG_BYTES:
            break
        parts.append(text)
        size += len(text.encode())
        count += 1
    return "".join(parts), count


def make(dest: Path, kind: str) -> None:
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    for name in ("rules.yaml", "templates", "locales", "babel.cfg", "mkdocs.yml"):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, dest / name, ignore=shutil.ignore_patterns("*.mo", "__pycache__"))
        else:
            shutil.copy2(source, dest / name)
    locales = dest / "locales"
    for folder in locales.iterdir():
        if folder.is_dir():
            shutil.rmtree(folder)
    pot = locales / "messages.pot"
    if kind == "template":  # the template's messages × the languages up to the limit: the status pages' lists
        have = sum(1 for _ in po.load(pot).messages())
        extra = "".join(
            f'#. A note of message {n}.\nmsgid "Template message {n}, on no page"\nmsgstr ""\n\n'
            for n in range(MAX_RUN_ENTRIES // MAX_RUN_CATALOGS - have)
        )
        pot.write_text(pot.read_text("utf-8") + extra, "utf-8")
    # A catalog counts its entries and the template's messages it lacks (all of them, here).
    lacking = sum(1 for _ in po.load(pot).messages())
    left = MAX_RUN_ENTRIES
    for number, code in enumerate(CODES[:MAX_RUN_CATALOGS]):
        if kind in ("languages", "template"):
            text, count = header(code), 0
        else:
            text, count = catalog(code, number * 100_000, left - lacking, tiny=kind == "tiny")
        if left < lacking or (kind not in ("languages", "template") and count == 0):
            break
        path = locales / code / "LC_MESSAGES" / "messages.po"
        path.parent.mkdir(parents=True)
        path.write_text(text, "utf-8")
        left -= count + lacking
        print(f"{path.relative_to(dest)}: {count} entries, {len(text.encode()) // 1024} KiB")


if __name__ == "__main__":
    make(Path(sys.argv[1]), sys.argv[2])
