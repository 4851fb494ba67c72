"""The calculator's classic script (for a page opened from disk) is made of the package's modules:
the scorer's text kept word for word, imports bound from the modules before, nothing else."""

from __future__ import annotations

import pytest
from support import ROOT

from rulesdoc.site import assets
from rulesdoc.site.classic import classic_script


def test_the_scorer_is_kept_word_for_word() -> None:
    scorer = (ROOT / "generator" / "export" / "scoring.mjs").read_text("utf-8")
    classic = assets.site_files()[assets.CLASSIC].decode()
    kept = scorer.replace("\nexport function ", "\nfunction ")
    assert kept in classic
    assert "\nexport " not in classic and "\nimport " not in classic
    assert "const { score } = scoring;" in classic


def test_imports_become_the_earlier_modules_exports() -> None:
    made = classic_script(
        [
            ("a", "export function one() {}\nexport class Two {}\n"),
            ("b", 'import { one } from "./a.mjs";\none();\n'),
        ]
    )
    assert made.endswith(
        "const a = (() => {\nfunction one() {}\nclass Two {}\nreturn { one, Two };\n})();\n"
        "const b = (() => {\nconst { one } = a;\none();\nreturn {};\n})();\n})();\n"
    )


@pytest.mark.parametrize(
    "text",
    ['import { one } from "./later.mjs";', 'import * as a from "./a.mjs";', "export default 1;"],
)
def test_a_module_a_classic_script_cannot_hold_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        classic_script([("a", "export function one() {}\n"), ("b", text + "\n")])
