"""The palette toggle's names: each language's theme message, escaped once where Material writes it."""

from __future__ import annotations

import copy
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import jinja2
import pytest
import yaml
from mkdocs.exceptions import PluginError
from support import ROOT

from rulesdoc.i18n import theme
from rulesdoc.localedata import material_partials
from rulesdoc.site.main_build import apply_language as _apply_language

HOSTILE = 'Mørk "tilstand" & <lys>'  # quotes, an ampersand, angle brackets


class _Attributes(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found += [(name, value or "") for name, value in attrs if name in ("title", "aria-label")]


def palette_from_mkdocs_yml() -> list[dict[str, Any]]:
    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor(
        "!", lambda loader, suffix, node: None
    )  # !ENV, !!python/name: not needed here
    Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)
    config = yaml.load((ROOT / "mkdocs.yml").read_text("utf-8"), Loader=Loader)
    palette: list[dict[str, Any]] = config["theme"]["palette"]
    return palette


def apply(palette: list[dict[str, Any]], translated: dict[str, str | None]) -> SimpleNamespace:
    """_apply_language on a stand-in config: only what it reads and writes."""
    config = SimpleNamespace(
        theme={"palette": copy.deepcopy(palette)}, site_name="", plugins={}, mdx_configs={}
    )
    site = SimpleNamespace(
        language=SimpleNamespace(tag="da", direction="ltr"),
        site_name="Hjælp til Rami",
        strings=theme.theme_strings("da", "ltr", translated),
        copyright=None,  # mkdocs.yml gives none: the engine's config keeps its own
        repo_name=None,
    )
    _apply_language(config, site)  # type: ignore[arg-type]
    return config


def render_palette(config: SimpleNamespace) -> str:
    folder = material_partials.material_dir()
    assert folder is not None, "mkdocs-material is not installed"
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(folder)))  # as MkDocs: no autoescape
    return env.get_template("partials/palette.html").render(config=config)


def test_mkdocs_yml_follows_the_system_with_materials_own_icons() -> None:
    palette = palette_from_mkdocs_yml()
    assert [(option["media"], option["scheme"]) for option in palette] == [
        ("(prefers-color-scheme: light)", "default"),
        ("(prefers-color-scheme: dark)", "slate"),
    ]
    folder = material_partials.material_dir()
    assert folder is not None
    for option in palette:
        assert (folder / ".icons" / f"{option['toggle']['icon']}.svg").is_file(), option["toggle"]["icon"]


def test_each_toggle_gets_the_language_translation_escaped_once() -> None:
    config = apply(
        palette_from_mkdocs_yml(), {"Switch to dark mode": HOSTILE, "Switch to light mode": "Lys tilstand"}
    )
    html = render_palette(config)
    parser = _Attributes()
    parser.feed(html)
    # Material writes each name as the input's aria-label and the label's title.
    assert parser.found == [
        ("aria-label", HOSTILE),
        ("title", HOSTILE),
        ("aria-label", "Lys tilstand"),
        ("title", "Lys tilstand"),
    ]
    assert "<lys>" not in html and "&amp;amp;" not in html


def test_an_untranslated_toggle_shows_the_english_source() -> None:
    config = apply(palette_from_mkdocs_yml(), {})
    names = [option["toggle"]["name"] for option in config.theme["palette"]]
    assert names == ["Switch to dark mode", "Switch to light mode"]


def test_a_toggle_name_that_is_no_message_is_refused() -> None:
    palette = palette_from_mkdocs_yml()
    palette[0]["toggle"]["name"] = "Lights off"
    with pytest.raises(PluginError, match="Lights off"):
        apply(palette, {})


def test_the_palette_messages_are_in_every_catalog(root: Path) -> None:
    """Translated, not fuzzy, in every language (the strict build and `check` insist too)."""
    from rulesdoc.catalog import po

    for path in sorted((root / "locales").glob("*/LC_MESSAGES/messages.po")):
        catalog = po.load(path).catalog
        for key in ("rulesdoc.palette.dark", "rulesdoc.palette.light"):
            english = theme.EXTRA[key][0]
            entry = catalog.get(english, context=theme.THEME_CONTEXT)
            assert entry is not None and entry.string and not entry.fuzzy, f"{path}: {english!r}"
