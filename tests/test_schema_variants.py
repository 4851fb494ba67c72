"""Issue 21 item 11 (part): integers YAML 1.1 and YAML 1.2 read differently are refused by the
loader with a clear message, and the value bound keeps a round's numbers in a 32-bit int.

(The full ~80-variant comparison of schema and loader is not done yet: see the branch's report.)
"""

from __future__ import annotations

import pytest
from test_schema import loader_accepts, with_value

from generator.errors import RulesdocError
from generator.rules import MAX_VALUE, parse_rules


@pytest.mark.parametrize(
    ("written", "pyyaml_reads"),
    [("024", 20), ("0x14", 20), ("1:20", 80), ("2_0", 20), ("+020", 16)],
)
def test_yaml_11_integers_are_refused(written: str, pyyaml_reads: int) -> None:
    with pytest.raises(RulesdocError) as error:
        parse_rules(with_value("card_values.joker", written))
    assert str(error.value) == (
        f"rules.yaml:5: card_values.joker: write {written!r} as a plain decimal number ({pyyaml_reads}?); "
        "YAML 1.1 and YAML 1.2 tools read it differently"
    )


@pytest.mark.parametrize("written", ["20", "0x14_not", "'20'"])
def test_plain_and_quoted_values_are_read_as_before(written: str) -> None:
    """A plain decimal is accepted; a quoted or non-numeric value is refused as it always was."""
    assert loader_accepts(with_value("card_values.joker", written)) == (written == "20")


def test_the_worst_round_stays_below_two_to_the_31() -> None:
    """By hand: target ≤ 7·V; a round ≤ 36 high cards·V + 432 pip points + surcharge V."""
    worst_total = 7 * MAX_VALUE + (37 * MAX_VALUE + 432)
    assert worst_total == 440_000_432
    assert worst_total < 2**31 - 1
