"""What every YAML input (rules.yaml, score input) checks of a composed node, naming its line.

Nodes come from the one loader, :mod:`generator.io.yamlload`; these use PyYAML's public node
classes only.
"""

from __future__ import annotations

import difflib

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from generator.errors import short
from generator.io.yamlload import Source

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
