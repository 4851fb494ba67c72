"""The JSON Schema (draft 2020-12) of ``rules.yaml``, derived from the table of its fields.

Editors validate and complete ``rules.yaml`` with it (its first line names it for the YAML
language server), apps read it beside ``rules.json`` in the export bundle, and the site
publishes it as ``rules.schema.json``. Everything in it (keys, types, bounds, patterns,
defaults, descriptions) comes from :mod:`rulesdoc.spec.fields`, the table the loader reads
its checks from too, so the two cannot disagree. What needs two values at once only the
loader checks (its semantic checks): a JSON Schema cannot compare one value with another.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rulesdoc.spec.fields import (
    RULES,
    RULES_DESCRIPTION,
    Boolean,
    CardCode,
    Choice,
    Field,
    Integer,
    ListOf,
    Number,
    Section,
    Text,
    card_pattern,
)

DIALECT = "https://json-schema.org/draft/2020-12/schema"
SCHEMA_FILE = "rules.schema.json"
TITLE = "Rami rules (rulesdoc rules.yaml)"


def _property(field: Field) -> dict[str, Any]:
    """One field's schema: a value's constraints then its description; a collection's
    description before what it holds (the order a reader of the file meets them in)."""
    kind = field.kind
    if isinstance(kind, Section):
        return _object(field.description, kind)
    if isinstance(kind, ListOf):
        bounds = {"minItems": kind.min_items, "maxItems": kind.max_items}
        return {
            "type": "array",
            "description": field.description,
            **{key: value for key, value in bounds.items() if value is not None},
            "items": _property(kind.items),
        }
    return {**_value(kind), "description": field.description}


def _value(kind: Integer | Number | Boolean | Text | Choice | CardCode) -> dict[str, Any]:
    if isinstance(kind, Integer):
        kind_type: str | list[str] = ["integer", "null"] if kind.nullable else "integer"
        return {"type": kind_type, "minimum": kind.minimum, "maximum": kind.maximum}
    if isinstance(kind, Number):
        return {"type": "number", "exclusiveMinimum": kind.exclusive_minimum, "maximum": kind.maximum}
    if isinstance(kind, Boolean):
        return {"type": "boolean", "default": kind.default}
    if isinstance(kind, Text):
        length = {} if kind.max_length is None else {"maxLength": kind.max_length}
        return {"type": "string", "pattern": kind.pattern, **length}
    if isinstance(kind, Choice):
        return {"enum": list(kind.values)}
    return {"type": "string", "pattern": card_pattern()}


def _object(description: str, section: Section) -> dict[str, Any]:
    """A mapping of these keys and no other."""
    return {
        "type": "object",
        "description": description,
        "properties": {field.name: _property(field) for field in section.fields},
        "required": list(section.required),
        "additionalProperties": False,
    }


def rules_schema() -> dict[str, Any]:
    """The schema as a JSON-ready mapping; keys in the order a reader meets them in rules.yaml."""
    return {"$schema": DIALECT, "title": TITLE, **_object(RULES_DESCRIPTION, RULES)}


def schema_text() -> str:
    """The schema as the bundle and the site publish it: stable bytes, one trailing newline."""
    return json.dumps(rules_schema(), ensure_ascii=False, indent=2) + "\n"


def publish_schema(site_dir: Path) -> Path:
    """Write ``rules.schema.json`` at the root of a built site (the MkDocs plugin's hook)."""
    path = site_dir / SCHEMA_FILE
    path.write_text(schema_text(), encoding="utf-8", newline="\n")
    return path
