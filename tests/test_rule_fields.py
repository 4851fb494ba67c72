"""The table of fields (generator/spec/fields.py) is the one source of the rule values: the
loader builds the model from it and the export writes the model back through it."""

from __future__ import annotations

import dataclasses
import typing

import yaml
from support import SEED_RULES

from rulesdoc.engine.model import Rules
from rulesdoc.spec.fields import rule_values
from rulesdoc.spec.rules import parse_rules
from rulesdoc.spec.rules_data import rule_values as exported_values


def test_every_value_of_the_model_is_one_field_of_the_table() -> None:
    hints = typing.get_type_hints(Rules)
    expected = set()
    for field in dataclasses.fields(Rules):
        if field.name in {"examples", "source"}:
            continue
        part = hints[field.name]
        if dataclasses.is_dataclass(part):
            expected |= {f"{field.name}.{inner.name}" for inner in dataclasses.fields(part)}
        else:
            expected.add(field.name)
    attributes = [field.attribute for _, field in rule_values()]
    assert sorted(attributes) == sorted(expected)  # each once, none left out


def test_the_export_writes_back_what_the_file_says() -> None:
    text = (
        SEED_RULES.read_text(encoding="utf-8")
        .replace("joker: 20", "joker: 31")
        .replace("cap_target_fraction: 0.5", "cap_target_fraction: 0.3")
    )
    written = yaml.safe_load(text)
    exported = exported_values(parse_rules(text), with_examples=False)
    assert exported == {section: written[section] for section in exported}
    assert exported["card_values"]["joker"] == 31 and exported["never_opened"]["cap_target_fraction"] == 0.3
    assert list(exported) == ["players", "card_values", "melds", "hand_rummy", "never_opened", "target"]
