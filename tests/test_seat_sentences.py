"""Sentences that name seats: one seat and several are different messages, and a seat inside a
sentence is its own message ("seat in a sentence"), so each language adds its article or its
possessive: Portuguese "O Adversário 1 e o Adversário 2 pagam…", Malay "di tangannya" for one
seat but "di tangan mereka" for two (Malay has one plural form: ngettext alone could not)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from test_value_grid import GRID

from rulesdoc.io.project import Project
from rulesdoc.pages.render import Workspace

# The value grid's rounds: "four-players-one-never-opened" names one seat (the fixed cap),
# "two-closed" two (both over the fixed cap); their titles are the page's headings.
EXPECTED = {
    "pt": (
        "O Adversário 2 paga o teto fixo, porque o valor da sua mão mais o suplemento o ultrapassa.",
        "O Adversário 1 e o Adversário 2 pagam cada um o teto fixo, porque o valor da mão de cada um"
        " mais o suplemento o ultrapassa.",
    ),
    "ms": (
        "Lawan 2 dikenakan had tetap kerana nilai kad di tangannya ditambah mata tambahan melebihi had itu.",
        "Lawan 1 dan Lawan 2 masing-masing dikenakan had tetap kerana nilai kad di tangan mereka ditambah"
        " mata tambahan melebihi had itu.",
    ),
    "en": (
        "Opponent 2 pays the fixed cap: their hand value plus the surcharge is more than that.",
        "Opponent 1 and Opponent 2 each pay the fixed cap: their hand value plus the surcharge is more than that.",
    ),
    "da": (
        "Modstander 2 har ikke åbnet og får det faste loft, fordi håndens værdi plus tillægget er højere.",
        "Modstander 1 og Modstander 2 har ikke åbnet og får hver det faste loft, fordi deres håndværdi plus"
        " tillægget er højere.",
    ),
    "hi": (
        "प्रतिद्वंद्वी 2 ने संयोजन नहीं उतारे, और उसके हाथ के पत्तों का मूल्य और अतिरिक्त दंड मिलकर तय सीमा से"
        " अधिक हैं: उसके खाते में तय सीमा के बराबर अंक जुड़ते हैं।",
        "प्रतिद्वंद्वी 1 और प्रतिद्वंद्वी 2 ने संयोजन नहीं उतारे, और हर एक के हाथ के पत्तों का मूल्य और अतिरिक्त"
        " दंड मिलकर तय सीमा से अधिक हैं: हर एक के खाते में तय सीमा के बराबर अंक जुड़ते हैं।",
    ),
    "nl": (
        "Tegenstander 2 heeft niet geopend en krijgt het maximum: de vaste begrenzing, want zijn handwaarde"
        " plus de toeslag is hoger.",
        "Tegenstander 1 en Tegenstander 2 hebben niet geopend en krijgen elk het maximum: de vaste"
        " begrenzing, want hun handwaarde plus de toeslag is hoger.",
    ),
}


@pytest.fixture(scope="module")
def pages(seed_root: Path) -> dict[str, str]:
    workspace = dataclasses.replace(
        Workspace.load(Project.at(seed_root)), names=("scoring.md.j2",), rules=GRID["seed"]
    )
    chosen = [language for language in workspace.languages if language.code in EXPECTED]
    return {code: result.pages[0].text for code, result in workspace.render(chosen).items()}


@pytest.mark.parametrize("code", sorted(EXPECTED))
def test_one_seat_and_two_seats_read_right(pages: dict[str, str], code: str) -> None:
    one, two = EXPECTED[code]
    assert one in pages[code]
    assert two in pages[code]
