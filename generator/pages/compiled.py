"""Compiled templates kept between runs (the user's cache, :mod:`rulesdoc.io.cache`), on Jinja's
bytecode-cache interface.

Compiling is most of a render: of a warm ``render`` of this checkout's six languages, Jinja's
lexer, parser and code generator took about seven tenths, for the same few templates every run.
A build, ``check`` or a preview now compiles only what changed since the last run.

An entry is found by what the code is made from, never by where the template lies: Jinja's
version and Python's, the environment's settings that change the code (see
:func:`settings`), the template's name and its text. Two copies of one project share their
entries, so a compiled module's file name (``co_filename``, which tracebacks show) is set to the
template's own path each time it is loaded: an error never names another copy's file. An entry
that does not load (damaged, or from another Jinja) is compiled again.
"""

from __future__ import annotations

import marshal
import types

import jinja2
from jinja2.bccache import Bucket

from rulesdoc.i18n.jinja_internals import parse_settings
from rulesdoc.io import cache

KIND = "templates"
MISSING = ""  # the checksum of a set's member that was not found (a template named but absent)


def settings(env: jinja2.Environment) -> str | None:
    """What, besides the template's text and Jinja's version, decides the code Jinja makes of it:
    what decides its parse (:func:`rulesdoc.i18n.jinja_internals.parse_settings`), then its code
    generation; None for an environment whose code this cannot tell (a callable autoescape, an
    extension other than Jinja's own): such an environment compiles as usual."""
    parsed_as = parse_settings(env)
    if callable(env.autoescape) or parsed_as is None:
        return None
    finalize = env.finalize
    return repr((
        f"{type(env).__module__}.{type(env).__qualname__}",
        f"{env.code_generator_class.__module__}.{env.code_generator_class.__qualname__}",
        parsed_as, env.optimized, env.autoescape, env.is_async, finalize is not None,
        getattr(finalize, "jinja_pass_arg", None),
        # The policy the code generator reads (the others are looked up at run time).
        env.policies.get("compiler.ascii_str"),
        # A filter or test must exist when the code is made; the code looks it up by name.
        sorted(env.filters), sorted(env.tests),
    ))  # fmt: skip


def _relocated(code: types.CodeType, filename: str) -> types.CodeType:
    """``code`` and the code objects inside it, as if compiled from ``filename``."""
    inner = tuple(_relocated(c, filename) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=inner)


def _key(environment: jinja2.Environment, *parts: str) -> str:
    """An entry's name: Jinja's version, the environment's :func:`settings` and ``parts``; "" (not
    kept) for an environment whose code :func:`settings` cannot tell."""
    made_of = settings(environment)
    return cache.digest(cache.made_by("jinja2"), made_of, *parts) if made_of is not None else ""


class CodeCache(jinja2.BytecodeCache):
    """Each template's code, an entry of the user's cache (see the module's docstring)."""

    def __init__(self, store: cache.Store) -> None:
        self.store = store

    def get_bucket(
        self, environment: jinja2.Environment, name: str, filename: str | None, source: str
    ) -> Bucket:
        key = _key(environment, name, source)
        bucket = Bucket(environment, key, self.get_source_checksum(source))
        if key:
            self.load_bytecode(bucket)
        if bucket.code is not None:
            # Jinja names an uncompiled template's file "<template>" (Environment.compile).
            bucket.code = _relocated(bucket.code, filename or "<template>")
        return bucket

    def load_bytecode(self, bucket: Bucket) -> None:
        data = self.store.read(bucket.key)
        if data is not None:
            bucket.bytecode_from_string(data)  # a damaged entry, or another Jinja's, leaves it empty

    def dump_bytecode(self, bucket: Bucket) -> None:
        if bucket.key:
            self.store.write(bucket.key, bucket.bytecode_to_string())

    def load_set(self, environment: jinja2.Environment, roots: list[str]) -> dict[str, bytes] | None:
        """The code of the templates ``roots`` reach, as :meth:`dump_set` kept it, if none of them
        changed since (each is read again: a changed one means compiling the set again); None if
        not kept. The code is keyed as Jinja's bytecode caches key it (name and file)."""
        key = _key(environment, "set", repr(roots))
        data = self.store.read(key) if key else None
        if data is None:
            return None
        try:
            members, code = marshal.loads(data)
            fresh = isinstance(code, dict) and self._fresh(environment, members)
        except (EOFError, ValueError, TypeError):
            return None  # damaged: compiled and written again
        return code if fresh else None

    def _fresh(self, environment: jinja2.Environment, members: dict[str, tuple[str | None, str]]) -> bool:
        """Each member template has the file and the text (checksum) it was compiled from."""
        for name, (filename, checksum) in members.items():
            try:
                source, found, _ = environment.loader.get_source(environment, name)  # type: ignore[union-attr]
            except jinja2.TemplateNotFound:
                if checksum == MISSING:
                    continue  # still missing
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
        key = _key(environment, "set", repr(roots))
        if key:
            self.store.write(key, marshal.dumps((members, code)))

    def clear(self) -> None:
        self.store.clear()


def code_cache() -> CodeCache | None:
    """The user's template cache, or None (none asked for, or its folder is not usable)."""
    store = cache.store(KIND)
    return CodeCache(store) if store is not None else None
