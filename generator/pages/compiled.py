"""Compiled templates kept between runs, on Jinja's bytecode-cache interface.

Compiling is most of a render: of a warm ``render`` of this checkout's six languages, Jinja's
lexer, parser and code generator take about seven tenths, for the same few templates every run.
This cache keeps each template's code in a folder of the user's (``RULESDOC_CACHE_DIR``, else
``$XDG_CACHE_HOME/rulesdoc`` or ``~/.cache/rulesdoc``; ``RULESDOC_NO_CACHE=1`` for none), so a
build, ``check`` or a preview compiles only what changed since.

An entry is found by what the code is made from, never by where the template lies: Jinja's
version and Python's (in Jinja's header), the environment's settings that change the code (see
:func:`settings`), the template's name and its text. Two copies of one project share their
entries, so a compiled module's file name (``co_filename``, which tracebacks show) is set to the
template's own path each time it is loaded: an error never names another copy's file.

The cache is a speed-up only, with the same pages and errors without it: an entry that does not
load is compiled as before, and so is everything when the folder cannot be made, read or
written, said once as a warning (on rulesdoc's logger: a strict build does not count it). The
folder must be the user's own, not writable by others: its entries are code this process runs.
It keeps the :data:`KEPT` most recently used entries.
"""

from __future__ import annotations

import hashlib
import logging
import marshal
import os
import stat
import sys
import tempfile
import types
from pathlib import Path

import jinja2
from jinja2.bccache import Bucket, bc_magic

KEPT = 200  # entries: this checkout's templates take 8 of them, 1.3 MB in all
MAX_ENTRY_BYTES = 8 * 1024 * 1024  # a template's code, bounded as its source is (1 MiB)
_ENTRY_SUFFIX = ".jinja"

log = logging.getLogger("rulesdoc")
_warned: set[Path] = set()  # the folders already said to be unusable, once per process


def _unusable(where: Path, why: str) -> None:
    if where not in _warned:
        _warned.add(where)
        log.warning(
            "template cache %s not used (%s): compiling instead; RULESDOC_CACHE_DIR names another "
            "folder, RULESDOC_NO_CACHE=1 turns it off",
            where,
            why,
        )


def folder() -> Path | None:
    """Where the entries are kept, or None when the user asked for no cache."""
    if os.environ.get("RULESDOC_NO_CACHE", "").strip() not in ("", "0"):
        return None
    chosen = os.environ.get("RULESDOC_CACHE_DIR", "").strip()
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME", "").strip()
    return (Path(base) if base else Path.home() / ".cache") / "rulesdoc"


def settings(env: jinja2.Environment) -> str | None:
    """What, besides the template's text and Jinja's version, decides the code Jinja makes of it;
    None for an environment whose code this cannot tell (a callable autoescape, an extension
    other than Jinja's own): such an environment compiles as usual."""
    if callable(env.autoescape):
        return None
    extensions = sorted(f"{type(ext).__module__}.{type(ext).__qualname__}" for ext in env.extensions.values())
    if any(not name.startswith("jinja2.ext.") for name in extensions):
        return None
    finalize = env.finalize
    return repr((
        sys.version_info[:2],
        f"{type(env).__module__}.{type(env).__qualname__}",
        f"{env.code_generator_class.__module__}.{env.code_generator_class.__qualname__}",
        env.block_start_string, env.block_end_string, env.variable_start_string, env.variable_end_string,
        env.comment_start_string, env.comment_end_string, env.line_statement_prefix, env.line_comment_prefix,
        env.trim_blocks, env.lstrip_blocks, env.newline_sequence, env.keep_trailing_newline,
        env.optimized, env.autoescape, env.is_async, finalize is not None,
        getattr(finalize, "jinja_pass_arg", None), extensions,
        getattr(env, "newstyle_gettext", None),
        # The policies the parser and code generator read (the others are looked up at run time).
        env.policies.get("compiler.ascii_str"), env.policies.get("ext.i18n.trimmed"),
        # A filter or test must exist when the code is made; the code looks it up by name.
        sorted(env.filters), sorted(env.tests),
    ))  # fmt: skip


def _relocated(code: types.CodeType, filename: str) -> types.CodeType:
    """``code`` and the code objects inside it, as if compiled from ``filename``."""
    inner = tuple(_relocated(c, filename) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=inner)


def _owned_folder(path: Path) -> bool:
    """``path`` is a folder of this user's that no one else can write in (made so if missing)."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = path.stat()
    except OSError as error:
        _unusable(path, error.strerror or type(error).__name__)
        return False
    owner = getattr(os, "getuid", lambda: info.st_uid)()
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != owner or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        _unusable(path, "not a folder of this user's alone")
        return False
    return True


class CodeCache(jinja2.BytecodeCache):
    """Each template's code in a file named by what it is made from (see the module's docstring)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def get_bucket(
        self, environment: jinja2.Environment, name: str, filename: str | None, source: str
    ) -> Bucket:
        made_of = settings(environment)
        key = hashlib.sha256(f"{made_of}\0{name}\0{source}".encode("utf-8", "surrogatepass")).hexdigest()
        bucket = Bucket(environment, key if made_of is not None else "", self.get_source_checksum(source))
        if made_of is not None:
            self.load_bytecode(bucket)
        if bucket.code is not None:
            # Jinja names an uncompiled template's file "<template>" (Environment.compile).
            bucket.code = _relocated(bucket.code, filename or "<template>")
        return bucket

    def _entry(self, bucket: Bucket) -> Path:
        return self.directory / f"{bucket.key}{_ENTRY_SUFFIX}"

    def load_bytecode(self, bucket: Bucket) -> None:
        entry = self._entry(bucket)
        try:
            with entry.open("rb") as handle:
                data = handle.read(MAX_ENTRY_BYTES + 1)
            os.utime(entry)  # recently used: kept the longest
        except FileNotFoundError:
            return  # not kept (or gone with another process's pruning): compiled as usual
        except OSError as error:
            _unusable(self.directory, error.strerror or type(error).__name__)
            return
        if len(data) <= MAX_ENTRY_BYTES:
            bucket.bytecode_from_string(data)  # a stale or damaged entry leaves the bucket empty

    def dump_bytecode(self, bucket: Bucket) -> None:
        if bucket.key:
            self._write(self._entry(bucket), bucket.bytecode_to_string())

    def _write(self, entry: Path, data: bytes) -> None:
        try:
            # Whole or not at all: another process may read the entry while this one writes it.
            handle = tempfile.NamedTemporaryFile(dir=self.directory, prefix=".", suffix=".tmp", delete=False)
            try:
                with handle:
                    handle.write(data)
                os.replace(handle.name, entry)
            finally:
                Path(handle.name).unlink(missing_ok=True)
        except OSError as error:
            _unusable(self.directory, error.strerror or type(error).__name__)
            return
        self._prune()

    def _prune(self) -> None:
        """Keep the :data:`KEPT` most recently used entries."""
        try:
            entries = [(p.stat().st_mtime_ns, p) for p in self.directory.glob(f"*{_ENTRY_SUFFIX}")]
        except FileNotFoundError:
            return  # an entry pruned meanwhile by another process: the next write prunes
        if len(entries) <= KEPT:
            return
        for _, old in sorted(entries)[: len(entries) - KEPT]:
            old.unlink(missing_ok=True)

    def load_set(self, environment: jinja2.Environment, roots: list[str]) -> dict[str, bytes] | None:
        """The code of the templates ``roots`` reach, as :meth:`dump_set` kept it, if none of them
        changed since (each is read again: a changed one means compiling the set again); None if
        not kept. The code is keyed as Jinja's bytecode caches key it (name and file)."""
        key = self._set_key(environment, roots)
        if key is None:
            return None
        entry = self._entry(Bucket(environment, key, ""))
        try:
            with entry.open("rb") as handle:
                data = handle.read(MAX_ENTRY_BYTES + 1)
            members, code = marshal.loads(data[len(bc_magic) :]) if data.startswith(bc_magic) else ({}, None)
            whole = len(data) <= MAX_ENTRY_BYTES and isinstance(code, dict)
            fresh = whole and self._fresh(environment, members)
            if fresh:
                os.utime(entry)  # recently used: kept the longest
        except FileNotFoundError:
            return None  # not kept (or gone with another process's pruning)
        except (OSError, EOFError, ValueError, TypeError):
            return None  # damaged: compiled and written again
        return code if fresh else None

    def _fresh(self, environment: jinja2.Environment, members: dict[str, tuple[str | None, str]]) -> bool:
        """Each member template has the file and the text (checksum) it was compiled from."""
        for name, (filename, checksum) in members.items():
            try:
                source, found, _ = environment.loader.get_source(environment, name)  # type: ignore[union-attr]
            except jinja2.TemplateNotFound:
                return False
            if found != filename or self.get_source_checksum(source) != checksum:
                return False
        return True

    def dump_set(
        self,
        environment: jinja2.Environment,
        roots: list[str],
        members: dict[str, tuple[str | None, str]],
        code: dict[str, bytes],
    ) -> None:
        """Keep ``code``, the compiled templates ``roots`` reach, with each member's file and checksum."""
        key = self._set_key(environment, roots)
        if key is not None:
            self._write(self._entry(Bucket(environment, key, "")), bc_magic + marshal.dumps((members, code)))

    def _set_key(self, environment: jinja2.Environment, roots: list[str]) -> str | None:
        made_of = settings(environment)
        if made_of is None:
            return None
        made = f"{made_of}\0{bc_magic!r}\0set\0{roots!r}"
        return hashlib.sha256(made.encode("utf-8", "surrogatepass")).hexdigest()

    def clear(self) -> None:
        for entry in self.directory.glob(f"*{_ENTRY_SUFFIX}"):
            entry.unlink(missing_ok=True)


def code_cache() -> CodeCache | None:
    """The user's template cache, or None (none asked for, or its folder is not usable)."""
    where = folder()
    if where is None:
        return None
    where = where / "templates"
    return CodeCache(where) if _owned_folder(where) else None
