"""The requirements.txt line `rulesdoc new` writes, read off pip's record of the install (PEP 610
direct_url.json; issue 29). The texts are written as pip writes them."""

from __future__ import annotations

import json

import pytest

from rulesdoc.cli import requirement
from rulesdoc.cli.requirement import Requirement, from_direct_url

SHA = "a" * 64
COMMIT = "0123456789abcdef0123456789abcdef01234567"


def record(**fields: object) -> str:
    return json.dumps(fields)


def test_from_an_index_the_version() -> None:
    assert from_direct_url(None, "0.1.0") == Requirement("rulesdoc==0.1.0")


def test_a_wheel_on_a_server_with_its_hash() -> None:
    url = "https://example.org/dist/rulesdoc-0.1.0-py3-none-any.whl"
    text = record(url=url, archive_info={"hash": f"sha256={SHA}", "hashes": {"sha256": SHA}})
    assert from_direct_url(text, "0.1.0") == Requirement(f"rulesdoc @ {url}#sha256={SHA}")


def test_a_wheel_on_this_machine_is_named_and_said_so() -> None:
    url = "file:///tmp/dist/rulesdoc-0.1.0-py3-none-any.whl"
    found = from_direct_url(record(url=url, archive_info={}), "0.1.0")
    assert found.line == f"rulesdoc @ {url}"
    assert found.note is not None and url in found.note and "\n" not in found.note


def test_a_git_url_at_the_commit_installed() -> None:
    url = "https://github.com/someone/rulesdoc.git"
    text = record(url=url, vcs_info={"vcs": "git", "commit_id": COMMIT, "requested_revision": "main"})
    assert from_direct_url(text, "0.1.0") == Requirement(f"rulesdoc @ git+{url}@{COMMIT}")


def test_a_git_url_with_a_subdirectory() -> None:
    url = "https://example.org/tools.git"
    text = record(url=url, subdirectory="rulesdoc", vcs_info={"vcs": "git", "commit_id": COMMIT})
    assert from_direct_url(text, "0.1.0").line == f"rulesdoc @ git+{url}@{COMMIT}#subdirectory=rulesdoc"


def test_a_token_in_the_url_is_not_written() -> None:
    text = record(url="https://me:s3cret@example.org/r.git", vcs_info={"vcs": "git", "commit_id": COMMIT})
    assert from_direct_url(text, "0.1.0").line == f"rulesdoc @ git+https://example.org/r.git@{COMMIT}"
    ssh = record(url="ssh://git@example.org/r.git", vcs_info={"vcs": "git", "commit_id": COMMIT})
    assert from_direct_url(ssh, "0.1.0").line == f"rulesdoc @ git+ssh://git@example.org/r.git@{COMMIT}"


def test_a_local_clone_is_named_and_said_so() -> None:
    text = record(url="file:///home/me/rulesdoc", vcs_info={"vcs": "git", "commit_id": COMMIT})
    found = from_direct_url(text, "0.1.0")
    assert found.line == f"rulesdoc @ git+file:///home/me/rulesdoc@{COMMIT}"
    assert found.note is not None and "this machine" in found.note


@pytest.mark.parametrize("editable", [True, False])
def test_a_folder_gives_the_version_and_says_no_index_has_it(editable: bool) -> None:
    text = record(url="file:///work/rulesdoc", dir_info={"editable": editable} if editable else {})
    found = from_direct_url(text, "0.1.0")
    assert found.line == "rulesdoc==0.1.0"
    assert found.note is not None and "file:///work/rulesdoc" in found.note and "package index" in found.note


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        "[]",
        record(archive_info={}),
        record(url="https://example.org/x.whl\nevil==1", archive_info={}),
        record(url="https://example.org/r.git", vcs_info={"vcs": "git"}),
        record(url="https://example.org/r.git", vcs_info={"vcs": "git", "commit_id": "main; rm -rf /"}),
    ],
)
def test_an_unreadable_record_gives_the_version_and_one_line(text: str) -> None:
    found = requirement.from_direct_url(text, "0.1.0")
    assert found.line == "rulesdoc==0.1.0"
    assert found.note is not None and "direct_url.json" in found.note and "\n" not in found.note


def test_this_checkout_is_an_editable_install() -> None:
    """The test virtualenv's own rulesdoc (`make setup`: pip install -e .) is a folder."""
    found = requirement.installed()
    assert found.line.startswith("rulesdoc==") and found.note is not None and "folder" in found.note
