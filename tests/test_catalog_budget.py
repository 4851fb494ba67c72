"""The run's catalog budget (issue 32): the catalog work of one run is bounded, not only each file.

Each catalog is bounded by its size; a run reads them all, so its time grew with their number
(five catalogs at 512 KiB: `check` 20 s). :class:`rulesdoc.catalog.budget.Budget` counts, as each
catalog is loaded, its entries and the template's messages it lacks, and the number of
catalogs; past :data:`~rulesdoc.catalog.budget.MAX_RUN_ENTRIES` or
:data:`~rulesdoc.catalog.budget.MAX_RUN_CATALOGS` every command that reads the catalogs refuses in
the same words, naming the catalog (and the entry) that crossed the limit, before the work
that grows with them. The limits are lowered here (monkeypatch) so that the tests stay small;
the corpus (tests/bad_inputs/cases.yaml, `catalog-budget-*`) holds the real ones.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support import copy_project, git

from rulesdoc.catalog import budget as run_budget
from rulesdoc.catalog import po
from rulesdoc.errors import RulesdocError
from rulesdoc.i18n import catalogs, mo
from rulesdoc.i18n.translate import catalog_codes, catalog_path
from rulesdoc.io.project import Project
from rulesdoc.pages.rebuild_memory import Memory
from rulesdoc.pages.render import Workspace


def entry(number: int) -> str:
    return f'msgid "extra message {number}"\nmsgstr "ekstra {number}"\n\n'


def catalog_text(code: str, entries: int, obsolete: int = 0) -> str:
    header = f'msgid ""\nmsgstr ""\n"Language: {code}\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    gone = "".join(f'#~ msgid "old {n}"\n#~ msgstr "gammel {n}"\n\n' for n in range(obsolete))
    return header + "".join(entry(n) for n in range(entries)) + gone


def parsed(text: str, name: str = "xx.po") -> po.LoadedCatalog:
    return po.parse(text.encode(), Path(name))


# ---------------------------------------------------------------- the count


def test_a_catalog_counts_its_entries_obsolete_ones_too_and_the_template_messages_it_lacks() -> None:
    template = parsed('msgid ""\nmsgstr ""\n\n' + entry(0) + entry(1) + entry(2), "messages.pot")
    budget = run_budget.Budget.against(template)
    budget.take(parsed(catalog_text("da", 2, obsolete=1)))  # 2 + 1 obsolete + 1 lacking
    assert budget.used == 4
    budget.take(parsed(catalog_text("nl", 0)))  # lacks all three
    assert (budget.used, budget.catalogs) == (7, 2)


def test_up_to_the_limit_passes_and_the_entry_past_it_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run_budget, "MAX_RUN_ENTRIES", 5)
    budget = run_budget.Budget()
    budget.take(parsed(catalog_text("da", 3)))
    second = parsed(catalog_text("nl", 3), "nl.po")
    with pytest.raises(run_budget.CatalogBudgetError) as refused:
        budget.take(second)
    # the second catalog's third entry is the sixth: the one past the limit
    line = second.entry_lines[2]
    assert refused.value.location is not None
    assert (refused.value.location.path, refused.value.location.line) == ("nl.po", line)
    assert 'msgid "extra message 2"' in catalog_text("nl", 3).splitlines()[line - 1]
    assert "the catalogs come to 6 entries with this one, over the 5 a run reads" in str(refused.value)
    exact = run_budget.Budget()
    exact.take(parsed(catalog_text("da", 5)))
    assert exact.used == 5


def test_crossing_on_the_template_messages_a_catalog_lacks_names_the_catalog_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(run_budget, "MAX_RUN_ENTRIES", 4)
    template = parsed('msgid ""\nmsgstr ""\n\n' + entry(10) + entry(11), "messages.pot")
    budget = run_budget.Budget.against(template)
    budget.take(parsed(catalog_text("da", 0)))  # 2 lacking
    with pytest.raises(run_budget.CatalogBudgetError) as refused:
        budget.take(parsed(catalog_text("nl", 1), "nl.po"))  # 1 entry and 2 lacking: 5
    assert refused.value.location is not None
    assert (refused.value.location.path, refused.value.location.line) == ("nl.po", None)


def test_one_catalog_past_the_most_a_run_reads_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run_budget, "MAX_RUN_CATALOGS", 2)
    budget = run_budget.Budget()
    budget.take(parsed(catalog_text("da", 0)))
    budget.take(parsed(catalog_text("nl", 0)))
    with pytest.raises(run_budget.CatalogBudgetError, match="a run reads at most 2 catalogs"):
        budget.take(parsed(catalog_text("pt", 0), "pt.po"))


# ---------------------------------------------------------------- every command, the same words


@pytest.fixture
def over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Project, str]:
    """A copy of the project whose catalogs cross a limit lowered to what its last catalog brings
    (minus one), and the line every command must refuse it with."""
    root = copy_project(tmp_path / "project")
    project = Project.at(root)
    budget = run_budget.Budget.against(po.load(project.pot))
    for code in catalog_codes(project.locales):
        budget.take(po.load(catalog_path(project.locales, code)))
    monkeypatch.setattr(run_budget, "MAX_RUN_ENTRIES", budget.used - 1)
    with pytest.raises(run_budget.CatalogBudgetError) as refused:
        Workspace.load(project)
    return project, str(refused.value)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_check_render_and_the_build_refuse_the_same_way(over: tuple[Project, str]) -> None:
    project, words = over
    last = catalog_codes(project.locales)[-1]
    assert f"{last}/LC_MESSAGES/messages.po:" in words and "over the" in words
    with pytest.raises(RulesdocError) as preview:  # the MkDocs plugin's preview reads through its memory
        Workspace.load(project, memory=Memory())
    assert str(preview.value) == words
    # `check --lang da` leaves out a broken catalog it was not asked about, never the run's limit
    with pytest.raises(RulesdocError) as one_language:
        Workspace.load(project, required=["da"])
    assert str(one_language.value) == words


def test_catalog_update_and_compile_refuse_the_same_way_and_write_nothing(over: tuple[Project, str]) -> None:
    project, words = over
    before = snapshot(project.locales)
    with pytest.raises(RulesdocError) as update:
        catalogs.update(project.locales, root=project.root)
    with pytest.raises(RulesdocError) as compiled:
        mo.compile_catalogs(project.locales, project.root)
    assert str(update.value) == str(compiled.value) == words
    assert snapshot(project.locales) == before


@pytest.mark.slow  # git
def test_report_refuses_the_same_way(over: tuple[Project, str]) -> None:
    from rulesdoc.report.changes import compare

    project, words = over
    root = project.root
    git(root, "init", "-q", "-b", "main")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "the project")
    with pytest.raises(RulesdocError) as refused:
        compare(root, project.rules, project.locales, "main")
    assert str(refused.value) == words


@pytest.mark.slow  # git
def test_report_holds_the_base_revision_to_the_same_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rulesdoc.report.changes import compare

    root = copy_project(tmp_path / "project")
    project = Project.at(root)
    nl = catalog_path(project.locales, "nl")
    kept = nl.read_text("utf-8")
    nl.write_text(kept + "".join(entry(n) for n in range(50)), "utf-8")  # the base: 50 entries more
    git(root, "init", "-q", "-b", "main")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "the project")
    nl.write_text(kept, "utf-8")
    now = run_budget.Budget.against(po.load(project.pot))
    own = sum(
        len(now.take(po.load(catalog_path(project.locales, c))).entry_lines)
        for c in catalog_codes(project.locales)
    )
    assert (
        own + 50 > now.used
    )  # the base's entries (no template to lack) are more than the working tree's count
    # The working tree is at the limit, the base over.
    monkeypatch.setattr(run_budget, "MAX_RUN_ENTRIES", now.used)
    with pytest.raises(RulesdocError) as refused:
        compare(root, project.rules, project.locales, "main")
    assert str(refused.value).startswith("main:locales/pt/LC_MESSAGES/messages.po:")  # the last one crosses
    assert "in the base revision: the catalogs come to" in str(refused.value)
