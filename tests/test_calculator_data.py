"""The calculator's data block: JSON that no catalog string can break out of."""

from __future__ import annotations

import json

from generator.i18n.markup import json_for_script


def test_a_catalog_string_cannot_end_the_script_element() -> None:
    hostile = {"messages": {"heading": "</script><script>alert(1)</script><!-- %(x)s {{ y }} & >"}}
    text = json_for_script(hostile)
    # Not one "<" survives as itself: no "</script>", no "<!--"; JSON.parse reads the escapes back.
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == hostile


def test_no_template_leftover_the_page_check_looks_for() -> None:
    text = json_for_script({"a": {"b": {"c": "%(seats)s {{ x }} {% y %}"}}})
    for leftover in ("{{", "}}", "{%", "%}", "%("):
        assert leftover not in text
    assert json.loads(text) == {"a": {"b": {"c": "%(seats)s {{ x }} {% y %}"}}}


def test_keys_sorted_for_identical_rebuilds() -> None:
    assert json_for_script({"b": 1, "a": [True, None, "x"]}) == '{"a":[true,null,"x"],"b":1}'
