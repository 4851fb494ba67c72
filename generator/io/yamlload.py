"""The one YAML loader of every YAML file rulesdoc reads: bounded in size, depth and time.

Rules, ``score`` input, glossaries, ``check.yaml`` and base revisions all go through here.
The text is bounded before it is parsed (the caller reads it with a byte limit; the
characters PyYAML refuses are found by one regular expression), the events come from
LibYAML where PyYAML has it (C: seconds for megabytes where PyYAML's own parser takes
minutes, and quadratic time on deep flow nesting), and the composer refuses a document
nested deeper than :data:`MAX_DEPTH` as soon as it reaches that depth.

LibYAML's syntax errors are worded differently from PyYAML's; they are translated here
(:func:`yaml_error`), never found again by re-reading the text with PyYAML's parser,
which on a large or deeply nested input is the unbounded part.

This is the PyYAML seam: the one module that uses PyYAML's internals (the rest of rulesdoc
uses its public errors, events and node classes). Each one, why no public API does it, and
what breaks if it changes (:mod:`rulesdoc.io.yaml_seam` checks each; tests/test_seams.py runs them):

- ``yaml._yaml.CParser`` (private module): LibYAML's parser alone. The public
  ``yaml.CSafeLoader`` composes with PyYAML's composer too, but its class cannot take our
  depth bound; :class:`FastLoader` is assembled as ``yaml/cyaml.py`` assembles ``CSafeLoader``.
  If it goes: ``LIBYAML`` is False and every read takes PyYAML's parser (slower, same results).
- ``Composer.compose_node(parent, index)`` (undocumented): overridden by :class:`DepthBound` to
  count nesting, and called by :class:`EventReader` to compose one round at a time. If its
  signature changes: every YAML read fails.
- The composer's state ``anchors`` (anchor name → node) and ``Resolver.resolve(kind, value,
  implicit)``: :meth:`EventReader.start` opens a collection as ``Composer.compose_sequence_node``
  and ``compose_mapping_node`` do, without composing its items (the public ``compose`` builds
  the whole document: 1 GB for 100 000 rounds). If they change: streamed ``score`` input breaks.
- ``ComposerError``'s words for a duplicate anchor and a second document, repeated by
  :class:`EventReader` so that streamed input fails as composed input does.
- ``Reader.NON_PRINTABLE`` (undocumented class attribute): the characters PyYAML refuses, found
  before LibYAML (which accepts some of them) parses; ``Reader(text)`` then raises the error
  with its position. If it goes: a control character gives LibYAML's error, or none.
- ``SafeConstructor.yaml_constructors`` (the registry behind ``add_constructor``) and
  ``construct_undefined``: :func:`scalar_value` calls the safe constructor's function for a
  scalar's tag directly (a loader per value cost a third of ``score``'s time).
- LibYAML's problem texts (:data:`_PYYAML_WORDS`), translated to PyYAML's; a changed text keeps
  LibYAML's words (the error is still one line with its line number).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml
from yaml.composer import Composer, ComposerError
from yaml.constructor import SafeConstructor
from yaml.events import Event, MappingEndEvent, StreamEndEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.reader import Reader, ReaderError
from yaml.resolver import Resolver

from rulesdoc.errors import Location, RulesdocError, short

MAX_DEPTH = 32  # nesting levels: a rules file needs 6; a hostile one would exhaust the stack


@dataclass(frozen=True)
class Source:
    """The file being read, for error locations."""

    path: str

    def at(self, node: Node) -> Location:
        return Location(self.path, node.start_mark.line + 1)

    def error(self, node: Node, message: str) -> RulesdocError:
        return RulesdocError(message, self.at(node))


class DepthBound(Composer):
    """A composer refusing documents nested deeper than :data:`MAX_DEPTH` (mixed into a loader)."""

    depth = 0

    def compose_node(self, parent: Node | None, index: int) -> Node | None:
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                mark = self.peek_event().start_mark  # type: ignore[attr-defined]
                raise yaml.MarkedYAMLError(
                    problem=f"nested more than {MAX_DEPTH} levels deep", problem_mark=mark
                )
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


class BoundedLoader(DepthBound, yaml.SafeLoader):
    """PyYAML's own safe loader, depth-bounded: used only where PyYAML was built without LibYAML."""


try:
    from yaml._yaml import CParser
except ImportError:  # PyYAML built without LibYAML: its own parser, slower, the same nodes
    LIBYAML = False
else:
    LIBYAML = True

    class FastLoader(DepthBound, CParser, SafeConstructor, Resolver):
        """LibYAML's events, composed into nodes by PyYAML's composer (depth-bounded); safe tags only."""

        def __init__(self, stream: str) -> None:
            CParser.__init__(self, stream)
            DepthBound.__init__(self)
            SafeConstructor.__init__(self)
            Resolver.__init__(self)


def loader(text: str) -> Any:
    """The fastest bounded loader this PyYAML has; the text is first checked as PyYAML's reader does."""
    if Reader.NON_PRINTABLE.search(text):
        Reader(text)  # raises the ReaderError (a NUL, an escape character...) with its position
    return FastLoader(text) if LIBYAML else BoundedLoader(text)


def compose(text: str, source: Source) -> Node | None:
    """Parse one YAML document into nodes; what is wrong is one line with the line number."""
    try:
        parser = loader(text)
        try:
            return parser.get_single_node()  # type: ignore[no-any-return]
        finally:
            parser.dispose()
    except yaml.YAMLError as error:
        raise yaml_error(error, text, source) from None


def load(text: str, source: Source) -> Any:
    """Plain data (dicts, lists, scalars) of a small configuration file (a glossary, check.yaml)."""
    node = compose(text, source)
    if node is None:
        return None
    try:
        return SafeConstructor().construct_document(node)
    except yaml.YAMLError as error:
        raise yaml_error(error, text, source) from None
    except (ValueError, TypeError, OverflowError, RecursionError) as error:
        # A value its tag cannot hold (`!!int x`), or an unhashable key (`? [a]: 1`).
        raise RulesdocError(f"invalid YAML value: {error}", source.at(node)) from None


class EventReader:
    """A YAML document read event by event, its nodes composed one at a time by PyYAML's composer.

    For input too large to compose whole (``score``'s rounds): the caller walks the events (the
    public ``check``/``next``), opens and closes collections with :meth:`start` and :meth:`finish`,
    and composes each item alone with :meth:`compose`. Errors are PyYAML's: see :func:`yaml_error`.
    """

    def __init__(self, text: str) -> None:
        self._loader = loader(text)

    def check(self, *kinds: type[Event]) -> bool:
        return bool(self._loader.check_event(*kinds))

    def next(self) -> Any:  # PyYAML types its events as the base class, without their fields
        return self._loader.get_event()

    def compose(self, parent: Node | None, index: Node | int | None) -> Node:
        """One node and everything in it (PyYAML returns None only where no node starts)."""
        node = self._loader.compose_node(parent, index)  # (types-PyYAML: index is an int; any key here)
        if node is None:
            raise RuntimeError("PyYAML composed no node where an event starts one")
        return node  # type: ignore[no-any-return]

    def start(self, kind: type[SequenceNode] | type[MappingNode]) -> Node:
        """Open a collection node as PyYAML's composer does, without its items (read one by one)."""
        loader = self._loader
        event = loader.peek_event()
        if event.anchor is not None and event.anchor in loader.anchors:
            first = loader.anchors[event.anchor].start_mark
            raise ComposerError(
                f"found duplicate anchor {short(event.anchor)!r}; first occurrence", first,
                "second occurrence", event.start_mark,
            )  # fmt: skip
        loader.get_event()
        tag = event.tag
        if tag is None or tag == "!":
            tag = loader.resolve(kind, None, event.implicit)
        node = kind(tag, [], event.start_mark, None, flow_style=event.flow_style)
        if event.anchor is not None:
            loader.anchors[event.anchor] = node
        loader.depth += 1
        return node

    def finish(self, node: Node, kind: type[SequenceNode] | type[MappingNode]) -> None:
        """Compose what is left of a collection (a mapping's other keys) and close it."""
        if kind is MappingNode:
            while not self.check(MappingEndEvent):
                key = self.compose(node, None)
                node.value.append((key, self.compose(node, key)))
        node.end_mark = self.next().end_mark
        self._loader.depth -= 1

    def end_document(self, root: Node) -> None:
        """The document's end, and the stream's: a second document is refused as PyYAML refuses it."""
        self.next()
        if not self.check(StreamEndEvent):
            event = self.next()
            raise ComposerError(
                "expected a single document in the stream", root.start_mark,
                "but found another document", event.start_mark,
            )  # fmt: skip
        self.next()

    def dispose(self) -> None:
        self._loader.dispose()


_CONSTRUCTOR = SafeConstructor()


def scalar_value(node: ScalarNode) -> object:
    """A plain scalar's value (int, float, bool, None, str), by PyYAML's safe constructor.

    Its function for the tag, called directly: the scalar ones keep no state, so one constructor
    serves every call (a loader apiece, as before, cost a third of `score`'s time). Raises what
    the constructor raises for a value its tag cannot hold (``!!int two``).
    """
    construct = _CONSTRUCTOR.yaml_constructors.get(node.tag, SafeConstructor.construct_undefined)
    return construct(_CONSTRUCTOR, node)


# LibYAML's words for a problem, as PyYAML's parser words it (the rest of rulesdoc, and its
# users' searches, know PyYAML's); a problem not here keeps LibYAML's words.
_PYYAML_WORDS = {
    "mapping values are not allowed in this context": "mapping values are not allowed here",
    "exceeded maximum nesting depth": f"nested more than {MAX_DEPTH} levels deep",
    "found a tab character that violates indentation": "found character '\\t' that cannot start any token",
}
# Problems whose "while scanning ..." context LibYAML gives and PyYAML does not (nor needs).
_NO_CONTEXT = {"found a tab character that violates indentation", "exceeded maximum nesting depth"}


def yaml_problem(error: yaml.MarkedYAMLError, text: str) -> str:
    """What is wrong, in PyYAML's words whichever parser found it (the one line's middle part)."""
    problem = error.problem or error.context or "invalid YAML"
    problem = _PYYAML_WORDS.get(problem, problem).removeprefix("did not find ")
    mark = error.problem_mark
    if problem == "found character that cannot start any token" and mark is not None:
        index = getattr(mark, "index", None)
        if isinstance(index, int) and 0 <= index < len(text):
            problem = f"found character {text[index]!r} that cannot start any token"
    return problem


def yaml_error(error: yaml.YAMLError, text: str, source: Source) -> RulesdocError:
    """PyYAML's or LibYAML's error as our one line: the file, the line, what is wrong."""
    if isinstance(error, yaml.MarkedYAMLError):
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark else None
        problem = yaml_problem(error, text)
        column = f" (column {mark.column + 1})" if mark else ""
        opened = error.context_mark
        if (
            error.context
            and opened
            and mark
            and opened.line != mark.line
            and error.problem not in _NO_CONTEXT
        ):
            # "while parsing a flow sequence": say where the unclosed bracket or quote began.
            column += f"; {error.context.removeprefix('while ')} that began on line {opened.line + 1}"
        return RulesdocError(f"YAML syntax error: {problem}{column}", Location(source.path, line))
    if isinstance(error, ReaderError):  # a control character, e.g. NUL: no mark, a position
        line = text.count("\n", 0, error.position) + 1 if isinstance(error.position, int) else None
        character = chr(error.character) if isinstance(error.character, int) else error.character
        return RulesdocError(
            f"YAML syntax error: character {character!r} is not allowed ({error.reason})",
            Location(source.path, line),
        )
    return RulesdocError(f"YAML syntax error: {' '.join(str(error).split())}", Location(source.path))
