"""Files as untrusted input and as output that must never be half-written.

Reading: every input is a regular file inside the project (a symlink may point
elsewhere in the project, never outside it: a catalog symlinked to a secret would
otherwise print its first line into a public CI log), of a bounded size, and its
content is never echoed in an error about what kind of file it is.

Writing: a file is replaced atomically (a temporary file beside it, renamed into place,
so a kill leaves either the old file or the new one, keeping its mode). Whole folders are
:mod:`rulesdoc.io.folders`.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

from rulesdoc.errors import Location, RulesdocError, display_path

KiB, MiB = 1024, 1024 * 1024
# Documented limits (manual/publishing.md, "Untrusted input"): far above any real input, far below what hurts.
MAX_RULES_BYTES = 1 * MiB
MAX_CATALOG_BYTES = 512 * KiB  # 6 times our largest (86 kB): check, render, report stay within 10 s
MAX_TEMPLATE_BYTES = 1 * MiB
MAX_CONFIG_BYTES = 256 * KiB  # glossaries, check.yaml
# `score` reads rounds one at a time, about 2.5 s a MiB on two cores; this bounds the wait (with
# its count of rounds, rulesdoc.score.reading.MAX_ROUNDS: YAML aliases repeat a round in 5 bytes).
MAX_SCORE_INPUT_BYTES = 2 * MiB


def check_regular(path: Path, root: Path | None = None) -> os.stat_result:
    """Refuse what is not a regular file, or a path out of ``root``; never read it to say so.

    This is the one way every command resolves a project file: a symlink (of the file or of a
    folder on its way) whose target leaves ``root`` is refused, a dangling or looping one is an
    error naming it (never a file silently skipped).
    """
    where = Location(display_path(path))
    try:
        link = path.is_symlink()
        info = path.stat()
    except FileNotFoundError:
        raise RulesdocError(
            "is a symlink to nothing (dangling)" if _is_link(path) else "file not found", where
        ) from None
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise RulesdocError("is a symlink loop; refused", where) from None
        raise RulesdocError(f"cannot read: {error.strerror}", where) from None
    if root is not None and not _stays_inside(path, root, link):
        raise RulesdocError("is a symlink to a file outside the project; refused", where)
    if stat.S_ISDIR(info.st_mode):
        raise RulesdocError("is a directory, not a file", where)
    if not stat.S_ISREG(info.st_mode):
        raise RulesdocError("is not a regular file (a device, FIFO or socket); refused", where)
    return info


def _is_link(path: Path) -> bool:
    try:
        return path.is_symlink()
    except OSError:
        return False


def _stays_inside(path: Path, root: Path, link: bool) -> bool:
    """A path in ``root`` (as written, or reached through a symlink) must resolve inside it.

    A file given outside the project on purpose (``--rules ../other.yaml``) is the user's choice.
    """
    real_root = root.resolve()
    written = Path(os.path.abspath(path))
    written_inside = written.is_relative_to(os.path.abspath(root)) or written.is_relative_to(real_root)
    if not (link or written_inside):
        return True
    try:
        return path.resolve(strict=True).is_relative_to(real_root)
    except (OSError, RuntimeError):  # a loop on the way: stat() above would have said so
        return False


def read_bytes(path: Path, limit: int, root: Path | None = None, what: str = "file") -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes."""
    info = check_regular(path, root)
    where = Location(display_path(path))
    if info.st_size > limit:
        raise RulesdocError(f"{what} is {info.st_size:,} bytes; the limit is {limit:,}", where)
    try:
        with path.open("rb") as handle:
            data = handle.read(limit + 1)
    except OSError as error:
        raise RulesdocError(f"cannot read: {error.strerror}", where) from None
    if len(data) > limit:  # it grew while we looked
        raise RulesdocError(f"{what} is over the limit of {limit:,} bytes", where)
    return data


# Longest first: UTF-32's little-endian mark begins with UTF-16's.
_WIDE_MARKS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)


def strip_bom(data: bytes, path: str, what: str = "", utf8_bom: bool = False) -> bytes:
    """Refuse a byte order mark by name: UTF-16 and UTF-32 always, UTF-8's unless ``utf8_bom``
    (YAML allows it, and MkDocs and PyYAML accept it: it is dropped); gettext and Jinja do not
    (``msgfmt`` calls it a syntax error; Jinja would copy it into every page)."""
    for mark, name in _WIDE_MARKS:
        if data.startswith(mark):
            raise RulesdocError(
                f"{what}starts with a {name} byte order mark; save it as UTF-8", Location(path, 1)
            )
    if data.startswith(codecs.BOM_UTF8):
        if not utf8_bom:
            raise RulesdocError(
                f"{what}starts with a UTF-8 byte order mark; save it as UTF-8 without one", Location(path, 1)
            )
        return data[len(codecs.BOM_UTF8) :]
    return data


def decode_utf8(data: bytes, path: str, what: str = "", utf8_bom: bool = False) -> str:
    """UTF-8 text, or the one-line error naming the line of the first bad byte (or the BOM)."""
    data = strip_bom(data, path, what, utf8_bom)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise RulesdocError(
            f"{what}not UTF-8 text ({error.reason}: byte 0x{data[error.start]:02x})", Location(path, line)
        ) from None


def read_text(
    path: Path, limit: int, root: Path | None = None, what: str = "file", utf8_bom: bool = False
) -> str:
    return decode_utf8(read_bytes(path, limit, root, what), display_path(path), utf8_bom=utf8_bom)


# ---------------------------------------------------------------- atomic file writes


def write_atomically(path: Path, data: bytes, mode: int | None = None, root: Path | None = None) -> None:
    """Replace ``path`` with ``data``: the old file or the new one, whole, whatever happens.

    The mode is the old file's, or the umask's default for a new one (not mkstemp's 0600).
    A failure (a read-only folder, ``ulimit -f``, a full disk) is one line naming the file.
    A symlink (two languages sharing one catalog) is written through: the file it points to is
    replaced, from a temporary file beside it, and the link stays; only to a file inside
    ``root``, and without a ``root`` never (it is refused rather than replaced by a file).
    """
    with cannot_write(path):
        _write_atomically(_through_link(path, root), data, mode)


def _through_link(path: Path, root: Path | None) -> Path:
    if not path.is_symlink():
        return path
    target = Path(os.path.realpath(path))
    if root is None or not target.is_relative_to(os.path.realpath(root)):
        where = (
            " to a file outside the project" if root is not None else " (and no project to keep it inside)"
        )
        shown = str(Path(display_path(path.parent)) / path.name)  # the link, not where it points
        raise RulesdocError(f"is a symlink{where}; refused, not written through", Location(shown))
    return target


@contextlib.contextmanager
def cannot_write(path: Path) -> Iterator[None]:
    """An OSError while writing ``path`` as the one-line error naming it (EACCES, EROFS, EFBIG, ENOSPC...)."""
    try:
        yield
    except OSError as error:
        where = Location(display_path(path))
        raise RulesdocError(f"cannot write: {error.strerror or error}", where) from None


def _write_atomically(path: Path, data: bytes, mode: int | None = None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if mode is None:
        try:
            mode = stat.S_IMODE(path.stat().st_mode)
        except FileNotFoundError:
            mode = 0o666 & ~umask()
    # A kill while writing leaves the old file and a hidden temporary one. An unnamed file
    # (O_TMPFILE, linked before the rename) narrowed that leftover's window, Linux only and at a
    # cost: 0.27 ms CPU a write against 0.16 ms here (2,000 writes of 20 KB, interleaved runs).
    handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    temporary = Path(name)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def umask() -> int:
    """The process's umask (reading it means setting it: set back at once)."""
    current = os.umask(0)
    os.umask(current)
    return current
