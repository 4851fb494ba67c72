"""Whole folders (render's pages, export's bundle, the site) replaced so that a reader, or a
kill, sees the old folder or the new one: never a mix, never none.

The new folder is built beside the old one and the two are exchanged in one
``renameat2(RENAME_EXCHANGE)`` call where Linux offers it.

POSIX only (Linux, macOS): the folder lock is ``flock`` (``fcntl``), which Windows lacks.
"""

from __future__ import annotations

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

from rulesdoc.errors import Location, RulesdocError, display_path
from rulesdoc.io.files import cannot_write, umask

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

    A reader (or a kill) sees the old folder or the new one, whole: never a mix. A mount point
    cannot be renamed: its entries are swapped one by one (:func:`_swap_entries`).
    """
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        raise RulesdocError("is not a folder; refusing to replace it", Location(display_path(target)))
    with cannot_write(target):
        _replace_folder(staged, target)


def _replace_folder(staged: Path, target: Path) -> None:
    if staged.parent == target:  # staged inside a mount point (staging_folder)
        _swap_entries(staged, target)
        return
    if not target.exists():
        os.rename(staged, target)
        return
    try:
        if exchange(staged, target):
            shutil.rmtree(staged, ignore_errors=True)  # staged now holds the old folder
            return
    except OSError as error:
        if error.errno not in (errno.EBUSY, errno.EXDEV):
            raise
        _swap_entries(staged, target)  # a mount point that os.path.ismount does not see (a bind mount)
        return
    # No atomic exchange: two renames, the previous folder moved out of the way until the new one is in.
    previous = target.with_name(f".{target.name}.old-{os.getpid()}")
    try:
        os.rename(target, previous)
    except OSError as error:
        if error.errno not in (errno.EBUSY, errno.EXDEV):
            raise
        _swap_entries(staged, target)
        return
    os.rename(staged, target)
    shutil.rmtree(previous, ignore_errors=True)


def _swap_entries(staged: Path, target: Path) -> None:
    """Each new entry takes the place of the old one of its name in one step (an exchange); the
    old entries the new folder lacks go last: nothing old is deleted before every new entry is in,
    and a kill leaves each entry whole, old or new (the next run removes what is left over).
    Not one step for the folder: a reader may see a mix of whole entries for a moment."""
    trash = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target))
    names = sorted(p.name for p in staged.iterdir())
    for name in names:
        new, old = staged / name, target / name
        if os.path.lexists(old):
            if exchange(new, old):
                continue  # the old entry is now at ``new``, removed with ``staged``
            os.rename(old, trash / name)  # no renameat2: the old one aside, then the new one in
        os.rename(new, old)
    for old in list(target.iterdir()):
        if old.name not in {staged.name, trash.name, *names}:
            os.rename(old, trash / old.name)
    with contextlib.suppress(PermissionError):  # a mount point may belong to someone else
        os.chmod(target, stat.S_IMODE(staged.stat().st_mode))
    shutil.rmtree(staged, ignore_errors=True)
    shutil.rmtree(trash, ignore_errors=True)


def staging_folder(target: Path) -> Path:
    """A fresh folder on ``target``'s file system, so that no rename crosses file systems (EXDEV):
    beside ``target`` (the final swap is one step), or inside it when ``target`` is a mount point
    (a tmpfs, a container volume), whose entries are then swapped one by one.

    Its mode is the umask's (mkdtemp's 0700 would make the published site unreadable to a web
    server running as another user).
    """
    if target.exists() and (target.is_symlink() or not target.is_dir()):
        raise RulesdocError("is not a folder; refusing to replace it", Location(display_path(target)))
    with cannot_write(target):
        target.parent.mkdir(parents=True, exist_ok=True)
        remove_leftovers(target)
        where = target if os.path.ismount(target) else target.parent
        staged = Path(tempfile.mkdtemp(prefix=f".{target.name}.rulesdoc-", dir=where))
        os.chmod(staged, 0o777 & ~umask())
        return staged


def remove_leftovers(target: Path) -> None:
    """Staging folders of runs that were killed: nobody else can be using them (see :class:`FolderLock`)."""
    for folder in (target.parent, target):  # inside it: a mount point's (staging_folder)
        for stale in leftovers(folder, target.name):
            shutil.rmtree(stale, ignore_errors=True)


def leftovers(folder: Path, name: str) -> list[Path]:
    """What a killed run writing the folder ``name`` left in ``folder``."""
    if not folder.is_dir() or folder.is_symlink():
        return []
    return [*folder.glob(f".{name}.rulesdoc-*"), *folder.glob(f".{name}.old-*")]


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
