"""How rulesdoc was installed, as the line of a new project's ``requirements.txt``.

pip records where an installed distribution came from in ``direct_url.json`` (PEP 610): absent
for a package from an index, else a URL with ``archive_info`` (a wheel or sdist), ``vcs_info``
(a git URL and the commit) or ``dir_info`` (a folder, perhaps editable). The new project's CI
installs from its ``requirements.txt``, so the line names what CI can install again: the
version (from an index), the archive's URL or the commit. A folder's path is no such thing (this
machine's, and its contents change): the version stands in for it. Whenever the line is not
something a CI runner can install, :attr:`Requirement.note` says so in one line.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import metadata
from urllib.parse import urlsplit, urlunsplit

DISTRIBUTION = "rulesdoc"
# A URL as one token of a requirement line: no space, quote or control character, which would
# end it or start another line of requirements.txt.
URL = re.compile(r"[^\s\"'\\\x00-\x1f\x7f]+")
UNREADABLE = "pip's record of how rulesdoc was installed (direct_url.json) is unreadable"


@dataclass(frozen=True)
class Requirement:
    line: str  # the requirement, as requirements.txt holds it
    note: str | None = None  # why CI may not install it as it was installed here: one line


def installed() -> Requirement:
    """The installed distribution's requirement (the running package's version when none is)."""
    from rulesdoc import __version__

    # An installer's record first: a build leaves rulesdoc.egg-info in a source tree, which
    # `python -m` run there finds before the install.
    found = sorted(metadata.distributions(name=DISTRIBUTION), key=lambda d: d.read_text("INSTALLER") is None)
    if not found:  # run from a source tree: nothing records an install
        pinned = f"{DISTRIBUTION}=={__version__}"
        return Requirement(pinned, _off_index(__version__, "rulesdoc is not installed"))
    return from_direct_url(found[0].read_text("direct_url.json"), found[0].version)


def from_direct_url(text: str | None, version: str) -> Requirement:
    """The requirement for ``direct_url.json``'s ``text`` (None: installed from an index)."""
    pinned = f"{DISTRIBUTION}=={version}"
    if text is None:
        return Requirement(pinned)
    try:
        record = json.loads(text)
    except ValueError:
        record = None
    url = record.get("url") if isinstance(record, dict) else None
    if not isinstance(record, dict) or not isinstance(url, str) or not URL.fullmatch(url):
        return Requirement(pinned, _off_index(version, UNREADABLE))
    url = _without_credentials(url)
    vcs, archive = record.get("vcs_info"), record.get("archive_info")
    if isinstance(vcs, dict):
        kind, commit = vcs.get("vcs"), vcs.get("commit_id")
        if not isinstance(kind, str) or not isinstance(commit, str):
            return Requirement(pinned, _off_index(version, UNREADABLE))
        if not re.fullmatch(r"[a-z]+", kind) or not re.fullmatch(r"[0-9A-Za-z]+", commit):
            return Requirement(pinned, _off_index(version, UNREADABLE))
        # The commit, not the branch asked for: CI installs what was installed here.
        line = f"{DISTRIBUTION} @ {kind}+{url}@{commit}"
        subdirectory = record.get("subdirectory")
        if isinstance(subdirectory, str) and URL.fullmatch(subdirectory):
            line += f"#subdirectory={subdirectory}"
        return Requirement(line, _here(url, "a repository"))
    if isinstance(archive, dict):
        return Requirement(f"{DISTRIBUTION} @ {url}{_hash(url, archive)}", _here(url, "a file"))
    # A folder (dir_info), editable or not.
    return Requirement(pinned, _off_index(version, f"rulesdoc was installed from the folder {url}"))


def _without_credentials(url: str) -> str:
    """The URL without a user's password or token (ssh's ``git@`` stays): requirements.txt is
    committed."""
    parts = urlsplit(url)
    if parts.password is None and parts.username in (None, "git"):
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))


def _hash(url: str, archive: dict[str, object]) -> str:
    """``#sha256=...`` when pip recorded the archive's hash and the URL carries none."""
    hashes = archive.get("hashes")
    digest = hashes.get("sha256") if isinstance(hashes, dict) else None
    if "#" in url or not isinstance(digest, str) or not re.fullmatch(r"[0-9a-f]{64}", digest):
        return ""
    return f"#sha256={digest}"


def _here(url: str, what: str) -> str | None:
    """A URL of this machine's is none a CI runner can reach."""
    if urlsplit(url).scheme != "file":
        return None
    return f"it names {what} on this machine ({url}): put a URL CI can reach there"


def _off_index(version: str, why: str) -> str:
    return f"{why}, so it asks for {DISTRIBUTION}=={version}, which CI finds only on a package index"
