"""Where a project's inputs live: a module of its own, so that a command that only needs the
paths (``score``, ``export``) imports no renderer."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DOMAIN = "messages"  # the gettext domain: messages.pot, <code>/LC_MESSAGES/messages.po
TEMPLATE_NAME = f"{DOMAIN}.pot"


def template_path(locales: Path) -> Path:
    """The catalog template (the POT) of a locales folder."""
    return locales / TEMPLATE_NAME


@dataclass(frozen=True)
class Project:
    """Where the inputs live; every path may be overridden for tests and other repositories."""

    rules: Path
    templates: Path
    locales: Path
    base: Path | None = None  # the project folder: babel.cfg, mkdocs.yml; default: locales' parent

    @classmethod
    def at(cls, root: Path, rules: Path | None = None, locales: Path | None = None) -> Project:
        return cls(rules or root / "rules.yaml", root / "templates", locales or root / "locales", root)

    @property
    def root(self) -> Path:
        """Where the project's inputs may live: a symlink out of it is refused."""
        return self.base if self.base is not None else self.locales.parent

    @property
    def pot(self) -> Path:
        return template_path(self.locales)
