"""Two of the MkDocs seam's assumptions, checked by watching a real build: the order in which a
strict build of a one-page project does things (:mod:`rulesdoc.site.mkdocs_internals`, items 3,
4 and 6).

The language builds rely on that order: ``build`` asks the shared theme's ``get_env`` before it
lists the theme's files and before any event runs (items 3 and 4), and a strict build counts the
engine's warnings and aborts only after ``on_post_build`` (item 6, where our plugin decides whether
to swap the new site in). No signature or attribute says so; only a build shows it. The probe
build is the one slow part of the seam's checks (a MkDocs build in a temporary folder), so it has
a module of its own beside the seam; ``tests/test_seams.py`` runs :data:`ASSUMPTIONS` with every
other seam's, and a failure names this module.
"""

from __future__ import annotations

import io
import logging
import os
import tempfile
from typing import Any

import jinja2

from rulesdoc.seam import Assumption, holds
from rulesdoc.site import mkdocs_internals, mkdocs_package
from rulesdoc.site.mkdocs_internals import CHECKED_THEME, build_language, share_theme


def versions() -> str:
    """The libraries the probe builds with: the seam's own."""
    return mkdocs_internals.versions()


def _probe_build(*, warn: bool) -> list[str]:
    """What a strict build of a one-page project does, in order: ``get_env`` asked of a theme shared
    by :func:`share_theme`, the theme's files listed (its one static file in ``on_files``), the
    events ``on_env`` (with that environment) and ``on_post_build``, and ``abort`` when the build
    refuses. With ``warn``, ``on_post_build`` logs a warning on the engine's logger, as a build
    whose last page warned: a strict build must abort after the event, not before."""
    base_plugin: Any = mkdocs_package.module("plugins").BasePlugin
    abort: type[BaseException] = mkdocs_package.module("exceptions").Abort
    steps: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        os.makedirs(os.path.join(folder, "docs"))
        os.makedirs(os.path.join(folder, "theme"))
        for name, text in (("docs/index.md", "# Probe\n"), ("theme/main.html", "{{ page.content }}"),
                           ("theme/probe.css", "p {}\n")):  # fmt: skip
            with open(os.path.join(folder, name), "w", encoding="utf-8") as handle:
                handle.write(text)
        config = mkdocs_package.module("config").load_config(
            config_file=io.StringIO("site_name: probe\ntheme: {name: null, custom_dir: theme}\n"),
            config_file_path=os.path.join(folder, "mkdocs.yml"), strict=True,
            site_dir=os.path.join(folder, "site"),
        )  # fmt: skip
        made = config.theme.get_env()

        def environment(theme: Any) -> Any:
            steps.append("get_env")
            return made

        class Probe(base_plugin):  # type: ignore[misc]
            def on_files(self, files: Any, /, *, config: Any) -> Any:
                steps.append("files: theme listed" if files.get_file_from_path("probe.css") else "files")
                return files

            def on_env(self, env: Any, /, *, config: Any, files: Any) -> Any:
                steps.append("env" if env is made else "env: another environment")
                return env

            def on_post_build(self, *, config: Any) -> None:
                steps.append("post_build")
                if warn:
                    logging.getLogger(mkdocs_package.name()).warning("rulesdoc seam probe: a warning")

        config["theme"] = share_theme(config.theme, environment)
        config.plugins["probe"] = Probe()
        try:
            build_language(config)  # the call the language builds make
        except abort:
            steps.append("abort")
    return steps


def _check_theme() -> None:
    original = mkdocs_package.module("theme").Theme(name=CHECKED_THEME)
    made = jinja2.Environment()
    shared = share_theme(original, lambda theme: made)
    holds(shared.dirs == original.dirs and shared["name"] == CHECKED_THEME, "a copied Theme lost its state")
    holds(shared.get_env() is made, "a Theme's get_env is no longer answered by its instance")
    holds(original.get_env() is not made, "copying a Theme changed the original")
    steps = _probe_build(warn=False)
    expected = ["get_env", "files: theme listed", "env", "post_build"]
    holds(
        steps == expected,
        f"a build no longer asks get_env, lists the theme, then runs on_files and on_env: {steps}",
    )


def _check_strict() -> None:
    steps = _probe_build(warn=True)
    holds(
        steps[-2:] == ["post_build", "abort"],
        f"a strict build no longer counts a warning in on_post_build and aborts after it: {steps}",
    )


ASSUMPTIONS: tuple[Assumption, ...] = (
    Assumption(
        "theme", "a Theme copies whole, its get_env is per instance; build() asks it first", _check_theme
    ),
    Assumption(
        "strict", "a strict build counts the engine's warnings and aborts after on_post_build", _check_strict
    ),
)
