"""What a published site needs beyond its pages: search engines' and hosts' view of the languages.

- **hreflang**: every page names itself in every language, and the ``x-default`` (the source
  language's page); with ``site_url`` the addresses are absolute, as search engines require.
- **One sitemap** at the site root lists every language's pages, each with its alternates
  (``xhtml:link``): crawlers given the root sitemap find every translation. The languages'
  own sitemaps stay (Material reads them when the reader switches language).
- **404 pages**: GitHub Pages serves the site root's 404 page for every missing address, at
  that address. Its script finds the site root in the address (``site_url``'s path, else the
  folder before a language's folder, else the first folder: a GitHub project site's
  ``/REPO/``), sends a reader under ``/<lang>/`` to that language's 404 page, and otherwise
  points the page's relative URLs at the site root (``<base>``), so it is styled at any depth.
- **The reader's palette** (light or dark) is kept once for the whole site: Material keeps it
  per "scope", by default the build's root, which for a language is its own folder.
"""

from __future__ import annotations

import gzip
import html
import io
import os
import posixpath
import re
import time
import xml.etree.ElementTree as ElementTree
from collections.abc import Sequence
from pathlib import Path

X_DEFAULT = "x-default"
SITEMAP = "sitemap.xml"
_SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
_XHTML_NS = "http://www.w3.org/1999/xhtml"

# Material's hreflang links, one a line (chrome.compact_alternates): the whole run of them.
_LINK = r'<link rel="alternate" href="([^"<>]*)" hreflang="([^"<>]*)">'
_ALTERNATES = re.compile(rf"{_LINK}(?:\n{_LINK})*")


def hreflang_links(output: str, source_tag: str, absolute: dict[str, str] | None = None) -> str:
    """A page's ``<link rel="alternate" hreflang>`` run with the ``x-default`` (the source
    language's address) after it; with ``absolute`` (tag to address: ``site_url`` is set) every
    address made absolute."""
    link = re.compile(_LINK)

    def rewrite(run: re.Match[str]) -> str:
        found = [(html.unescape(tag), html.unescape(href)) for href, tag in link.findall(run.group(0))]
        if absolute is not None:
            found = [(tag, absolute.get(tag, href)) for tag, href in found]
        source = next((href for tag, href in found if tag == source_tag), None)
        if source is not None and all(tag != X_DEFAULT for tag, _ in found):
            found.append((X_DEFAULT, source))
        return "\n".join(
            f'<link rel="alternate" href="{html.escape(href)}" hreflang="{html.escape(tag)}">'
            for tag, href in found
        )

    return _ALTERNATES.sub(rewrite, output, count=1)


def build_timestamp() -> int:
    """The build's time, as every engine takes it: SOURCE_DATE_EPOCH (reproducible builds), else now."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    return int(epoch) if epoch.strip().isdigit() else int(time.time())


def palette_scope(base_url: str) -> str:
    """A language build's page: Material's storage scope one folder above its build's root (the
    site root), so the reader's palette is the same in every language. Relative: from disk and
    under any base path."""
    return posixpath.join(base_url or ".", "..")


def write_sitemap(site_dir: Path, root_url: str, languages: Sequence[tuple[str, str]]) -> None:
    """The site root's sitemap (and its gzipped copy) listing every language's pages, each with
    every language's address of it and the ``x-default``.

    ``languages``: (tag, folder under the site root), the source's first (folder ``""``). The
    pages are those the source language's build listed in its sitemap: every language has the
    same. The site folder is the build's staging one: written in place.
    """
    root_url = root_url if root_url.endswith("/") else root_url + "/"
    if not (site_dir / SITEMAP).is_file():
        return  # a theme that writes none
    source = ElementTree.parse(site_dir / SITEMAP).getroot()  # our own build's output
    pages: list[tuple[str, str]] = []
    for entry in source.iter(f"{{{_SITEMAP_NS}}}url"):
        loc = (entry.findtext(f"{{{_SITEMAP_NS}}}loc") or "").strip()
        if loc.startswith(root_url):
            pages.append((loc[len(root_url) :], (entry.findtext(f"{{{_SITEMAP_NS}}}lastmod") or "").strip()))
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<urlset xmlns="{_SITEMAP_NS}" xmlns:xhtml="{_XHTML_NS}">',
    ]
    for _, folder in languages:
        for path, lastmod in pages:
            out.append(f"  <url>\n    <loc>{html.escape(root_url + folder + path)}</loc>")
            if lastmod:
                out.append(f"    <lastmod>{html.escape(lastmod)}</lastmod>")
            for tag, href in alternates(root_url, path, languages):
                link = (
                    f'<xhtml:link rel="alternate" hreflang="{html.escape(tag)}" href="{html.escape(href)}"/>'
                )
                out.append(f"    {link}")
            out.append("  </url>")
    out.append("</urlset>\n")
    text = "\n".join(out)
    (site_dir / SITEMAP).write_text(text, encoding="utf-8", newline="\n")
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, filename=SITEMAP, mode="wb", mtime=build_timestamp()) as gz:
        gz.write(text.encode("utf-8"))
    (site_dir / f"{SITEMAP}.gz").write_bytes(buffer.getvalue())


def alternates(root: str, path: str, languages: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """Every language's address of a page, (tag, ``root`` + folder + ``path``), then the
    ``x-default``: the source language's (the first)."""
    found = [(tag, root + folder + path) for tag, folder in languages]
    return [*found, (X_DEFAULT, found[0][1])]
