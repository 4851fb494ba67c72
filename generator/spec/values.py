"""Read one YAML node as the table of fields (:mod:`rulesdoc.spec.fields`) declares it.

The loader's value checks, derived from each field's kind: type, bounds, pattern, default,
and which keys a mapping takes. Every error is one line naming the file and the node's line.
Only YAML's plain tags are ever constructed (``!!python/...`` and friends are refused first).
"""

from __future__ import annotations

import difflib
import math
import re
from fractions import Fraction

import yaml
from yaml.nodes import Node, ScalarNode, SequenceNode

from rulesdoc.engine.cards import Card, parse_card
from rulesdoc.errors import CONTROL_CHARACTERS, RulesdocError, short
from rulesdoc.io.yaml_nodes import as_integer, check_tag, mapping
from rulesdoc.io.yamlload import Source, scalar_value
from rulesdoc.spec.fields import MAX_VALUE, Boolean, Choice, Integer, Number, Section, Text


def keys(node: Node, source: Source, what: str, section: Section) -> dict[str, Node]:
    """A mapping's value nodes by key: the section's keys and no other, its required ones all there."""
    return mapping(node, source, what, section.required, section.optional)


def scalar(node: Node, source: Source, what: str) -> object:
    check_tag(node, source)
    if not isinstance(node, ScalarNode):
        kind = "a list" if isinstance(node, SequenceNode) else "a mapping"
        raise source.error(node, f"{what} must be a single value, not {kind}")
    try:
        return scalar_value(node)
    except (yaml.YAMLError, ValueError, KeyError, TypeError, OverflowError):
        # An explicit tag the value does not fit (``!!int two``), or more digits than Python reads.
        shown = repr(short(node.value, 40))
        if re.fullmatch(r"[-+]?[0-9_]+", node.value):
            raise source.error(node, f"{what}: {shown} ({len(node.value)} digits) is too large") from None
        kind = node.tag.rsplit(":", 1)[-1]
        raise source.error(node, f"{what}: {shown} is not a valid {kind}") from None


def integer(kind: Integer, node: Node, source: Source, what: str) -> int | None:
    """A whole number in the kind's bounds; None for ``null`` where the kind is nullable."""
    value = scalar(node, source, what)
    if value is None and kind.nullable:
        return None
    value = as_integer(value, node, source, what)
    if isinstance(value, bool) or not isinstance(value, int):
        raise source.error(node, f"{what} must be a whole number, not {short(node.value)!r}")
    if value < kind.minimum:
        bound = "positive" if kind.minimum == 1 else f"at least {kind.minimum}"
        raise source.error(node, f"{what} must be {bound}, not {value}")
    if value > MAX_VALUE:
        raise source.error(node, f"{what}: {value} is too large; at most {MAX_VALUE}")
    if value > kind.maximum and kind.over:
        raise source.error(node, f"{what} is {value}; {kind.over}")
    return value


def number(kind: Number, node: Node, source: Source, what: str) -> int | float:
    """A finite number in the kind's bounds, as written (compared exactly, as a decimal fraction)."""
    value = scalar(node, source, what)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise source.error(node, f"{what} must be a number, not {short(node.value)!r}")
    if not math.isfinite(value):
        raise source.error(node, f"{what} must be a finite number, not {short(node.value)!r}")
    if not kind.exclusive_minimum < Fraction(str(value)) <= kind.maximum:
        raise source.error(
            node, f"{what} must be above {kind.exclusive_minimum} and at most {kind.maximum}, not {value}"
        )
    return value


def boolean(kind: Boolean, node: Node | None, source: Source, what: str) -> bool:
    """true or false; the kind's default where the key is absent (``node`` None)."""
    if node is None:
        return kind.default
    value = scalar(node, source, what)
    if not isinstance(value, bool):
        raise source.error(node, f"{what} must be true or false, not {short(node.value)!r}")
    return value


def text(kind: Text, node: Node, source: Source, what: str) -> str:
    """Non-empty text, its runs of whitespace made one space, matching the kind's pattern."""
    value = scalar(node, source, what)
    if not isinstance(value, str) or not value.strip():
        raise source.error(node, f"{what} must be non-empty text")
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in value):
        raise source.error(node, f"{what} holds a lone surrogate (an escape like \\ud800): not text")
    control = CONTROL_CHARACTERS.search(value)
    if control:  # an escape like "\0" or "\e": it would reach the POT, the pages and the search index
        raise source.error(node, f"{what} holds the control character {control.group()!r}; refused")
    if kind.max_length is not None and len(value) > kind.max_length:
        raise source.error(node, f"{what} is {len(value):,} characters long; at most {kind.max_length:,}")
    spaced = " ".join(value.split())
    if kind.mismatch and (spaced != value or not re.search(kind.pattern, spaced)):
        raise source.error(node, kind.mismatch.format(value=short(spaced)))
    return spaced


def choice(kind: Choice, node: Node, source: Source, what: str) -> str:
    name = text(Text(), node, source, what)
    if name not in kind.values:
        close = difflib.get_close_matches(name, kind.values, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else f"; expected one of: {', '.join(kind.values)}"
        raise source.error(node, f"unknown {kind.noun} {short(name)!r}{hint}")
    return name


def card(node: Node, source: Source) -> Card:
    code = scalar(node, source, "a card")
    if isinstance(code, str) and code != code.strip():  # the schema's pattern has no spaces either
        raise source.error(node, f"unknown card {short(code)!r}: no spaces around a card")
    try:
        return parse_card(str(code))
    except RulesdocError as error:
        raise source.error(node, error.message) from None
