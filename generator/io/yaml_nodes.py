"""What every YAML input (rules.yaml, score input) checks of a composed node, naming its line.

Nodes come from the one loader, :mod:`rulesdoc.io.yamlload`; these use PyYAML's public node
classes only.
"""

from __future__ import annotations

import difflib
import re

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from rulesdoc.errors import short
from rulesdoc.io.yamlload import Source

# A plain integer as YAML 1.2 and JSON write it. YAML 1.1 (PyYAML) reads 024 as 20, 0x14 and
# 0o24 as 20, 1:20 as 80 (base 60) and 2_0 as 20, where a YAML 1.2 editor reads 24 or a string.
DECIMAL = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
# A whole number written with a decimal point (20.0, as a JSON writer may): the JSON Schema's
# "integer" accepts it, and so does the loader.
WHOLE_FLOAT = re.compile(r"[-+]?(?:0|[1-9][0-9]*)\.0*")
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


def as_integer(value: object, node: Node, source: Source, what: str) -> object:
    """A scalar's constructed value as YAML 1.2 reads its text: ``20.0`` is 20; an integer that
    YAML 1.1 and 1.2 read differently (``024``, ``0x14``, ``1:20``, ``2_0``) is refused, in every
    YAML file rulesdoc reads (rules.yaml, score input, check.yaml). Other values are returned as given."""
    if not isinstance(node, ScalarNode):
        return value
    if isinstance(value, float) and WHOLE_FLOAT.fullmatch(node.value):
        return int(value)
    if (
        isinstance(value, int)
        and not isinstance(value, bool)
        and not node.style
        and not DECIMAL.fullmatch(node.value)
        and not WHOLE_FLOAT.fullmatch(node.value)
    ):
        raise source.error(
            node,
            f"{what}: write {short(node.value)!r} as a plain decimal number ({short(str(value))}?); "
            "YAML 1.1 and YAML 1.2 tools read it differently",
        )
    return value
