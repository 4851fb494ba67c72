"""What the pages must show, computed from the sources: rules.yaml, the engine and the catalogs."""

from __future__ import annotations

import dataclasses
import functools

import yaml
from support import ROOT

from rulesdoc.engine import scoring as engine
from rulesdoc.engine.cards import parse_card
from rulesdoc.engine.model import CardValues, Reason, Rules
from rulesdoc.i18n.translate import (
    CARD_CONTEXT,
    SOURCE_LANGUAGE,
    Language,
    discover_languages,
    english_card_name,
)
from rulesdoc.localedata.cldr import Formatter
from rulesdoc.spec.rules import load_rules

LOCALES = ROOT / "locales"


@functools.cache
def rules() -> Rules:
    return load_rules(ROOT / "rules.yaml")


@functools.cache
def languages() -> dict[str, Language]:
    return {language.code: language for language in discover_languages(LOCALES)}


def formatter(code: str) -> Formatter:
    return Formatter(languages()[code].locale)


def page_url(site_url: str, code: str, page: str = "scoring.html") -> str:
    return site_url + ("" if code == SOURCE_LANGUAGE else f"{code}/") + page


def page_path(code: str, page: str = "scoring.html") -> str:
    return "/" + ("" if code == SOURCE_LANGUAGE else f"{code}/") + page


# ---------------------------------------------------------------- tables


@dataclasses.dataclass(frozen=True)
class TableShape:
    rows: int  # the header row included
    cells: int  # in every row


def table_shapes() -> list[TableShape]:
    """The scoring page's three tables, in page order: card values, worked examples, targets."""
    card_rows = len(dataclasses.fields(CardValues)) + 1  # each valued card, then "two to ten"
    return [
        TableShape(1 + card_rows, 2),
        TableShape(1 + len(rules().examples), 3),
        TableShape(1 + len(rules().player_counts), 2),
    ]


def card_values(code: str) -> list[str]:
    """The points column of the card values table, but its last row (a phrase, not a number)."""
    values = rules().card_values
    return [formatter(code).number(n) for n in (values.joker, values.ace, values.face)]


def targets(code: str) -> list[tuple[str, str]]:
    """(players, target) per row of the target table, formatted for the language."""
    fmt = formatter(code)
    return [(fmt.number(n), fmt.number(engine.target(rules(), n))) for n in rules().player_counts]


def round_points(code: str) -> list[list[str]]:
    """Every example's round points as the engine scores them: the winner first, then seat order."""
    fmt = formatter(code)
    shown = []
    for example in rules().examples:
        players = engine.score_round(rules(), example.situation).players
        ordered = [p for p in players if p.reason is Reason.WINNER]
        ordered += [p for p in players if p.reason is not Reason.WINNER]
        shown.append([fmt.number(p.score) for p in ordered])
    return shown


# ---------------------------------------------------------------- words


def card_name(code: str, card_code: str) -> tuple[str, str]:
    """(the name the page must give a card, its English name), from the catalog itself."""
    english = english_card_name(parse_card(card_code))
    language = languages()[code]
    if language.catalog is None:
        return english, english
    message = language.catalog.catalog.get(english, context=CARD_CONTEXT)
    assert message is not None and message.string and not message.fuzzy, (
        f"{language.catalog.shown}: no translation of card name {english!r}"
    )
    return str(message.string), english


def glossary_term(code: str, concept: str) -> str:
    """The language's word for a concept: the first form in its glossary (English: the shared one)."""
    path = LOCALES / "glossary.yaml" if code == SOURCE_LANGUAGE else LOCALES / code / "glossary.yaml"
    forms = yaml.safe_load(path.read_text("utf-8"))[concept]
    return str(forms[0])
