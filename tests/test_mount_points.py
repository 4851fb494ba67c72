"""Issue 32, item 2: `site/` or `render --out` that is a mount point (a tmpfs, a container volume).

The old contents were deleted first, then the staged files, beside the mount point and so on
another file system, could not be renamed in (EXDEV): 0 of 82 files left. These tests meet a
real second file system: a tmpfs mounted in a private mount namespace (``unshare -rm``, no
privilege needed where user namespaces are allowed), and /dev/shm for staging on one file
system with the target on another.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from support import ROOT, copy_project
from support.inprocess import run_main

from rulesdoc.errors import RulesdocError
from rulesdoc.io import folders


def _can_mount(tmp_path: Path) -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = tmp_path / "probe"
    probe.mkdir()
    done = subprocess.run(["unshare", "-rm", "mount", "-t", "tmpfs", "none", str(probe)], capture_output=True)
    probe.rmdir()
    return done.returncode == 0


@pytest.fixture()
def mountable(tmp_path: Path) -> Path:
    if not _can_mount(tmp_path):
        pytest.skip("no private mount namespace here (unshare -rm mount -t tmpfs)")
    return tmp_path


def in_a_mount(target: Path, driver: str, *args: str) -> dict[str, object]:
    """Run ``driver`` (Python) with a fresh tmpfs mounted on ``target``; its JSON result."""
    result = target.parent / f"{target.name}.result.json"
    script = target.parent / f"{target.name}.driver.py"
    script.write_text(driver, "utf-8")
    command = 'mount -t tmpfs -o size=64m none "$1" && shift && exec "$@"'
    done = subprocess.run(
        ["unshare", "-rm", "sh", "-c", command, "sh", str(target), sys.executable, str(script), str(result), *args],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return dict(json.loads(result.read_text("utf-8")))


SNAPSHOT = """
import hashlib, json, os, subprocess, sys
from pathlib import Path

def snapshot(folder):
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}
"""


def render_plain(project: Path, out: Path) -> dict[str, str]:
    import hashlib

    done = run_main(["--root", str(project), "render", "--out", str(out)], cwd=project)
    assert done.returncode == 0, done.stderr
    return {
        str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(out.rglob("*"))
        if p.is_file()
    }


@pytest.mark.slow  # the command twice in a process of its own, in a mount namespace
def test_render_into_a_mount_point_builds_and_replaces_it(mountable: Path) -> None:
    project = copy_project(mountable / "project")
    target = mountable / "mounted"
    target.mkdir()
    driver = SNAPSHOT + textwrap.dedent(
        """
    result, project, target = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    def render():
        done = subprocess.run([sys.executable, "-m", "rulesdoc", "--root", project, "render", "--out", str(target)],
                              cwd=project, capture_output=True, text=True)
        return [done.returncode, done.stderr, os.path.ismount(target), snapshot(target)]
    first = render()  # an empty mount point: it could never be built
    page = Path(project, "templates", "index.md.j2")
    page.write_text(page.read_text("utf-8") + "\\nOne more line.\\n", "utf-8")
    second = render()
    json.dump({"first": first, "second": second}, open(result, "w"))
    """
    )
    found = in_a_mount(target, driver, str(project), str(target))
    page = project / "templates/index.md.j2"
    changed = page.read_text("utf-8")
    page.write_text(changed.removesuffix("\nOne more line.\n"), "utf-8")
    before = render_plain(project, mountable / "plain-before")
    page.write_text(changed, "utf-8")
    after = render_plain(project, mountable / "plain-after")
    assert before != after
    assert found["first"] == [0, "", True, before]  # whole, nothing hidden left in the mount point
    assert found["second"] == [0, "", True, after]


def test_a_run_killed_before_or_during_the_swap_keeps_each_entry_whole(mountable: Path) -> None:
    target = mountable / "site"
    target.mkdir()
    driver = SNAPSHOT + textwrap.dedent(
        """
    import errno
    from rulesdoc.io import folders
    result, target = sys.argv[1], Path(sys.argv[2])
    for name in ("a.html", "b.html", "old-only.html"):
        (target / name).write_text("old " + name)
    (target / "assets").mkdir()
    (target / "assets" / "style.css").write_text("old css")
    old = snapshot(target)
    found = {"old": old}

    def new_site(staged):
        for name in ("a.html", "b.html", "new-only.html"):
            (staged / name).write_text("new " + name)
        (staged / "assets").mkdir()
        (staged / "assets" / "style.css").write_text("new css")

    # Died while building: the staging folder is inside the mount point, on its file system.
    staged = folders.staging_folder(target)
    found["staged_inside"] = staged.parent == target and os.stat(staged).st_dev == os.stat(target).st_dev
    found["beside_dev_differs"] = os.stat(target.parent).st_dev != os.stat(target).st_dev
    new_site(staged)
    found["killed_building"] = {k: v for k, v in snapshot(target).items() if not k.startswith(".")}

    # Died in the middle of the swap, after the first entry: a child process killed there.
    pid = os.fork()
    if pid == 0:
        real, count = folders.exchange, [0]
        def dying(new, old):
            count[0] += 1
            if count[0] == 2:
                os._exit(9)
            return real(new, old)
        folders.exchange = dying
        folders.replace_folder(staged, target)
        os._exit(0)
    os.waitpid(pid, 0)
    found["killed_swapping"] = {k: v for k, v in snapshot(target).items() if not k.startswith(".")}
    found["left_over"] = sorted(p.name for p in target.iterdir() if p.name.startswith("."))

    # The next run clears what the killed ones left, and swaps in whole.
    staged = folders.staging_folder(target)
    new_site(staged)
    folders.replace_folder(staged, target)
    found["next"] = snapshot(target)
    json.dump(found, open(result, "w"))
    """
    )
    found = in_a_mount(target, driver, str(target))
    old = found["old"]
    assert isinstance(old, dict)
    assert found["staged_inside"] is True and found["beside_dev_differs"] is True
    assert found["killed_building"] == old  # nothing old deleted before the new site was in
    swapped = found["killed_swapping"]
    assert isinstance(swapped, dict)
    # Every old entry still there, each entry whole: old, or (the first one swapped) new.
    assert set(old) <= set(swapped) and swapped["a.html"] != old["a.html"]
    assert {k: v for k, v in swapped.items() if k != "a.html" and not k.startswith("assets")} == {
        k: v for k, v in old.items() if k != "a.html" and not k.startswith("assets")
    }
    assert found["left_over"]  # the killed run's staging, hidden in the mount point ...
    nxt = found["next"]
    assert isinstance(nxt, dict)
    assert sorted(nxt) == ["a.html", "assets/style.css", "b.html", "new-only.html"]  # ... cleared


def test_staged_on_one_file_system_for_a_target_on_another_nothing_old_is_lost(tmp_path: Path) -> None:
    """/dev/shm is a tmpfs: the target there, the staging folder on the disk (EXDEV on every rename)."""
    shm = Path("/dev/shm")
    if not shm.is_dir() or os.stat(shm).st_dev == os.stat(tmp_path).st_dev:
        pytest.skip("/dev/shm is not a file system of its own here")
    target = Path(os.environ.get("RULESDOC_SHM", shm)) / f"rulesdoc-test-{os.getpid()}" / "site"
    target.mkdir(parents=True)
    try:
        (target / "index.html").write_text("old", "utf-8")
        staged = tmp_path / ".site.rulesdoc-x"
        staged.mkdir()
        (staged / "index.html").write_text("new", "utf-8")
        with pytest.raises(RulesdocError, match="cannot write: Invalid cross-device link"):
            folders.replace_folder(staged, target)
        assert (target / "index.html").read_text("utf-8") == "old"  # the old site kept whole
        assert [p.name for p in target.iterdir() if not p.name.startswith(".")] == ["index.html"]
        # A staging folder asked for the same target is on its file system: the swap works.
        staged = folders.staging_folder(target)
        assert os.stat(staged).st_dev == os.stat(target).st_dev
        (staged / "index.html").write_text("new", "utf-8")
        folders.replace_folder(staged, target)
        assert sorted(p.name for p in target.iterdir()) == ["index.html"]
        assert (target / "index.html").read_text("utf-8") == "new"
    finally:
        shutil.rmtree(target.parent, ignore_errors=True)
