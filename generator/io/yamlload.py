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
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.reader import Reader, ReaderError
from yaml.resolver import Resolver

from generator.errors import Location, RulesdocError, short

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


# LibYAML's words for a problem, as PyYAML's parser words it (the rest of rulesdoc, and its
# users' searches, know PyYAML's); a problem not here keeps LibYAML's words.
_PYYAML_WORDS = {
    "mapping values are not allowed in this context": "mapping values are not allowed here",
    "exceeded maximum nesting depth": f"nested more than {MAX_DEPTH} levels deep",
    "found a tab character that violates indentation": "found character '\\t' that cannot start any token",
}
# Problems whose "while scanning ..." context LibYAML gives and PyYAML does not (nor needs).
_NO_CONTEXT = {"found a tab character that violates indentation", "exceeded maximum nesting depth"}


def _problem(error: yaml.MarkedYAMLError, text: str) -> str:
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
        problem = _problem(error, text)
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


# ---------------------------------------------------------------- node shapes
# What every YAML input (rules.yaml, score input) checks of a composed node, naming its line.

PLAIN_TAGS = {"tag:yaml.org,2002:" + name for name in ("str", "int", "float", "bool", "null", "seq", "map")}


def check_tag(node: Node, source: Source) -> None:
    if node.tag not in PLAIN_TAGS:
        raise source.error(node, f"YAML tag {node.tag!r} is not allowed; rules files take plain data only")


def sequence(node: Node, source: Source, what: str) -> list[Node]:
    check_tag(node, source)
    if not isinstance(node, SequenceNode):
        raise source.error(node, f"{what} must be a list")
    return list(node.value)


def mapping(
    node: Node, source: Source, what: str, required: tuple[str, ...], optional: tuple[str, ...] = ()
) -> dict[str, Node]:
    """A mapping's values by key; unknown, duplicate and missing keys are errors."""
    check_tag(node, source)
    if not isinstance(node, MappingNode):
        kind = "a list" if isinstance(node, SequenceNode) else "a single value"
        raise source.error(node, f"{what} must be a mapping of keys to values, not {kind}")
    allowed = required + optional
    found: dict[str, Node] = {}
    for key_node, value_node in node.value:
        key = key_node.value if isinstance(key_node, ScalarNode) else None
        if not isinstance(key, str) or key_node.tag != "tag:yaml.org,2002:str":
            raise source.error(key_node, f"{what}: keys must be plain names")
        if key in found:
            raise source.error(key_node, f"duplicate key {short(key)!r} in {what}")
        if key not in allowed:
            close = difflib.get_close_matches(key, allowed, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else f"; expected one of: {', '.join(allowed)}"
            raise source.error(key_node, f"unknown key {short(key)!r} in {what}{hint}")
        found[key] = value_node
    missing = [key for key in required if key not in found]
    if missing:
        raise source.error(node, f"{what} is missing the key {missing[0]!r}")
    return found
