"""Files as untrusted input and as output that must never be half-written.

Reading: every input is a regular file inside the project (a symlink may point
elsewhere in the project, never outside it: a catalog symlinked to a secret would
otherwise print its first line into a public CI log), of a bounded size, and its
content is never echoed in an error about what kind of file it is.

Writing: a file is replaced atomically (a temporary file beside it, renamed into place,
so a kill leaves either the old file or the new one, keeping its mode); a folder is
replaced by building its successor beside it and exchanging the two in one
``renameat2(RENAME_EXCHANGE)`` call where Linux offers it.

POSIX only (Linux, macOS): the folder lock is ``flock`` (``fcntl``), which Windows lacks.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import fcntl
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from generator.errors import Location, RulesdocError, display_path

KiB, MiB = 1024, 1024 * 1024
# Documented limits (README, "Limits"): far above any real input, far below what hurts.
MAX_RULES_BYTES = 1 * MiB
MAX_CATALOG_BYTES = 4 * MiB
MAX_TEMPLATE_BYTES = 1 * MiB
MAX_CONFIG_BYTES = 256 * KiB  # glossaries, check.yaml
MAX_SCORE_INPUT_BYTES = 64 * MiB  # `score` reads rounds one at a time; this bounds the wait


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


def write_atomically(path: Path, data: bytes, mode: int | None = None) -> None:
    """Replace ``path`` with ``data``: the old file or the new one, whole, whatever happens.

    The mode is the old file's, or the umask's default for a new one (not mkstemp's 0600).
    A failure (a read-only folder, ``ulimit -f``, a full disk) is one line naming the file.
    """
    with cannot_write(path):
        _write_atomically(path, data, mode)


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
            mode = 0o666 & ~_umask()
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


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


# ---------------------------------------------------------------- whole folders


# The atomic exchange (Linux renameat2 through ctypes) is what keeps the old folder whole when
# a run dies: with two renames, a kill between them leaves no folder at ``target`` (the old one
# sits at ``.NAME.old-PID``, which the next run's remove_leftovers deletes), and a reader sees
# none for that moment. It buys no time (make bench): it is kept for that guarantee.
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _renameat2() -> Callable[[int, bytes, int, bytes, int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    import ctypes  # here: only a swap needs it

    try:
        # The process's own symbols, libc's among them: no library search (a subprocess).
        function = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return None
    function.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    function.restype = ctypes.c_int
    return function


def _errno() -> int:
    import ctypes

    return ctypes.get_errno()


def exchange(new: Path, old: Path) -> bool:
    """Swap two paths in one step (Linux ``renameat2``); False where the system cannot."""
    function = _renameat2()
    if function is None:
        return False
    result = function(_AT_FDCWD, os.fsencode(new), _AT_FDCWD, os.fsencode(old), _RENAME_EXCHANGE)
    if result == 0:
        return True
    code = _errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False
    raise OSError(code, os.strerror(code), str(old))


def replace_folder(staged: Path, target: Path) -> None:
    """Put the finished folder ``staged`` where ``target`` is, then delete the old one.

    A reader (or a kill) sees the old folder or the new one, whole: never a mix.
    """
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        raise RulesdocError("is not a folder; refusing to replace it", Location(display_path(target)))
    with cannot_write(target):
        _replace_folder(staged, target)


def _replace_folder(staged: Path, target: Path) -> None:
    if not target.exists():
        os.rename(staged, target)
        return
    try:
        if exchange(staged, target):
            shutil.rmtree(staged, ignore_errors=True)  # staged now holds the old folder
            return
    except OSError as error:
        if error.errno != errno.EBUSY:
            raise
        # A mount point (a Docker volume) cannot be renamed: its contents are replaced instead.
        # Not one step, so a reader may see a mix for a moment; the build itself was whole.
        _replace_contents(staged, target)
        return
    # No atomic exchange: two renames, the previous folder moved out of the way until the new one is in.
    previous = target.with_name(f".{target.name}.old-{os.getpid()}")
    os.rename(target, previous)
    os.rename(staged, target)
    shutil.rmtree(previous, ignore_errors=True)


def _replace_contents(staged: Path, target: Path) -> None:
    for old in list(target.iterdir()):
        shutil.rmtree(old) if old.is_dir() and not old.is_symlink() else old.unlink()
    for new in list(staged.iterdir()):
        os.rename(new, target / new.name)
    os.chmod(target, stat.S_IMODE(staged.stat().st_mode))
    staged.rmdir()


def staging_folder(target: Path) -> Path:
    """A fresh folder beside ``target`` (same file system, so the final rename is atomic).

    Its mode is the umask's (mkdtemp's 0700 would make the published site unreadable to a web
    server running as another user).
    """
    if target.exists() and (target.is_symlink() or not target.is_dir()):
        raise RulesdocError("is not a folder; refusing to replace it", Location(display_path(target)))
    with cannot_write(target):
        target.parent.mkdir(parents=True, exist_ok=True)
        remove_leftovers(target)
        staged = Path(tempfile.mkdtemp(prefix=f".{target.name}.rulesdoc-", dir=target.parent))
        os.chmod(staged, 0o777 & ~_umask())
        return staged


def remove_leftovers(target: Path) -> None:
    """Staging folders of runs that were killed: nobody else can be using them (see :class:`FolderLock`)."""
    for stale in target.parent.glob(f".{target.name}.rulesdoc-*"):
        shutil.rmtree(stale, ignore_errors=True)
    for stale in target.parent.glob(f".{target.name}.old-*"):
        shutil.rmtree(stale, ignore_errors=True)


class FolderLock:
    """A lock on writing ``target``, held across calls (a build's start and end are two events).

    The lock is ``flock`` on a file beside the target, released by the kernel when its
    holder exits however it exits, so a killed build never leaves a stale lock.
    """

    def __init__(self, target: Path) -> None:
        self.target = target
        self.handle: int | None = None

    def acquire(self, on_wait: str = "") -> None:
        with cannot_write(self.target):  # a read-only folder: one line, not a traceback
            self.target.parent.mkdir(parents=True, exist_ok=True)
            handle = os.open(self.target.parent / f".{self.target.name}.lock", os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if on_wait:
                print(on_wait, file=sys.stderr, flush=True)
            fcntl.flock(handle, fcntl.LOCK_EX)
        self.handle = handle

    def release(self) -> None:
        if self.handle is not None:
            os.close(self.handle)
            self.handle = None


class FolderSwap:
    """The one way a folder is replaced (render's pages, export's bundle, the site).

    :meth:`start` locks ``target`` and gives a fresh folder beside it to write the new one
    into; :meth:`finish` swaps it in whole (:func:`replace_folder`) and unlocks; :meth:`close`
    unlocks and removes what was written if it was not swapped in. A second writer waits
    for the first; a reader sees the old folder or the new one. The site's build spans
    MkDocs events, so it calls these itself; the others use :func:`replacing`.
    """

    def __init__(self, target: Path) -> None:
        self.target = target
        self.staging: Path | None = None
        self._lock = FolderLock(target)

    def start(self, on_wait: str = "") -> Path:
        self._lock.acquire(on_wait)
        try:
            self.staging = staging_folder(self.target)
        except BaseException:
            self._lock.release()
            raise
        return self.staging

    def finish(self) -> None:
        """Put the written folder in place of ``target`` (on failure, :meth:`close` still cleans up)."""
        if self.staging is None:
            raise RuntimeError("FolderSwap.finish() without start()")
        replace_folder(self.staging, self.target)
        self.staging = None  # it held the old folder, which replace_folder removed
        self.close()

    def close(self) -> None:
        if self.staging is not None:
            shutil.rmtree(self.staging, ignore_errors=True)
            self.staging = None
        self._lock.release()


@contextlib.contextmanager
def replacing(target: Path, on_wait: str = "") -> Iterator[Path]:
    """Write the new ``target`` into the yielded folder; it replaces ``target`` whole if the block
    completes, and is removed if it raises (``target`` is then as it was)."""
    swap = FolderSwap(target)
    staged = swap.start(on_wait)
    try:
        yield staged
        swap.finish()
    finally:
        swap.close()
