"""The ``score`` input, read one round at a time: any number of rounds in bounded memory.

``yaml.compose`` builds the whole document as nodes before anything can be read from it:
about 10 kB per round, 1 GB for 100 000 rounds. Here PyYAML's event API walks to the rounds;
each round alone is composed into nodes, read by :func:`rulesdoc.spec.rules.parse_round` and
handed on, and its nodes are dropped before the next one is read. Errors keep their line:
they are the same one-line errors, from the same node readers, as when the input is read whole.

The events come from the one bounded YAML loader (:mod:`rulesdoc.io.yamlload`: LibYAML where
PyYAML has it, about 15 times faster than PyYAML's own parser); its syntax errors are translated
there, never found by reading the text again. The input itself is read whole (its size is
bounded: :data:`rulesdoc.io.files.MAX_SCORE_INPUT_BYTES`), so that an error can name its line.
What this needs of PyYAML's composer (its anchors, one node composed at a time) is
:class:`rulesdoc.io.yamlload.EventReader`'s: the PyYAML seam.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO, Literal

import yaml
from yaml.events import (
    MappingEndEvent,
    MappingStartEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from rulesdoc.engine.model import Round
from rulesdoc.errors import Location, RulesdocError, display_path
from rulesdoc.io import files
from rulesdoc.io.yaml_nodes import check_tag, mapping, sequence
from rulesdoc.io.yamlload import EventReader, Source, yaml_error

# The reader of rules.py (from the table of fields), so that a round read here fails with the same words.
from rulesdoc.spec.rules import parse_round

Form = Literal["round", "list", "game"]
STDIN = "<stdin>"
# Rounds in one input: a game ends in a few dozen, a batch for an app's tests needs hundreds. With
# the byte limit, it bounds the time (`- *round` repeats a round of 108 cards in 5 bytes): at both
# bounds `score` takes under 10 s on two cores (manual/publishing.md, "Untrusted input").
MAX_ROUNDS = 5_000
_STR = "tag:yaml.org,2002:str"


def read_input(file: str, limit: int = files.MAX_SCORE_INPUT_BYTES) -> tuple[str, str]:
    """The text of a file, or of standard input for ``-``, and the name errors give it."""
    if file != "-":
        return files.read_text(Path(file), limit, None, "input", utf8_bom=True), display_path(file)
    if sys.stdin is None:  # started with standard input closed (`<&-`)
        raise RulesdocError("standard input is closed; give a file, or pipe the rounds in", Location(STDIN))
    return files.decode_utf8(read_bounded(sys.stdin.buffer, limit), STDIN, utf8_bom=True), STDIN


def read_bounded(stream: BinaryIO, limit: int) -> bytes:
    """At most ``limit`` bytes; a stream going on past them is refused, not read to its end."""
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise RulesdocError(f"input is over the limit of {limit:,} bytes; give fewer rounds", Location(STDIN))
    return data


class RoundStream:
    """The rounds of one ``score`` input, in order, each with its location.

    ``form`` is known before the first round is read: ``"round"`` (one round, a mapping),
    ``"list"`` (a list of rounds) or ``"game"`` (``{rounds: [...]}``). Iterate once.
    """

    def __init__(self, text: str, path: str) -> None:
        self.text = text
        self.source = Source(path)
        try:
            self._reader = EventReader(text)
        except yaml.YAMLError as error:  # a control character: no loader to dispose of
            raise yaml_error(error, text, self.source) from None
        try:
            self.form, self._root, self._composed = self._open()
        except yaml.YAMLError as error:
            self._reader.dispose()
            raise self._error(error) from None

    def __iter__(self) -> Iterator[tuple[Round, Location]]:
        try:
            yield from self._rounds()
        except yaml.YAMLError as error:
            raise self._error(error) from None
        finally:
            self._reader.dispose()

    def _error(self, error: yaml.YAMLError) -> RulesdocError:
        return yaml_error(error, self.text, self.source)

    # ------------------------------------------------------------ walking the events

    def _open(self) -> tuple[Form, Node, list[Node] | None]:
        """Read up to the first round: the form, the root node, and the rounds if composed already.

        Only a list of rounds and a game whose first key is ``rounds`` are streamed; anything
        else is small (one round) or refused (a game with other keys), and is composed whole
        and read exactly as before, so its errors do not change.
        """
        reader = self._reader
        reader.next()  # the stream's start
        if reader.check(StreamEndEvent):
            raise RulesdocError("no round in the input", Location(self.source.path))
        reader.next()  # the document's start
        if reader.check(SequenceStartEvent):
            return "list", reader.start(SequenceNode), None
        if reader.check(MappingStartEvent):
            root = reader.start(MappingNode)
            if not reader.check(MappingEndEvent):
                key = reader.compose(root, None)
                if self._is_rounds(key) and reader.check(SequenceStartEvent):
                    check_tag(root, self.source)  # `mapping` checks it at the end: too late
                    rounds = reader.start(SequenceNode)
                    sequence(rounds, self.source, "rounds")  # its tag
                    root.value.append((key, rounds))  # kept empty: its rounds are dropped once read
                    return "game", root, None
                root.value.append((key, reader.compose(root, key)))
            reader.finish(root, MappingNode)
        else:  # a single value or an alias: parse_round says what is wrong with it
            root = reader.compose(None, None)
        reader.end_document(root)
        if isinstance(root, MappingNode) and any(self._is_rounds(key, plain=False) for key, _ in root.value):
            fields = mapping(root, self.source, "the game", ("rounds",))
            return "game", root, sequence(fields["rounds"], self.source, "rounds")
        return "round", root, [root]

    def _rounds(self) -> Iterator[tuple[Round, Location]]:
        count = 0
        if self._composed is not None:
            for count, node in enumerate(self._composed, 1):
                yield self._read(node, count)
        else:
            reader, root = self._reader, self._root
            rounds = root if self.form == "list" else root.value[0][1]
            while not reader.check(SequenceEndEvent):
                count += 1
                yield self._read(reader.compose(rounds, count - 1), count)
            reader.finish(rounds, SequenceNode)
            if self.form == "game":
                reader.finish(root, MappingNode)  # the keys after `rounds`, composed to be refused
                mapping(root, self.source, "the game", ("rounds",))
            reader.end_document(root)
        if count == 0:
            raise self.source.error(self._root, "no round in the input")

    def _read(self, node: Node, number: int) -> tuple[Round, Location]:
        if number > MAX_ROUNDS:
            raise self.source.error(
                node, f"round {number:,}: at most {MAX_ROUNDS:,} rounds in one input; score them in parts"
            )
        return parse_round(node, self.source, f"round {number}"), self.source.at(node)

    @staticmethod
    def _is_rounds(key: Node, plain: bool = True) -> bool:
        return key.value == "rounds" and (not plain or (isinstance(key, ScalarNode) and key.tag == _STR))
