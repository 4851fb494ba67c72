"""The JSON Schema of rules.yaml (generator/spec/schema.py) against the loader (generator/spec/rules.py).

Both are derived from one table of the fields (generator/spec/fields.py); these tests check
what each does with real input, so a reader that stops following the table is caught.

The schema must accept rules.yaml, refuse every schema-level case of the bad-input corpus, and
agree with the loader value by value at every bound. Cases that need two values at once, or
that fail before there is any data, are listed below with the reason no JSON Schema sees them.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from fractions import Fraction
from typing import Any

import jsonschema
import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st
from support import ROOT

from rulesdoc.engine.cards import ALL_CARDS, parse_card
from rulesdoc.engine.scoring import check_example_illustrates
from rulesdoc.errors import RulesdocError
from rulesdoc.spec.fields import EXAMPLE_ID_PATTERN, MAX_VALUE, card_pattern
from rulesdoc.spec.rules import load_rules, parse_rules
from rulesdoc.spec.schema import DIALECT, rules_schema, schema_text

BAD_RULES = ROOT / "tests" / "bad_inputs" / "rules"
RULES_SECTIONS = ("players", "card_values", "melds", "hand_rummy", "never_opened", "target")
BASE = (ROOT / "tests" / "fixtures" / "rules" / "base.yaml").read_text("utf-8")
VALIDATOR = jsonschema.Draft202012Validator(rules_schema())

# Not schema-level: the loader refuses these, a JSON Schema cannot.
BEFORE_ANY_DATA = {  # YAML that never becomes data: nothing for a schema to validate
    "tab-indent.yaml": "YAML syntax error",
    "unclosed-bracket.yaml": "YAML syntax error",
    "unclosed-quote.yaml": "YAML syntax error",
    "undefined-alias.yaml": "YAML syntax error",
    "nul-character.yaml": "a control character YAML refuses",
    "latin1.yaml": "not UTF-8 text",
    "utf16-bom.yaml": "UTF-16, its byte order mark named before any text is read",
    "utf32-bom.yaml": "UTF-32, its byte order mark named before any text is read",
    "custom-tag.yaml": "a YAML tag: refused before any value is built",
    "python-module.yaml": "a YAML tag: refused before any value is built",
    "python-name.yaml": "a YAML tag: refused before any value is built",
    "python-object-new.yaml": "a YAML tag: refused before any value is built",
    "python-os-system.yaml": "a YAML tag: refused before any value is built",
    "bad-explicit-int.yaml": "!!int two: the tag and the text disagree before any value exists",
    "huge-number.yaml": "5000 digits: beyond Python's integer parsing, before any value exists",
    "deep-nesting.yaml": "600 levels deep: past the loader's bound (and the stack of a recursive one)",
}
BEYOND_A_SCHEMA = {  # data a schema accepts: the fault is between values, or in their meaning
    "duplicate-key.yaml": "a duplicate key: YAML keeps the last one, the data has no trace of the first",
    "duplicate-section.yaml": "a duplicate key: YAML keeps the last one, the data has no trace of the first",
    "fraction-nan.yaml": "NaN has no JSON form and compares false with every bound",
    "min-above-max.yaml": "players.min against players.max: two values",
    "example-duplicate-id.yaml": "ids unique among the examples: uniqueItems compares whole examples",
    "example-seat-out-of-range.yaml": "went_out against the number of hands: two values",
    "example-three-copies.yaml": "two decks' limit: counts cards across hands",
    "example-five-jokers.yaml": "two decks' limit: counts cards across hands",
    "example-winner-holds-cards.yaml": "the seat named by went_out must hold nothing: two values",
    "example-hand-rummy-opened.yaml": "hand rummy against the opponents' opened: several values",
    "example-hand-rummy-blocked.yaml": "hand rummy against a missing went_out: two values",
    "example-contradicted.yaml": "the rule an example illustrates is decided by the engine",
    "lone-surrogate-title.yaml": "a lone surrogate: a JSON string may hold one, UTF-8 text cannot",
    "share-cap-zero.yaml": "the target share, rounded down: per_opponent x (players.min - 1) x fraction",
}


def load(text: str) -> Any:
    return yaml.safe_load(text)


def schema_accepts(data: Any) -> bool:
    return VALIDATOR.is_valid(data)


def share_is_zero(data: Any) -> bool:
    """The target share with the fewest players rounds down to 0: the loader refuses it, a
    schema cannot (it is a product of three values)."""
    per_opponent = data["target"]["per_opponent"]
    fraction = data["never_opened"]["cap_target_fraction"]
    if (
        not all(type(v) in (int, float) for v in (per_opponent, fraction))
        or per_opponent < 1
        or not 0 < fraction <= 1
    ):
        return False  # a value the schema refuses on its own
    return bool(per_opponent * (data["players"]["min"] - 1) * Fraction(str(fraction)) < 1)


def loader_accepts(text: str) -> bool:
    """What load_rules decides, for text: the values, then every example scored."""
    try:
        check_example_illustrates(parse_rules(text))
    except RulesdocError:
        return False
    return True


# ---------------------------------------------------------------- the schema itself


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    schema = rules_schema()
    assert schema["$schema"] == DIALECT == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


def test_every_property_is_described_and_closed() -> None:
    """Editors show the descriptions; additionalProperties false catches misspelled keys."""

    def walk(node: dict[str, Any], where: str) -> None:
        if node.get("type") == "object":
            assert node.get("additionalProperties") is False, where
            for name, child in node["properties"].items():
                assert child.get("description"), f"{where}.{name} has no description"
                walk(child, f"{where}.{name}")
        if "items" in node:
            walk(node["items"], f"{where}[]")

    walk(rules_schema(), "rules")


def test_required_keys_are_the_loaders() -> None:
    schema = rules_schema()
    assert schema["required"] == ["players", "card_values", "melds", "hand_rummy", "never_opened", "target"]
    example = schema["properties"]["examples"]["items"]
    assert example["required"] == ["id", "title", "situation"]
    assert example["properties"]["situation"]["required"] == ["hands"]


@pytest.mark.slow
def test_the_text_is_the_same_bytes_in_any_process() -> None:
    """Published bytes must not hang on set or hash order: two interpreters with other hash seeds."""
    code = "import sys; from rulesdoc.spec.schema import schema_text; sys.stdout.write(schema_text())"
    texts = {
        subprocess.run(
            [sys.executable, "-c", code], env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True, text=True, check=True, timeout=120,
        ).stdout
        for seed in ("1", "2")
    }  # fmt: skip
    assert texts == {schema_text()}
    assert schema_text() == json.dumps(json.loads(schema_text()), ensure_ascii=False, indent=2) + "\n"


# ---------------------------------------------------------------- rules.yaml and the corpus


def test_rules_yaml_is_valid_and_names_the_schema_on_its_first_line() -> None:
    text = (ROOT / "rules.yaml").read_text("utf-8")
    VALIDATOR.validate(load(text))
    first = text.splitlines()[0]
    # The path `make export` writes (rulesdoc export --out build/export), relative to rules.yaml.
    assert first == "# yaml-language-server: $schema=build/export/rules.schema.json"


def test_every_bad_rules_file_is_classified() -> None:
    files = {path.name for path in BAD_RULES.glob("*.yaml")}
    listed = BEFORE_ANY_DATA.keys() | BEYOND_A_SCHEMA.keys()
    assert listed <= files, f"listed but missing: {sorted(listed - files)}"
    assert len(files - listed) >= 25  # the schema-level cases


@pytest.mark.parametrize("name", sorted(p.name for p in BAD_RULES.glob("*.yaml")))
def test_the_schema_refuses_every_schema_level_bad_input(name: str) -> None:
    with pytest.raises(RulesdocError):  # the corpus holds only what the loader refuses
        load_rules(BAD_RULES / name)
    data = (BAD_RULES / name).read_bytes()
    if name in BEFORE_ANY_DATA:
        with pytest.raises((yaml.YAMLError, UnicodeDecodeError, ValueError, RecursionError)):
            load(data.decode("utf-8"))
        return
    parsed = load(data.decode("utf-8"))
    if name in BEYOND_A_SCHEMA:
        assert schema_accepts(parsed), f"{name}: the schema refuses it now; move it out of BEYOND_A_SCHEMA"
    else:
        assert not schema_accepts(parsed), f"{name}: the schema accepts what the loader refuses"


# ---------------------------------------------------------------- the keys of every mapping

UNKNOWN = "qqqqqqqq"  # close to no key: the loader lists every key it takes
EXAMPLE_WITH = """examples:
  - id: an-example
    title: A title{example}
    situation:
      hands:
        - cards: []{hand}
        - cards: [5H]
      went_out: 0{situation}
"""


def with_unknown_key(where: str) -> str:
    """The base rules (with one example) with the key UNKNOWN added to the mapping at ``where``."""
    at = {name: "" for name in ("example", "hand", "situation")}
    if where in at:
        indent = {"example": 4, "hand": 10, "situation": 6}[where]
        at[where] = f"\n{' ' * indent}{UNKNOWN}: 1"
    text = BASE + EXAMPLE_WITH.format(**at)
    if where == "the rules":
        return text + f"{UNKNOWN}: 1\n"
    if where not in at:
        text, count = re.subn(rf"^{where}:\n", rf"{where}:\n  {UNKNOWN}: 1\n", text, flags=re.M)
        assert count == 1, where
    return text


SCHEMA_OBJECTS = {
    "the rules": lambda schema: schema,
    **{section: (lambda s, name=section: s["properties"][name]) for section in RULES_SECTIONS},
    "example": lambda schema: schema["properties"]["examples"]["items"],
    "situation": lambda schema: schema["properties"]["examples"]["items"]["properties"]["situation"],
    "hand": lambda schema: schema["properties"]["examples"]["items"]["properties"]["situation"]["properties"][
        "hands"
    ]["items"],
}


@pytest.mark.parametrize("where", SCHEMA_OBJECTS)
def test_every_mapping_takes_the_schemas_keys_and_no_other(where: str) -> None:
    """The loader's list of a mapping's keys (required first) is the schema's, mapping by mapping."""
    parse_rules(BASE + EXAMPLE_WITH.format(example="", hand="", situation=""))  # the text without it is good
    with pytest.raises(RulesdocError) as error:
        parse_rules(with_unknown_key(where))
    message = str(error.value)
    assert f"unknown key {UNKNOWN!r}" in message, message
    taken = message.split("; expected one of: ")[1].split(", ")
    schema = SCHEMA_OBJECTS[where](rules_schema())
    required = schema["required"]
    assert taken == required + [key for key in schema["properties"] if key not in required]


# ---------------------------------------------------------------- value by value, at every bound


def with_value(key: str, value: str) -> str:
    """The base rules with one ``section.key`` set to ``value`` (YAML text)."""
    section, name = key.split(".")
    pattern = re.compile(rf"(^{section}:\n(?:  .*\n)*?  {name}: )[^\n]*", re.M)
    text, count = pattern.subn(lambda m: m.group(1) + value, BASE)
    assert count == 1, key
    return text


INTEGER_KEYS = (
    "card_values.joker",
    "card_values.ace",
    "card_values.face",
    "melds.ace_low",
    "hand_rummy.penalty",
    "never_opened.surcharge",
    "never_opened.cap",
    "target.per_opponent",
)


@pytest.mark.parametrize("key", INTEGER_KEYS)
@pytest.mark.parametrize(
    "value", ["-1", "0", "1", "10000000", "10000001", "10000000000", "2.5", "true", "'7'"]
)
def test_loader_and_schema_agree_on_integers(key: str, value: str) -> None:
    text = with_value(key, value)
    data = load(text)
    assert schema_accepts(data) == (loader_accepts(text) or share_is_zero(data)), f"{key}: {value}"


def test_the_integer_bound_is_the_loaders() -> None:
    assert MAX_VALUE == 10_000_000
    assert loader_accepts(with_value("card_values.joker", str(MAX_VALUE)))
    with pytest.raises(RulesdocError) as error:
        parse_rules(with_value("card_values.joker", "10000000000"))
    assert str(error.value) == "rules.yaml:5: card_values.joker: 10000000000 is too large; at most 10000000"


@pytest.mark.parametrize(
    ("low", "high"), [(1, 2), (2, 2), (2, 8), (8, 8), (2, 9), (0, 6), (3, 2), (2, 1000000001)]
)
def test_loader_and_schema_agree_on_player_counts(low: int, high: int) -> None:
    text = with_value("players.max", str(high)).replace("  min: 2", f"  min: {low}")
    expected = loader_accepts(text) or low > high  # min > max is the one check a schema cannot make
    assert schema_accepts(load(text)) == expected


@pytest.mark.parametrize("value", ["0", "-0.5", "0.0001", "0.5", "1", "1.0", "1.0001", "2", ".inf", "'half'"])
def test_loader_and_schema_agree_on_the_fraction(value: str) -> None:
    text = with_value("never_opened.cap_target_fraction", value)
    data = load(text)
    assert schema_accepts(data) == (loader_accepts(text) or share_is_zero(data)), value


def test_20_0_is_an_integer_to_the_schema_and_the_loader() -> None:
    """JSON Schema counts 20.0 as an integer (JSON has one number type); so does the loader (issue 21)."""
    text = with_value("card_values.joker", "20.0")
    assert schema_accepts(load(text)) and loader_accepts(text)
    assert parse_rules(text).card_values.joker == 20


# ---------------------------------------------------------------- card codes and example ids


def test_every_card_in_either_case_matches_the_pattern() -> None:
    pattern = re.compile(card_pattern())
    for card in ALL_CARDS:
        for code in (card.code, card.code.lower(), card.code[:-1] + card.code[-1].lower()):
            assert pattern.search(code), code
    for wrong in ("1H", "11H", "AX", "A", "H", "JKR", "10", "AH ", "ÅH", "Aſ", "1O", ""):
        assert not pattern.search(wrong), wrong


@given(st.text(alphabet="AaJjKkQqCcDdHhSs0123456789ſXß", max_size=4))
def test_the_card_pattern_is_parse_cards_syntax(code: str) -> None:
    try:
        parse_card(code)
        parsed = True
    except RulesdocError:
        parsed = False
    assert bool(re.search(card_pattern(), code)) == parsed, repr(code)


def loader_accepts_id(example_id: str) -> bool:
    """What parse_rules decides of an example with this id (quoted: the text is the id as is)."""
    example = (
        f"examples:\n  - id: {json.dumps(example_id)}\n    title: T\n"
        "    situation: {hands: [{cards: []}, {cards: [5H]}], went_out: 0}\n"
    )
    try:
        parse_rules(BASE + example)
    except RulesdocError:
        return False
    return True


@given(st.text(alphabet="az09-_A. ", max_size=8))
def test_the_id_pattern_is_the_loaders(example_id: str) -> None:
    assert bool(re.search(EXAMPLE_ID_PATTERN, example_id)) == loader_accepts_id(example_id), repr(example_id)


def test_a_situation_is_checked_hand_by_hand() -> None:
    rules = load(BASE)
    hand = {"cards": ["AH", "10s", "jk"], "opened": False}
    ok = {"id": "x", "title": "T", "situation": {"hands": [{"cards": []}, hand], "went_out": 0}}
    assert schema_accepts({**rules, "examples": [ok]})
    blocked = {**ok, "situation": {"hands": [hand, hand], "went_out": None}}
    assert schema_accepts({**rules, "examples": [blocked]})
    for broken in (
        {**ok, "id": "Ace Joker"},
        {**ok, "title": "   "},
        {**ok, "illustrates": "hand_rumy"},
        {**ok, "situation": {"hands": [{"cards": []}, {"cards": ["AH"], "open": True}], "went_out": 0}},
        {**ok, "situation": {"hands": [{"cards": []}] * 9, "went_out": 0}},
        {**ok, "situation": {"hands": [{"cards": []}, hand], "went_out": 0, "hand_rummy": "yes"}},
    ):
        assert not schema_accepts({**rules, "examples": [broken]}), broken


def test_an_absent_key_reads_as_the_schemas_default() -> None:
    """Editors show the schema's default; the loader reads an absent key as that same value."""
    rules = parse_rules(BASE + EXAMPLE_WITH.format(example="", hand="", situation=""))
    situation = rules.examples[0].situation
    schema = SCHEMA_OBJECTS["situation"](rules_schema())
    hand = SCHEMA_OBJECTS["hand"](rules_schema())
    assert situation.hand_rummy is schema["properties"]["hand_rummy"]["default"] is False
    assert situation.hands[1].opened is hand["properties"]["opened"]["default"] is True
