"""The PyYAML seam's assumptions, checked: each use of PyYAML's internals that
:mod:`rulesdoc.io.yamlload` names (why, and what breaks if it changes) is probed here by what
the library does, and :data:`ASSUMPTIONS` is what ``tests/test_seams.py`` runs.

Kept apart from the loader so that the loader reads as the one thing every YAML read goes
through; the private names these checks touch are allowed here and in the loader only.
Each check raises SeamChanged naming what changed when its assumption no longer holds
(generator/seam.py); its docstring says what is assumed.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.util import find_spec
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.reader import Reader, ReaderError

from rulesdoc.io import yamlload
from rulesdoc.io.yamlload import (
    MAX_DEPTH,
    BoundedLoader,
    EventReader,
    Source,
    compose,
    loader,
    scalar_value,
    yaml_problem,
)
from rulesdoc.seam import Assumption, SeamChanged, holds, installed

LIBRARY = "pyyaml"


def _libyaml_parser() -> None:
    """Where PyYAML has its LibYAML extension (yaml._yaml), it holds CParser, and FastLoader
    composes the same nodes as PyYAML's own parser."""
    if not yamlload.LIBYAML:  # built without LibYAML: PyYAML's parser is used, as intended
        holds(not find_spec("yaml._yaml"), "yaml._yaml has no CParser any more")
        return
    text = "a: [1, {b: c}]\nd: &x e\nf: *x\n"
    fast, plain = yamlload.FastLoader(text).get_single_node(), BoundedLoader(text).get_single_node()
    if _shape(fast) != _shape(plain):
        raise SeamChanged(f"LibYAML's CParser composes {_shape(fast)}, PyYAML's parser {_shape(plain)}")


def _shape(node: Node | None) -> object:
    """A node as plain data (tag, value, line) to compare two parsers' nodes."""
    if node is None:
        return None
    if isinstance(node, ScalarNode):
        return (node.tag, node.value, node.start_mark.line)
    if isinstance(node, MappingNode):
        return (node.tag, [(_shape(k), _shape(v)) for k, v in node.value])
    return (node.tag, [_shape(item) for item in node.value])


def _problem_of(make: Callable[[str], Any], text: str) -> str | None:
    """What a loader class finds wrong with a text, in the words
    :func:`~rulesdoc.io.yamlload.yaml_error` shows."""
    try:
        make(text).get_single_node()
    except yaml.MarkedYAMLError as error:
        return yaml_problem(error, text)
    return None


def _depth_bound() -> None:
    """The composer calls compose_node(parent, index) for every node, so DepthBound refuses
    deep nesting, with LibYAML's parser and with PyYAML's."""
    text = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    for make in (yamlload.FastLoader, BoundedLoader) if yamlload.LIBYAML else (BoundedLoader,):
        problem = _problem_of(make, text)
        if problem != f"nested more than {MAX_DEPTH} levels deep":
            raise SeamChanged(
                f"{make.__name__} no longer calls compose_node: nesting past {MAX_DEPTH} gives {problem!r}"
            )


def _stream_list(text: str) -> Node:
    """A document that is a list, read as ``score`` reads its rounds."""
    reader = EventReader(text)
    try:
        reader.next(), reader.next()  # the stream's start, the document's
        root = reader.start(SequenceNode)
        while not reader.check(yaml.SequenceEndEvent):
            root.value.append(reader.compose(root, len(root.value)))
        reader.finish(root, SequenceNode)
        reader.end_document(root)
        return root
    finally:
        reader.dispose()


def _events_compose_one_at_a_time() -> None:
    """EventReader composes a list item by item into the nodes compose() gives (the composer's
    anchors, resolve), and refuses a duplicate anchor and a second document with PyYAML's words."""
    text = "- &a {x: 1}\n- *a\n- [1, 2]\n"
    streamed, whole = _shape(_stream_list(text)), _shape(compose(text, Source("probe")))
    if streamed != whole:
        raise SeamChanged(f"streamed nodes {streamed} differ from composed {whole}")
    for bad, words in (("&a [&a [1]]", "found duplicate anchor 'a'"), ("[1]\n--- [2]", "but found another")):
        try:
            _stream_list(bad)
            raise SeamChanged(f"{bad!r} is no longer refused")
        except yaml.YAMLError as error:
            if words not in str(error):
                raise SeamChanged(f"{bad!r} fails with {str(error)!r}, not {words!r}") from None


def _non_printable() -> None:
    """Reader.NON_PRINTABLE finds the characters PyYAML refuses, and Reader(text) raises the
    ReaderError with their position."""
    text = "a: b\x00c\n"
    if not Reader.NON_PRINTABLE.search(text):
        raise SeamChanged("Reader.NON_PRINTABLE no longer finds a NUL")
    try:
        loader(text)
    except ReaderError as error:
        holds(error.position == 4, f"ReaderError's position is {error.position!r}, not 4")
        return
    raise SeamChanged("Reader(text) no longer raises a ReaderError for a NUL")


def _scalar_constructors() -> None:
    """SafeConstructor.yaml_constructors maps each plain tag to a function of (constructor, node)."""
    cases = {"int": ("12", 12), "bool": ("yes", True), "null": ("~", None), "float": ("1.5", 1.5)}
    for name, (value, expected) in cases.items():
        found = scalar_value(ScalarNode(f"tag:yaml.org,2002:{name}", value))
        if found != expected or type(found) is not type(expected):
            raise SeamChanged(
                f"the safe constructor gives {found!r} for !!{name} {value!r}, not {expected!r}"
            )


def _libyaml_words() -> None:
    """LibYAML's problem texts translated by the loader (its _PYYAML_WORDS) are the ones it gives, so an
    error reads the same with either parser."""
    for text in ("a: b: c\n", "a:\n\tb: 1\n") if yamlload.LIBYAML else ():
        worded = [_problem_of(yamlload.FastLoader, text), _problem_of(BoundedLoader, text)]
        if worded[0] is None or worded[0] != worded[1]:
            raise SeamChanged(f"LibYAML and PyYAML word the error in {text!r} differently: {worded}")


ASSUMPTIONS: tuple[Assumption, ...] = tuple(
    Assumption.of(check)
    for check in (
        _libyaml_parser,
        _depth_bound,
        _events_compose_one_at_a_time,
        _non_printable,
        _scalar_constructors,
        _libyaml_words,
    )
)


def versions() -> str:
    return installed(LIBRARY)
