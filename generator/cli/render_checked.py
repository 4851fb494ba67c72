"""The ``render`` command's pages: rendered (:mod:`rulesdoc.pages.render`), then refused as
``check`` refuses them (:mod:`rulesdoc.lint`, which reads the render: this module is above both)."""

from __future__ import annotations

from collections.abc import Sequence

from rulesdoc import lint
from rulesdoc.errors import Refusal
from rulesdoc.i18n.translate import select_languages
from rulesdoc.io.project import Project
from rulesdoc.pages.render import RenderedPage, Workspace
from rulesdoc.site.options import site_options


def render_all(project: Project, codes: Sequence[str] = (), strict: bool = True) -> list[RenderedPage]:
    """The pages of the chosen languages (default: all), after the policy's judgement.

    ``strict``: every error ``rulesdoc check`` reports of these languages refuses the render,
    in check's words (a :class:`~rulesdoc.errors.Refusal`); a missing or fuzzy translation is
    no error: it shows in English, marked (``lang="en"``), under the page's notice.
    ``strict=False``: the pages are written whatever check says (its errors show in English too).
    """
    workspace = Workspace.load(project)
    chosen = select_languages(workspace.languages, codes)
    results = workspace.render(chosen)
    for result in results.values():
        if result.error is not None:  # a page that cannot render: its own one line, first
            raise result.error
    if strict:
        published = site_options(project.root / "mkdocs.yml").languages
        policy = workspace.policy.publishing(published)
        only = [language.code for language in chosen if not language.is_source]
        report = lint.run(lint.gather(workspace, policy, only, None, results))
        if report.errors:
            raise Refusal(
                f"{report.errors} error(s), as `rulesdoc check` reports them (`render --no-strict` "
                "writes the pages anyway):",
                report.error_lines(),
            )
    return [page for result in results.values() for page in result.pages]
