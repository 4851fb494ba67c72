"""axe-core, run inside the page: the rules of WCAG 2.0 A/AA and 2.1 A/AA, nothing disabled.

axe-core comes from the ``axe-playwright-python`` package (the ``test`` extra): a wheel from
PyPI holding axe's own ``axe.min.js``, so ``pip install -e '.[test]'`` is all the gate needs,
offline-safe once cached, no npm. Only that file is used: it is injected with Playwright's
``add_script_tag`` and run with ``axe.run``, with our options passed as JSON.

A rule may be disabled only here, with the reason beside it. None is.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Page

# axe's tags for the WCAG 2.0 A and AA success criteria and those 2.1 added at A and AA.
TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")
# rule id -> why it is off (axe's ids: https://dequeuniversity.com/rules/axe/).
DISABLED: dict[str, str] = {}

RUN_JS = """async ({tags, disabled}) => {
    const rules = Object.fromEntries(disabled.map(id => [id, {enabled: false}]));
    const results = await axe.run(document, {runOnly: {type: "tag", values: tags}, rules,
                                             resultTypes: ["violations"]});
    return {
        version: axe.version,
        applied: [...results.passes, ...results.violations, ...results.incomplete].map(rule => rule.id),
        violations: results.violations.map(rule => ({
            id: rule.id, impact: rule.impact, help: rule.help,
            nodes: rule.nodes.map(node => ({target: node.target.join(" "), summary: node.failureSummary || ""})),
        })),
    };
}"""


def script() -> Path:
    try:
        from axe_playwright_python.base import AXE_FILE_PATH
    except ImportError:
        pytest.fail("axe-playwright-python is not installed (pip install -e '.[test]')", pytrace=False)
    return Path(AXE_FILE_PATH)


@dataclass(frozen=True)
class Result:
    version: str
    applied: frozenset[str]  # the rules that found something to check on the page
    violations: list[dict[str, Any]]

    def lines(self, where: str) -> list[str]:
        """One line per failing element: where, the rule, its impact and axe's message."""
        found = []
        for rule in self.violations:
            for node in rule["nodes"]:
                summary = " ".join(node["summary"].split())
                found.append(f"{where}: {rule['id']} ({rule['impact']}) at {node['target']}: {summary}")
        return found


def run(page: Page) -> Result:
    """axe on the page as it is now (call it after the page has loaded and settled)."""
    page.add_script_tag(path=str(script()))
    found = page.evaluate(RUN_JS, {"tags": list(TAGS), "disabled": list(DISABLED)})
    return Result(found["version"], frozenset(found["applied"]), found["violations"])
