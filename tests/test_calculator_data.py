"""The calculator's data block: the catalogs' texts as JSON that no catalog string can break out of."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from support import copy_project

from rulesdoc.i18n.markup import json_for_script
from rulesdoc.i18n.translate import catalog_path
from rulesdoc.io.project import Project
from rulesdoc.pages.calculator import PlainMessages
from rulesdoc.pages.render import Workspace


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


def _reference(value: Any) -> str:
    """The same JSON written one value at a time, each string escaped alone: slow, plainly right."""
    if isinstance(value, dict):
        return "{" + ",".join(f"{_reference(str(k))}:{_reference(v)}" for k, v in sorted(value.items())) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_reference(item) for item in value) + "]"
    if isinstance(value, str):
        encoded = json.dumps(value, ensure_ascii=False)
        return re.sub("[<>&%{}\u2028\u2029]", lambda m: f"\\u{ord(m.group(0)):04x}", encoded)
    return json.dumps(value)


# Strings drawn from what breaks JSON or a script element, among any text.
_TRICKY = st.text(alphabet=st.sampled_from('"\\{}<>&%/\u2028\u2029\n\x00é अ') | st.characters(), max_size=12)
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | _TRICKY,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TRICKY, inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=2 * settings.default.max_examples)
@given(_VALUES)
def test_the_data_block_is_the_reference_writing_of_any_value(value: Any) -> None:
    text = json_for_script(value)
    expected = _reference(value)
    while "}}" in expected:
        expected = expected.replace("}}", "} }")
    assert text == expected
    assert json.loads(text) == value
    for unsafe in ("<", ">", "&", "{{", "}}", "{%", "%", "\u2028", "\u2029"):
        assert unsafe not in text


def _data(page_text: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="rd-calc-data">(.*?)</script>', page_text)
    assert found, "no calculator data block on the scoring page"
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def test_the_page_carries_the_catalogs_texts_and_marks_a_missing_one(tmp_path: Path) -> None:
    root = copy_project(tmp_path / "project", rules=None)
    catalog = catalog_path(root / "locales", "da")
    text = catalog.read_text("utf-8")
    assert 'msgstr "Har åbnet"' in text
    catalog.write_text(text.replace('msgstr "Har åbnet"', 'msgstr ""'), "utf-8")
    workspace = Workspace.load(Project.at(root))
    results = workspace.render(workspace.languages)
    danish = results["da"]
    page = next(p for p in danish.pages if p.name == "scoring.md")
    data = _data(page.text)
    assert data["lang"] == "da" and data["dir"] == "ltr"
    # Translated texts as the translators wrote them; the one missing comes as English, to be
    # marked lang="en" by the script, and is reported as a miss of the partial's line.
    assert data["messages"]["players"] == "Antal spillere"
    assert data["messages"]["opened"] == {"en": "Has opened"}
    missed = {miss.key: miss.where for miss in danish.missed}
    where = missed[("Has opened", None)]
    assert where is not None and where.path.endswith("templates/_calculator.j2")
    # Card names are the chips' names ("hjerter konge"), with their grammar.
    # In the deck's order, each card's look once per suit (and the joker's).
    cards = dict(data["cards"])
    assert cards["KH"] == "hjerter konge"
    assert [code for code, _ in data["cards"]][:2] == ["AC", "2C"] and len(cards) == 53
    assert data["suits"] == {"C": ["♣", "black"], "D": ["♦", "red"], "H": ["♥", "red"], "S": ["♠", "black"],
                             "JK": ["★", "joker"]}  # fmt: skip
    # A sentence naming seats: one text per number of seats, one to all players but one, each in
    # the plural form of its number (the partial counts them with a range).
    forms = data["messages"]["sentences"]["never_opened"]
    assert len(forms) == data["rules"]["players"]["max"] - 1
    one = "Spilleren, der har åbnet, får point for sin hånd."
    several = "De spillere, der har åbnet, får point for deres hånd."
    assert data["messages"]["sentences"]["hand_value"] == [one] + [several] * (len(forms) - 1)
    assert data["rules"]["never_opened"] == {"surcharge": 25, "cap": 100, "cap_target_fraction": 0.5}
    # Danish numbers: "." groups thousands, from four digits.
    assert data["numbers"] == {"group": ".", "primary": 3, "secondary": 3, "grouping_from": 4, "zero": 48}


def test_a_project_without_the_partial_has_no_calculator(tmp_path: Path) -> None:
    root = copy_project(tmp_path / "project", rules=None)
    (root / "templates" / "_calculator.j2").unlink()
    workspace = Workspace.load(Project.at(root))
    english = workspace.render(workspace.languages[:1])["en"]
    page = next(p for p in english.pages if p.name == "scoring.md")
    assert "rd-calc" not in page.text


class _Numbered:
    """A translator that answers a plural message with the number it was asked for."""

    def plain_marked(
        self, message: str, context: str | None = None, plural: str | None = None, n: int | None = None
    ) -> tuple[str, bool]:
        return f"{message} #{n}", n == 3  # the third one as an English fallback


def test_a_plural_counted_by_a_range_is_one_text_per_number_and_by_a_number_one_text() -> None:
    plain = PlainMessages(_Numbered())  # type: ignore[arg-type]
    assert plain.ngettext("a seat", "seats", range(2, 5)) == ["a seat #2", {"en": "a seat #3"}, "a seat #4"]
    assert plain.npgettext("ctx", "a seat", "seats", range(2, 2)) == []
    assert plain.ngettext("a seat", "seats", 4) == "a seat #4"


def test_the_engine_builds_a_stand_in_and_a_page_written_out_holds_the_data(tmp_path: Path) -> None:
    """The data block is not Markdown: the engine builds its stand-in, swapped back as each page
    is finished (tests/test_site.py, the built pages); a page written out for any engine holds it."""
    from markupsafe import Markup

    from rulesdoc.pages.render import LanguageResult, RenderedPage
    from rulesdoc.site.languages import LanguageSite, engine_pages

    root = copy_project(tmp_path / "project", rules=None)
    workspace = Workspace.load(Project.at(root))
    danish = workspace.render([lang for lang in workspace.languages if lang.code == "da"])["da"]
    assert danish.calculator is not None
    pages, data = engine_pages(danish)
    assert data is not None and data[1] == danish.calculator
    stand_in = data[0]
    scoring = dict(pages)["scoring.md"]
    assert danish.calculator not in scoring and scoring.count(stand_in) == 1
    assert stand_in.replace("-", "").isalnum(), "Markdown and the theme pass it as it is"
    site = LanguageSite(danish.language, Markup("Rami"), None, None, pages, data)  # type: ignore[arg-type]
    assert [site.page_as_written(text) for _, text in pages] == [page.text for page in danish.pages]
    # A page that holds the stand-in's text already: another stand-in, and that text is left alone.
    taken = RenderedPage("da", "x.md", f"{stand_in} {danish.calculator}")
    pages, data = engine_pages(LanguageResult(danish.language, (taken,), calculator=danish.calculator))
    assert data is not None and data[0] != stand_in and pages[0][1] == f"{stand_in} {data[0]}"
    # No calculator, or none on the pages: the pages as they are.
    plain = RenderedPage("da", "index.md", "# Rami\n")
    assert engine_pages(LanguageResult(danish.language, (plain,), calculator=danish.calculator)) == (
        (("index.md", "# Rami\n"),),
        None,
    )
