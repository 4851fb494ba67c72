"""What `make bench` takes from the project still fits it.

No test runs the bench (it takes half an hour), and twice a change of the project stopped it
with an error that no test saw: a reworded home page (the preview edits one of its messages)
and the rules' limit on worked examples (the scale made 400). These check, in-process, what
the bench takes from the project.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from support import ROOT

from rulesdoc.spec.fields import MAX_EXAMPLES
from rulesdoc.spec.rules import load_rules


@pytest.fixture(scope="module")
def bench() -> Iterator[ModuleType]:
    """bench/bench.py as a module (in ``sys.modules`` while the tests run: its dataclasses look
    their module up); what its import sets for itself (a bytecode folder, a path) is put back."""
    prefix, path = sys.pycache_prefix, list(sys.path)
    spec = importlib.util.spec_from_file_location("rulesdoc_bench", ROOT / "bench" / "bench.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        sys.pycache_prefix, sys.path[:] = prefix, path
    yield module
    del sys.modules[spec.name]


def test_the_preview_edits_a_home_page_message_danish_translates(bench: ModuleType) -> None:
    msgid = bench.preview_msgid(ROOT)
    assert any(msgid in line for line in (ROOT / "templates" / "index.md.j2").read_text("utf-8").splitlines())
    po = (ROOT / "locales" / "da" / "LC_MESSAGES" / "messages.po").read_text("utf-8")
    found = bench.entry_pattern(msgid).search(bench.one_line_entry(po, msgid))
    assert found is not None, "the Danish catalog does not translate the message the preview edits"
    assert " " in found.group(2)  # the edit puts a word after the first


@pytest.mark.slow
def test_the_scale_stays_within_the_rules_limit_on_worked_examples(bench: ModuleType, tmp_path: Path) -> None:
    counts = bench.example_counts()
    assert counts == sorted(counts) and counts[-1] == MAX_EXAMPLES
    project = bench.project_with_examples(tmp_path / "examples", counts[-1])
    assert len(load_rules(project / "rules.yaml", project).examples) == MAX_EXAMPLES
