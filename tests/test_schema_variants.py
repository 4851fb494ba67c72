"""Issue 21 item 11: the JSON Schema (generator/spec/schema.py) and the loader (generator/spec/rules.py) agree.

Each variant is the base rules with one change, read by both: the loader (``parse_rules`` and
the examples scored) and the schema (on the data ``yaml.safe_load`` gives, as an editor's YAML
plugin validates it). They must agree, except where the fault is in the YAML text itself,
which a schema never sees (duplicate keys, merge keys, integers YAML 1.1 and 1.2 read
differently): there the loader refuses with a clear message, listed in :data:`SYNTAX_ONLY`.
Expectations are written by hand, not taken from either side.
"""

from __future__ import annotations

import pytest
from test_schema import BASE, load, loader_accepts, schema_accepts, with_value

from rulesdoc.errors import RulesdocError
from rulesdoc.spec.fields import MAX_VALUE
from rulesdoc.spec.rules import parse_rules

EXAMPLE = """examples:
  - id: {id}
    title: {title}
    situation:
      hands:
        - cards: []
        - cards: [{cards}]
      went_out: {went_out}
"""


def with_example(
    id: str = "an-example", title: str = "A title", cards: str = "5H", went_out: str = "0"
) -> str:
    return BASE + EXAMPLE.format(id=id, title=title, cards=cards, went_out=went_out)


# (name, text, accepted): accepted by both, by hand.
VARIANTS: list[tuple[str, str, bool]] = [
    ("base", BASE, True),
    ("base-with-example", with_example(), True),
    # integers
    *[
        (f"joker={v}", with_value("card_values.joker", v), ok)
        for v, ok in [
            ("20", True),
            ("1", True),
            ("0", False),
            ("-5", False),
            (str(MAX_VALUE), True),
            (str(MAX_VALUE + 1), False),
            ("20.0", True),
            ("20.5", False),
            ("2.0e1", False),
            ("true", False),
            ("'20'", False),
            ('"20"', False),
            ("null", False),
            ("~", False),
            ("[20]", False),
            ("{a: 1}", False),
            ("+20", True),
            (".inf", False),
            (".nan", False),
            ("1e3", False),
        ]
    ],
    *[
        (f"ace={v}", with_value("card_values.ace", v), ok)
        for v, ok in [("11", True), ("11.0", True), ("0.0", False)]
    ],
    *[
        (f"players.max={v}", with_value("players.max", v), ok)
        for v, ok in [
            ("2", True),
            ("8", True),
            ("9", False),
            ("6.0", True),
            ("1", False),
        ]
    ],
    *[
        (f"fraction={v}", with_value("never_opened.cap_target_fraction", v), ok)
        for v, ok in [
            ("0.5", True),
            ("1", True),
            ("1.0", True),
            ("0", False),
            ("0.0", False),
            ("1.5", False),
            ("-0.5", False),
            ("'0.5'", False),
            ("true", False),
            ("0.01", True),
        ]
    ],
    # example ids and titles
    *[
        (f"id={v}", with_example(id=v), ok)
        for v, ok in [
            ("a", True),
            ("a-b-2", True),
            ("'a b'", False),
            ("' a'", False),
            ("'a '", False),
            ("A", False),
            ("a--b", False),
            ("-a", False),
            ("'a_b'", False),
            ("'1'", True),
            ("1", False),
            ("''", False),
        ]
    ],
    *[
        (f"title={v}", with_example(title=v), ok)
        for v, ok in [
            ("x", True),
            ("'  x  '", True),
            ("''", False),
            ("'   '", False),
            ("42", False),
            ("true", False),
            ("[a]", False),
            ("'Ünïcödé'", True),
        ]
    ],
    # cards
    *[
        (f"cards={v}", with_example(cards=v), ok)
        for v, ok in [
            ("5H", True),
            ("5h", True),
            ("10s", True),
            ("JK", True),
            ("jk", True),
            ("'5H'", True),
            ("' 5H'", False),
            ("'5H '", False),
            ("5X", False),
            ("1H", False),
            ("11H", False),
            ("5", False),
            ("'ſH'", False),
            ("5H, 5H", True),
            ("5H, QS", True),
        ]
    ],
    # went_out
    *[
        (f"went_out={v}", with_example(went_out=v), ok)
        for v, ok in [
            ("0", True),
            ("8", False),
            ("0.0", True),
            ("-1", False),
            ("'0'", False),
            ("true", False),
        ]
    ],
    # keys
    ("unknown-top-key", BASE + "extra: 1\n", False),
    ("unknown-section-key", BASE.replace("  ace: 11\n", "  ace: 11\n  two: 2\n"), False),
    ("missing-section", BASE.replace("melds:\n  ace_low: 1\n", ""), False),
    ("missing-key", BASE.replace("  face: 10\n", ""), False),
    ("section-a-list", BASE.replace("melds:\n  ace_low: 1\n", "melds: [1]\n"), False),
    ("root-a-list", "- 1\n", False),
    ("empty", "", False),
    ("examples-empty", BASE + "examples: []\n", True),
    ("examples-null", BASE + "examples:\n", False),
]

# Faults of the YAML text: the schema sees only the data after them; the loader refuses.
SYNTAX_ONLY: list[tuple[str, str, str]] = [
    ("duplicate-key", BASE.replace("  ace: 11\n", "  ace: 11\n  ace: 12\n"), "duplicate key 'ace'"),
    (
        "merge-key",
        "base: &v {joker: 20, ace: 11, face: 10}\n"
        + BASE.replace("card_values:\n  joker: 20\n  ace: 11\n  face: 10\n", "card_values:\n  <<: *v\n"),
        "unknown key",
    ),
    ("yaml11-octal", with_value("card_values.joker", "024"), "write '024' as a plain decimal number (20?)"),
    ("yaml11-hex", with_value("card_values.joker", "0x14"), "write '0x14' as a plain decimal number (20?)"),
    (
        "yaml11-sexagesimal",
        with_value("card_values.joker", "1:20"),
        "write '1:20' as a plain decimal number (80?)",
    ),
    (
        "yaml11-underscore",
        with_value("card_values.joker", "2_0"),
        "write '2_0' as a plain decimal number (20?)",
    ),
    (
        "yaml11-plus-octal",
        with_value("card_values.joker", "+020"),
        "write '+020' as a plain decimal number (16?)",
    ),
]


def test_there_are_about_eighty_variants() -> None:
    assert len(VARIANTS) + len(SYNTAX_ONLY) >= 80


@pytest.mark.parametrize(("name", "text", "accepted"), VARIANTS, ids=[v[0] for v in VARIANTS])
def test_schema_and_loader_agree(name: str, text: str, accepted: bool) -> None:
    try:
        data = load(text)
    except Exception:  # noqa: BLE001 - text YAML refuses is refused by both
        data = None
    assert loader_accepts(text) == accepted, f"loader on {name}"
    assert schema_accepts(data) == accepted, f"schema on {name}"


@pytest.mark.parametrize(("name", "text", "message"), SYNTAX_ONLY, ids=[v[0] for v in SYNTAX_ONLY])
def test_faults_of_the_yaml_text_are_refused_clearly(name: str, text: str, message: str) -> None:
    with pytest.raises(RulesdocError) as error:
        parse_rules(text)
    assert message in str(error.value)


def test_the_worst_round_stays_below_two_to_the_31() -> None:
    """By hand: target ≤ 7·V; a round ≤ 36 high cards·V + 432 pip points + surcharge V."""
    worst_total = 7 * MAX_VALUE + (37 * MAX_VALUE + 432)
    assert worst_total == 440_000_432
    assert worst_total < 2**31 - 1
