"""`site_url` reaches every page unescaped (the theme's canonical link), so what is not a plain
http(s) address is refused with one line naming mkdocs.yml and its line, by `check` and by the
build alike (issue 32, item 4)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from support import copy_project
from support.env import dated_env

from rulesdoc.errors import RulesdocError
from rulesdoc.site.config_file import checked_site_url

HOSTILE = 'https://x.example/"><script>alert(1)</script>'


def config(tmp_path: Path, url: str) -> Path:
    path = tmp_path / "mkdocs.yml"
    path.write_text(f"site_name: Help\n\nsite_url: '{url}'\ntheme: material\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "url", [HOSTILE, "javascript:alert(1)", "https://x.example/ a", "//x.example/", "x.example"]
)
def test_what_is_no_plain_address_is_refused_with_its_line(tmp_path: Path, url: str) -> None:
    path = config(tmp_path, url)
    with pytest.raises(RulesdocError) as caught:
        checked_site_url(path, url)
    assert str(caught.value).startswith(f"{path.as_posix()}:3: invalid mkdocs.yml: site_url must be")
    assert "<script>" not in str(caught.value).split("got", 1)[0]


@pytest.mark.parametrize(
    ("url", "root"),
    [
        ("https://o.github.io/repo", "https://o.github.io/repo/"),
        ("http://x.example/a/", "http://x.example/a/"),
        ("", None),
    ],
)
def test_a_plain_address_is_the_site_root(tmp_path: Path, url: str, root: str | None) -> None:
    assert checked_site_url(config(tmp_path, url), url or None) == root


@pytest.mark.slow
def test_check_and_the_build_refuse_it_in_the_same_words(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "p")
    path = project / "mkdocs.yml"
    path.write_text(f"site_url: '{HOSTILE}'\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    env = dated_env()
    runs = [
        subprocess.run(
            [sys.executable, "-m", *args], cwd=project, env=env, capture_output=True, text=True, timeout=600
        )
        for args in (["rulesdoc", "check"], ["mkdocs", "build", "--strict"])
    ]
    assert [run.returncode for run in runs] == [2, 1]  # an input error for check; a failed build
    line = "mkdocs.yml:1: invalid mkdocs.yml: site_url must be an http(s) address"
    assert line in runs[0].stdout + runs[0].stderr and line in runs[1].stderr
    assert "Traceback" not in runs[0].stderr + runs[1].stderr
    assert not (project / "site").exists()
