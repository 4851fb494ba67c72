"""`rulesdoc report --base REV` on a temporary git repository with two commits.

The first commit is the project with the seed rules (tests/fixtures/rules/seed.yaml); the
second raises the joker from 20 to 25 and adds a worked example (a blocked round). Expected
values by hand, with the seed rules' values: joker 20 → 25; never-opened cap 50 with two
players, 100 with three or more.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from support import SEED_RULES, copy_project, git

from rulesdoc.io import files

# Every test but one drives `rulesdoc report` on a git repository: subprocesses, so not the fast loop.
pytestmark = pytest.mark.slow

NEW_EXAMPLE = """
  - id: blocked-round
    title: The draw pile ran out
    situation:
      hands:
        - cards: [2C, 3D]
        - cards: [4H]
        - cards: [KS, QS]
          opened: false
"""


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """Two commits: the project with the seed rules, then joker 25 and a new example."""
    project = copy_project(tmp_path / "project")
    git(project, "init", "-q", "-b", "main")
    git(project, "add", ".")
    git(project, "commit", "-q", "-m", "the rules as they are")
    rules = project / "rules.yaml"
    rules.write_text(rules.read_text("utf-8").replace("joker: 20", "joker: 25") + NEW_EXAMPLE, "utf-8")
    git(project, "commit", "-q", "-am", "a dearer joker, and a blocked round as an example")
    return project


def report(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rulesdoc", "--root", str(repo), "report", *args],
        cwd=repo, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_json_report_of_a_value_change_and_a_new_example(repo: Path) -> None:
    before = snapshot(repo)
    done = report(repo, "--base", "HEAD~1", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert snapshot(repo) == before  # nothing written, not even in .git
    data: dict[str, Any] = json.loads(done.stdout)
    assert data["base"] == "HEAD~1"
    assert data["commit"] == git(repo, "rev-parse", "HEAD~1")

    changed = [(v["key"], v["before"], v["after"]) for v in data["values"] if v["changed"]]
    assert changed == [("card_values.joker", 20, 25)]
    assert len(data["values"]) == 11

    examples = {e["id"]: (e["status"], e["before"], e["after"]) for e in data["examples"]}
    # 11 + 20 + 5 = 36 → 11 + 25 + 5 = 41
    assert examples["ace-joker-five"] == (
        "changed",
        {"scores": [0, 36], "reasons": ["winner", "hand_value"]},
        {"scores": [0, 41], "reasons": ["winner", "hand_value"]},
    )
    # No joker: 49 + 25 = 74, capped at 50 with two players either way.
    assert examples["two-players-never-opened"][0] == "unchanged"
    # Seat 2: 84 → 89 + 25, capped at 100 either way; seat 3: JK AH 31 → 36.
    assert examples["four-players-one-never-opened"][1]["scores"] == [0, 7, 100, 31]
    assert examples["four-players-one-never-opened"][2]["scores"] == [0, 7, 100, 36]
    assert examples["hand-rummy-three-players"][0] == "unchanged"
    # Blocked: 5, 4 and 20; seat 1 is lowest; seat 2 never opened: 20 + 25 = 45, under the cap of 100.
    assert examples["blocked-round"] == (
        "new",
        None,
        {"scores": [5, 0, 45], "reasons": ["hand_value", "blocked_winner", "never_opened"]},
    )
    assert [e["id"] for e in data["examples"]][-1] == "blocked-round"

    assert [(p["players"], p["changed"]) for p in data["player_counts"]] == [(n, False) for n in range(2, 7)]
    assert data["player_counts"][0]["after"] == {
        "target": 100, "never_opened_cap": 50, "never_opened_cap_rule": "capped_target_share",
    }  # fmt: skip

    assert [language["code"] for language in data["languages"]] == ["da", "hi", "ms", "nl", "pt"]
    for language in data["languages"]:
        assert language["new_catalog"] is False
        untranslated = [m["msgid"] for m in language["untranslated"]]
        assert untranslated == ["The draw pile ran out"], language["code"]
        assert language["fuzzy"] == language["dropped"] == []


def test_markdown_report_for_a_pull_request(repo: Path) -> None:
    done = report(repo, "--base", "HEAD~1")
    assert done.returncode == 0, done.stderr
    text = done.stdout
    commit = git(repo, "rev-parse", "HEAD~1")[:12]
    assert text.startswith(f"## Rule change against `HEAD~1` ({commit})\n")
    assert "| `card_values.joker` | 20 | **25** |" in text
    assert "10 other values unchanged." in text
    assert "| `ace-joker-five` An ace, a joker and a five are left | 0, 36 | 0, 41 | **changed** |" in text
    assert "| `blocked-round` The draw pile ran out | — | 5, 0, 45 | **new** |" in text
    assert "| 2 | 100 | 100 | 50 (target share) | 50 (target share) |" in text
    assert "| `da` | 0 | 1 | 0 |" in text
    assert "- new: “The draw pile ran out”" in text


def test_a_changed_title_becomes_fuzzy_and_a_removed_example_is_noted(repo: Path) -> None:
    rules = repo / "rules.yaml"
    text = rules.read_text("utf-8").replace(
        "title: With two players, the opponent never opened",
        "title: With two players, the opponent had never opened",
    )
    start = text.index("  - id: hand-rummy-three-players")
    rules.write_text(text[:start] + text[text.index("  - id: blocked-round") :], "utf-8")
    done = report(repo, "--base", "HEAD", "--format", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    statuses = {e["id"]: e["status"] for e in data["examples"]}
    assert statuses["hand-rummy-three-players"] == "removed"
    danish = data["languages"][0]
    assert danish["fuzzy"] == [
        {
            "msgid": "With two players, the opponent had never opened",
            "context": None,
            "previous": "With two players, the opponent never opened",
        }
    ]
    dropped = {m["msgid"] for m in danish["dropped"]}
    assert dropped == {"Hand rummy with three players"}  # translated, and no longer used
    # HEAD's catalogs were not updated for the blocked round's title: against them it is still new.
    assert [m["msgid"] for m in danish["untranslated"]] == ["The draw pile ran out"]


@pytest.mark.parametrize(
    ("rev", "error"),
    [
        ("no-such-branch", "rulesdoc: error: --base 'no-such-branch' is not a revision of this repository"),
        ("--output=x", "rulesdoc: error: --base '--output=x' is not a git revision"),
        (  # echoed cut to 60 characters, as every echoed value (issue 32, item 11)
            "x" * 500,
            f"rulesdoc: error: --base '{'x' * 59}…' is not a revision of this repository "
            "(try origin/main, HEAD~1)\n",
        ),
        (
            "HEAD~1",
            "rulesdoc: error: --base 'HEAD~1' is not a revision of this repository (try origin/main)\n",
        ),
        (
            "^HEAD",
            "rulesdoc: error: --base '^HEAD' names commits to leave out (git's ^REV), not one revision; "
            "give the revision itself: --base HEAD\n",
        ),
        (
            "HEAD:rules.yaml",
            "rulesdoc: error: --base 'HEAD:rules.yaml' names a git object that is not a commit\n",
        ),
        (":/no commit says this", "rulesdoc: error: --base ':/no commit says this' is not a revision"),
    ],
)
def test_a_bad_revision_is_one_line(repo: Path, rev: str, error: str) -> None:
    if rev == "HEAD~1":  # a repository of one commit: HEAD~1 is not there, so not suggested
        git(repo, "checkout", "-q", "--orphan", "alone")
        git(repo, "commit", "-q", "-m", "one commit")
        git(repo, "branch", "-q", "-D", "main")
    done = report(repo, f"--base={rev}")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(error) and done.stderr.count("\n") == 1, done.stderr
    assert not (repo / "x").exists()


def test_outside_a_git_repository_is_one_line(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    env = {**os.environ, "GIT_CEILING_DIRECTORIES": str(tmp_path)}  # do not find a repository above
    done = subprocess.run(
        [sys.executable, "-m", "rulesdoc", "report", "--base", "main"],
        cwd=project, capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith("rulesdoc: error: .: report compares with a git revision, but git says: ")
    assert "not a git repository" in done.stderr


def test_a_project_without_catalogs_reports_the_rules_alone(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy(SEED_RULES, project / "rules.yaml")
    git(project, "init", "-q", "-b", "main")
    git(project, "add", ".")
    git(project, "commit", "-q", "-m", "rules only")
    done = report(project, "--base", "HEAD")
    assert done.returncode == 0, done.stderr
    assert "No value changed." in done.stdout
    assert done.stdout.endswith("### Translations\n\nNo catalogs.\n")


# ---------------------------------------------------------------- issue 21: untrusted base revisions


def test_a_ref_with_backticks_and_html_stays_a_code_span(repo: Path) -> None:
    """``git tag 'v`</details><h1>X</h1>'``: the ref is shown literally, never as live HTML."""
    tag = "v`</details><h1>X</h1>"
    git(repo, "tag", tag, "HEAD~1")
    done = report(repo, "--base", tag)
    assert done.returncode == 0, done.stderr
    heading = done.stdout.splitlines()[0]
    assert heading.startswith("## Rule change against ``v`</details><h1>X</h1>`` (")


def test_code_span_outlasts_any_run_of_backticks() -> None:
    from rulesdoc.report.formats import code_span

    assert code_span("main") == "`main`"
    assert code_span("a``b") == "```a``b```"
    assert code_span("`x`") == "`` `x` ``"


def test_a_huge_base_catalog_is_refused_before_it_is_read(repo: Path) -> None:
    """A 5 MB base catalog (over the limit): one line naming it, found from git's size alone."""
    catalog = repo / "locales" / "da" / "LC_MESSAGES" / "messages.po"
    good = catalog.read_bytes()
    catalog.write_bytes(good + b"#" * (5 * 1024 * 1024) + b"\n")
    git(repo, "commit", "-q", "-am", "a huge catalog")
    catalog.write_bytes(good)
    done = report(repo, "--base", "HEAD")
    assert done.returncode == 2
    assert done.stderr.strip().startswith("rulesdoc: error: HEAD:locales/da/LC_MESSAGES/messages.po: file is")
    assert f"the limit is {files.MAX_CATALOG_BYTES:,}" in done.stderr


def test_a_rules_symlink_out_of_the_project_is_refused(repo: Path) -> None:
    rules = repo / "rules.yaml"
    rules.unlink()
    rules.symlink_to("/etc/passwd")
    done = report(repo, "--base", "HEAD~1")
    assert done.returncode == 2
    assert "root:" not in done.stdout + done.stderr
    assert "rules.yaml: is a symlink to a file outside the project; refused" in done.stderr


def test_a_catalog_symlinked_inside_the_project(repo: Path) -> None:
    """A catalog that is a symlink to another file of the project is read from its target."""
    catalog = repo / "locales" / "da" / "LC_MESSAGES" / "messages.po"
    shutil.copy(catalog, repo / "da-catalog.po")
    git(repo, "add", "da-catalog.po")
    git(repo, "commit", "-q", "-m", "the catalog kept beside")
    catalog.unlink()
    catalog.symlink_to(repo / "da-catalog.po")
    done = report(repo, "--base", "HEAD", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert [language["code"] for language in json.loads(done.stdout)["languages"]][:1] == ["da"]


# Issue 32, item 3: what GitHub acts on in a comment beyond Markdown and HTML. Each must reach
# the comment broken (a zero-width joiner, or the dollar sign in a span), readable the same.
GITHUB_LIVE = {
    "@octocat": "a mention (a notification per language)",
    "@acme/admins": "a team mention",
    "https://evil.example/x": "a bare-URL autolink",
    "www.evil.example": "a www autolink",
    "#1": "an issue reference",
    "GH-2": "an issue reference",
    ":smile:": "an emoji shortcode",
    "$$x^2$$": "display math",
    "$y$": "inline math",
}
HOSTILE_TITLE = "Ask @octocat or @acme/admins, see #1 and GH-2, https://evil.example/x www.evil.example :smile: $$x^2$$ $y$"


def test_github_syntax_in_untrusted_text_reaches_the_comment_inert(repo: Path) -> None:
    rules = repo / "rules.yaml"
    rules.write_text(
        rules.read_text("utf-8").replace("title: The draw pile ran out", f"title: {HOSTILE_TITLE}"), "utf-8"
    )
    done = report(repo, "--base", "HEAD~1")
    assert done.returncode == 0, done.stderr
    # The title lands in the examples table and, as a new message, in every language's list.
    assert done.stdout.count("Ask @\u200docto") == 6
    for live, what in GITHUB_LIVE.items():
        assert live not in done.stdout, what
    assert "$" not in done.stdout.replace("<span>$</span>", "")


@pytest.mark.parametrize("live", sorted(GITHUB_LIVE))
def test_inert_breaks_each_construct_and_reads_the_same(live: str) -> None:
    from rulesdoc.report.formats import inert

    text = inert(f"x {live} y")
    assert live not in text
    assert text.replace("\u200d", "").replace("<span>$</span>", "$").replace("\\#", "#") == f"x {live} y"


def test_a_report_over_githubs_limit_is_cut_at_a_line_and_the_whole_one_written(repo: Path) -> None:
    rules = repo / "rules.yaml"
    examples = "".join(
        NEW_EXAMPLE.replace("blocked-round", f"blocked-{n}").replace(
            "The draw pile ran out", f"Pile {n} ran out, " + "long " * 36
        )
        for n in range(95)  # within the rules' bounds: 100 examples, 200-character titles
    )
    rules.write_text(rules.read_text("utf-8") + examples, "utf-8")
    whole = report(repo, "--base", "HEAD~1")
    assert whole.returncode == 0, whole.stderr
    assert len(whole.stdout) > 65_536
    full = repo / "out" / "rule-change-report.md"
    full.parent.mkdir()
    done = report(repo, "--base", "HEAD~1", "--full-report", str(full))
    assert done.returncode == 0, done.stderr
    assert full.read_text("utf-8") == whole.stdout  # the artifact: the whole report
    comment = done.stdout
    assert len(comment.encode("utf-16-le")) // 2 <= 64_000  # the workflow's marker line fits beside it
    *kept, last = comment.rstrip("\n").split("\n")
    body = kept[:-1]  # the blank line before the cut line
    if body[-2:] == ["", "</details>"]:  # a <details> the cut left open, closed
        body = body[:-2]
    assert whole.stdout.startswith("\n".join(body))  # whole lines, in order
    assert (
        last.startswith("**") and "more line(s) not shown**: a GitHub comment holds 65,536 characters" in last
    )
    assert last.endswith("the whole report is `rule-change-report.md`, in this run's artifacts."), last
    assert comment.count("<details>") == comment.count("</details>")


def test_bounded_closes_an_open_details_and_counts_what_it_cut() -> None:
    from rulesdoc.report.formats import bounded

    text = (
        "## Report\n\n<details><summary>da</summary>\n\n"
        + "".join(f"- line {n}\n" for n in range(100))
        + "\n</details>\n"
    )
    cut = bounded(text, 700, "`r.md`")
    assert len(cut) <= 700 and cut.count("<details>") == cut.count("</details>") == 1
    lines = cut.rstrip("\n").split("\n")
    kept = lines[: lines.index("</details>") - 1]
    assert text.startswith("\n".join(kept) + "\n")
    total = len(text.rstrip("\n").split("\n"))
    assert (
        lines[-1]
        == f"**{total - len(kept)} more line(s) not shown**: a GitHub comment holds 65,536 characters; the whole report is `r.md`."
    )
    assert bounded(text, 100_000, "`r.md`") == text


@pytest.mark.parametrize(
    ("encode", "says"),
    [
        (
            lambda text: text.encode("utf-16"),
            "rulesdoc: error: HEAD:rules.yaml:1: starts with a UTF-16 byte order mark; save it as UTF-8\n",
        ),
        (
            lambda text: b"\xef\xbb\xbf" + text.encode("utf-8"),
            None,
        ),  # YAML allows it, as the working copy's reader does
    ],
)
def test_a_base_revisions_byte_order_mark_is_read_as_the_working_copys(
    repo: Path, encode: Any, says: str | None
) -> None:
    rules = repo / "rules.yaml"
    good = rules.read_bytes()
    rules.write_bytes(encode(good.decode("utf-8")))
    git(repo, "commit", "-q", "-am", "rules saved by another editor")
    rules.write_bytes(good)
    done = report(repo, "--base", "HEAD")
    if says is None:
        assert done.returncode == 0 and "No value changed." in done.stdout, done.stderr
    else:
        assert (done.returncode, done.stderr) == (2, says)


def test_a_base_named_by_its_message_is_read(repo: Path) -> None:
    """`:/text`, git's newest commit whose message matches, is a revision like any other."""
    done = report(repo, "--base", ":/the rules as they are", "--format", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["commit"] == git(repo, "rev-parse", "HEAD~1")
    changed = [(v["key"], v["before"], v["after"]) for v in data["values"] if v["changed"]]
    assert changed == [("card_values.joker", 20, 25)]
    by_name = json.loads(report(repo, "--base", "HEAD~1", "--format", "json").stdout)
    assert data == by_name | {"base": ":/the rules as they are"}  # catalogs too: the same commit read


def test_a_shallow_clone_says_its_history_is_shallow(repo: Path, tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{repo}", str(clone))
    done = report(clone, "--base", "HEAD~1")
    assert done.returncode == 2
    assert done.stderr == (
        "rulesdoc: error: --base 'HEAD~1' is not in this clone, whose history is shallow: fetch more "
        "of it (git fetch --deepen=50, or fetch-depth: 0 in actions/checkout) or the base branch "
        "(git fetch origin main)\n"
    )
    git(clone, "fetch", "-q", "--deepen=1")  # what the line says to do works
    assert report(clone, "--base", "HEAD~1").returncode == 0
