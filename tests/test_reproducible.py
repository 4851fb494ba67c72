"""Reproducible output: the same inputs give byte-identical pages and sites.

Rendering must not depend on the machine's locale, time zone, hash seed or working directory;
two site builds with ``SOURCE_DATE_EPOCH`` fixed (as the Makefile does) must be identical,
sitemap.xml(.gz) and search indexes included.
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from support import ROOT
from support.env import PYCACHE

# Renders and site builds in child interpreters, compared byte for byte: not the fast loop.
pytestmark = pytest.mark.slow

MKDOCS = Path(sys.executable).with_name("mkdocs")
# Any fixed value will do; the Makefile uses the date of the last commit.
EPOCH = "1700000000"

# Environments that must not change a byte of the output.
BASELINE = {"LANG": "C", "LC_ALL": "C", "TZ": "UTC", "PYTHONHASHSEED": "0"}
VARIANTS = {
    "german-locale": {"LANG": "de_DE.UTF-8", "LC_ALL": "de_DE.UTF-8", "LANGUAGE": "de_DE:de"},
    "hindi-locale": {"LANG": "hi_IN.UTF-8", "LC_ALL": "hi_IN.UTF-8", "LC_NUMERIC": "hi_IN.UTF-8"},
    "kolkata-time": {"TZ": "Asia/Kolkata"},
    "far-time": {"TZ": "Pacific/Kiritimati"},
    "other-hash-seed": {"PYTHONHASHSEED": "4242"},
}


def environment(**overrides: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"PYTHONDONTWRITEBYTECODE", "LANGUAGE"} and not k.startswith("LC_")
    }
    env.update(BASELINE, PYTHONPYCACHEPREFIX=str(PYCACHE))
    env.update(overrides)
    return env


def tree(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def assert_same_tree(a: Path, b: Path) -> None:
    first, second = tree(a), tree(b)
    assert first, f"{a} is empty"
    assert sorted(first) == sorted(second), "the two outputs have different files"
    differing = [name for name in first if first[name] != second[name]]
    assert not differing, f"files differ between {a} and {b}: {differing}"


def render(out: Path, *, cwd: Path = ROOT, root: Path | str = ".", **env: str) -> None:
    process = subprocess.run(
        [sys.executable, "-m", "rulesdoc", "--root", str(root), "render", "--out", str(out)],
        cwd=cwd, env=environment(**env), capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert process.returncode == 0, process.stderr


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("baseline")
    render(out)
    return out


def test_two_renders_are_identical(baseline: Path, tmp_path: Path) -> None:
    render(tmp_path / "again")
    assert_same_tree(baseline, tmp_path / "again")


def test_render_does_not_depend_on_the_machine(baseline: Path, tmp_path: Path) -> None:
    """Locale, time zone and hash seed variants, run in parallel: every output equals the baseline."""
    with ThreadPoolExecutor(max_workers=len(VARIANTS)) as pool:
        list(pool.map(lambda item: render(tmp_path / item[0], **item[1]), VARIANTS.items()))
    for name in VARIANTS:
        assert_same_tree(baseline, tmp_path / name)


def test_render_does_not_depend_on_the_working_directory(baseline: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    render(tmp_path / "out", cwd=elsewhere, root=ROOT)  # a relative --out would land in cwd
    assert_same_tree(baseline, tmp_path / "out")
    assert [p.name for p in elsewhere.iterdir()] == [], "render wrote into the working directory"


def build_site(site: Path, **env: str) -> None:
    process = subprocess.run(
        [str(MKDOCS), "build", "--strict", "--quiet", "-d", str(site)],
        cwd=ROOT, env=environment(SOURCE_DATE_EPOCH=EPOCH, **env),
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert process.returncode == 0, process.stderr


def test_two_site_builds_are_identical(tmp_path: Path) -> None:
    """Two whole sites (every language, sitemaps, search indexes), the second under other settings."""
    first, second = tmp_path / "first", tmp_path / "second"
    with ThreadPoolExecutor(max_workers=2) as pool:
        jobs = [
            pool.submit(build_site, first),
            pool.submit(build_site, second, TZ="Asia/Kolkata", PYTHONHASHSEED="4242", LANG="de_DE.UTF-8"),
        ]
        for job in jobs:
            job.result()
    files = tree(first)
    for expected in ("sitemap.xml", "sitemap.xml.gz", "search/search_index.json", "da/sitemap.xml"):
        assert expected in files, f"{expected} missing from the site"
    assert "da/sitemap.xml.gz" not in files, "the crawlers' gzipped sitemap is the site root's alone"
    assert_same_tree(first, second)
