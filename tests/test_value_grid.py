"""Every sentence true for every value, in every language: the scoring page over a grid of values.

Each value of rules.yaml at its lowest allowed, its seed value and a high one, the cap
fractions 0.2, 0.4, 0.5 and 1, ace_low 1 and 2, an ace worth no more than ace_low, a joker
worth 1, and a few combinations. The pages are rendered in-process (no MkDocs) and checked
for what a reader would catch: a lost caption, a claim the values contradict, "and" where
"or" is meant, "1 points", a placeholder left over, a number that comes from nowhere.

Expected decisions are restated here from the rules (a card is dear when it is worth more
than a face card; the target share is the lower cap when it is below the fixed cap), not
taken from the view model under test.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Iterator
from fractions import Fraction

import pytest
from conftest import PUBLISHED, ROOT

from generator import engine
from generator.cards import parse_card
from generator.i18n import Formatter, Language, Translator
from generator.model import CardValues, Example, Hand, Round, Rules
from generator.render import Project, Workspace
from generator.rules import load_rules

SEED = load_rules(ROOT / "rules.yaml")
HALF = Fraction(1, 2)


def grid_rules(
    joker: int = 20,
    ace: int = 11,
    face: int = 10,
    ace_low: int = 1,
    penalty: int = 200,
    surcharge: int = 25,
    cap: int = 100,
    fraction: Fraction = HALF,
    per_opponent: int = 100,
    players: tuple[int, int] = (2, 6),
) -> Rules:
    """The seed rules with some values changed, and examples that stay possible under them."""
    low, high = players
    examples = tuple(
        # `illustrates` may no longer hold under changed values: the grid drops it.
        dataclasses.replace(example, illustrates=None)
        for example in SEED.examples + EXTRA_EXAMPLES
        if low <= example.situation.players <= high
    )
    return dataclasses.replace(
        SEED,
        players_min=low,
        players_max=high,
        card_values=CardValues(joker, ace, face),
        ace_low=ace_low,
        hand_rummy_penalty=penalty,
        never_opened_surcharge=surcharge,
        never_opened_cap=cap,
        cap_target_fraction=fraction,
        target_per_opponent=per_opponent,
        examples=examples,
    )


def hand(codes: str, opened: bool = True) -> Hand:
    return Hand(tuple(parse_card(code) for code in codes.split()), opened)


# Two more situations, so every rule gets said somewhere: a blocked round and a never-opened
# loser under the cap. Their titles are headings of the page, already in every catalog.
EXTRA_EXAMPLES = (
    Example("blocked", "The blocked round", Round((hand("2C 3D"), hand("4H"), hand("KS QS", False)), None)),
    Example("closed", "The player who never opened", Round((hand(""), hand("2C", False), hand("3D")), 0)),
)

GRID = {
    "seed": grid_rules(),
    "joker 1": grid_rules(joker=1),
    "joker 1000000": grid_rules(joker=1_000_000),
    "ace 1": grid_rules(ace=1),  # no more than ace_low
    "ace 2500": grid_rules(ace=2500),
    "face 1": grid_rules(face=1),  # every pip card is dearer than a face card
    "face 2500": grid_rules(face=2500),  # nothing is
    "ace_low 2": grid_rules(ace_low=2),
    "ace 2 = ace_low 2": grid_rules(ace=2, ace_low=2),
    "ace 5 < ace_low 9": grid_rules(ace=5, ace_low=9),
    "penalty 1": grid_rules(penalty=1),
    "penalty 1000000": grid_rules(penalty=1_000_000),
    "surcharge 1": grid_rules(surcharge=1),
    "surcharge 2500": grid_rules(surcharge=2500),
    "cap 1": grid_rules(cap=1),  # the fixed cap is always the lower one
    "cap 1000000": grid_rules(cap=1_000_000),  # the share always is
    "fraction 0.2": grid_rules(fraction=Fraction(1, 5)),
    "fraction 0.4": grid_rules(fraction=Fraction(2, 5)),
    "fraction 1": grid_rules(fraction=Fraction(1)),
    "fraction 0.2, cap 1000000": grid_rules(fraction=Fraction(1, 5), cap=1_000_000),
    "per opponent 1": grid_rules(per_opponent=1),
    "per opponent 2500": grid_rules(per_opponent=2500),
    "two players only": grid_rules(players=(2, 2)),
    "2 to 8 players": grid_rules(players=(2, 8)),
    "4 to 8 players": grid_rules(players=(4, 8)),
    "all lowest": grid_rules(1, 1, 1, 1, 1, 1, 1, Fraction(1, 5), 1, (2, 2)),
    "all high": grid_rules(1_000_000, 2500, 2500, 2, 1_000_000, 2500, 1_000_000, Fraction(1), 2500, (2, 8)),
}

# English source messages the checks look for, in each language's translation.
DEAR_ONE = "%(card)s costs dearly if it stays in hand."
DEAR_MORE = (
    "%(card)s costs dearly if it stays in hand, and so does %(others)s.",
    "%(card)s costs dearly if it stays in hand, and so do %(others)s.",
)
EVERY_OPPONENT = "Every opponent pays the value of the cards left in their hand."
NOTE_BOTH = "Note: in hand, the ace and the joker cost more than when they are laid down."
NOTE_ACE = "Note: in hand, the ace costs more than when it is laid down."
NOTE_JOKER = "Note: in hand, the joker costs more than when it is laid down."
ONLY_TWO = "In a two-player game, this last cap is the one that applies most often."
SOME_COUNTS = "With %(players)s players, this last cap is the lower one."
EVERY_COUNT = "Whatever the number of players, this last cap is the lower one."
NO_COUNT = "Whatever the number of players, the fixed cap is the lower one."
KIND_NAMES = {"JK": "the joker", "A": "the ace"} | {
    str(pips): f"the {word}"
    for pips, word in enumerate(("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"), 2)
}
PLACEHOLDER = re.compile(r"%\(|%%|\{\{|\}\}|\{%|%\}")
NUMBER = re.compile(r"\d+(?:[.,\u00a0\u202f]\d+)*")


@pytest.fixture(scope="module")
def renderer() -> Workspace:
    return dataclasses.replace(Workspace.load(Project.at(ROOT)), names=("scoring.md.j2",))


@pytest.fixture(scope="module")
def languages(renderer: Workspace) -> list[Language]:
    return renderer.languages


def scoring_page(renderer: Workspace, rules: Rules, language: Language) -> str:
    """The scoring page under other rules; every message it uses must be translated."""
    result = dataclasses.replace(renderer, rules=rules).render([language])[language.code]
    assert result.error is None and not result.missed, (result.error, result.missed)
    (page,) = result.pages
    return page.text


@pytest.mark.parametrize("name", GRID)
def test_every_language_tells_the_truth(name: str, renderer: Workspace, languages: list[Language]) -> None:
    rules = GRID[name]
    assert sorted(language.code for language in languages) == sorted(PUBLISHED)
    for language in languages:
        page = scoring_page(renderer, rules, language)
        translate = Translator.load(language)
        fmt = Formatter(language.locale)
        where = f"{name}, {language.code}"
        assert_every_table_has_its_caption(page, where)
        assert not PLACEHOLDER.search(page), f"{where}: a placeholder is left: {PLACEHOLDER.search(page)}"
        assert_counts_are_plural(page, language.code, where)
        assert_notes_hold(page, rules, translate, where)
        assert_lower_cap_sentence(page, rules, translate, fmt, where)
        assert_dear_cards_are_dear(page, rules, translate, where)
        assert_numbers_come_from_the_rules(page, rules, fmt, where)


# ---------------------------------------------------------------- the checks


def assert_every_table_has_its_caption(page: str, where: str) -> None:
    lines = page.splitlines()
    tables = [i for i, line in enumerate(lines) if line.startswith("|") and not lines[i - 1].startswith("|")]
    assert len(tables) == 3, f"{where}: {len(tables)} tables"
    for start in tables:
        end = next(i for i in range(start, len(lines)) if not lines[i].startswith("|"))
        rest = [line for line in lines[end:] if line.strip()]
        assert rest[0] == "/// table-caption" and rest[1].strip() and rest[2] == "///", (
            f"{where}: the table at line {start + 1} has no caption"
        )


# A count of 1 with a plural noun: "1 points" (en), "1 punten" (nl), "1 pontos" (pt).
ONE_WITH_PLURAL = {
    "en": r"1 points",
    "nl": r"1 (?:straf)?punten",
    "pt": r"1 (?:de )?pontos",
}


def assert_counts_are_plural(page: str, code: str, where: str) -> None:
    plural = ONE_WITH_PLURAL.get(code)
    if plural is not None:
        found = re.search(rf"(?<![\d.,\u00a0\u202f]){plural}", page)
        assert found is None, f"{where}: {found and found.group()!r}: a count outside ngettext"


def says(text: str, translate: Translator, msgid: str, plural: str = "") -> bool:
    """Whether the text holds a message's translation (any plural form), whatever fills its
    placeholders. The sentence starts at a word; its first letter may have been capitalised."""
    forms = {translate.ngettext(msgid, plural, n) for n in (1, 2, 5, 21, 1_000_000)} if plural else set()
    for form in forms or {translate.gettext(msgid)}:
        parts = [re.escape(part) for part in re.split(r"%\(\w+\)s", form)]
        first = parts[0][:1]
        if first.isalpha():
            parts[0] = f"[{first.lower()}{first.upper()}]{parts[0][1:]}"
        if re.search(r"(?<!\w)" + ".+?".join(parts), text):
            return True
    return False


def assert_notes_hold(page: str, rules: Rules, translate: Translator, where: str) -> None:
    values = rules.card_values
    ace = values.ace > rules.ace_low  # laid low in a sequence, an ace is worth ace_low
    joker = values.joker > max(values.ace, values.face, 10)  # laid down, it counts as its card
    expected = NOTE_BOTH if ace and joker else NOTE_ACE if ace else NOTE_JOKER if joker else None
    for note in (NOTE_BOTH, NOTE_ACE, NOTE_JOKER):
        assert (translate.gettext(note) in page) == (note == expected), f"{where}: {note!r}"


def share_counts(rules: Rules) -> list[int]:
    """Player counts where half (or the fraction) of the target is below the fixed cap."""
    counts = []
    for players in range(rules.players_min, rules.players_max + 1):
        share = math.floor(rules.target_per_opponent * (players - 1) * rules.cap_target_fraction)
        if share < rules.never_opened_cap:  # equal caps: the fixed one is named
            counts.append(players)
    return counts


def assert_lower_cap_sentence(
    page: str, rules: Rules, translate: Translator, fmt: Formatter, where: str
) -> None:
    counts = share_counts(rules)
    every = list(range(rules.players_min, rules.players_max + 1))
    sentences = {
        ONLY_TWO: counts == [2],
        EVERY_COUNT: counts == every and len(every) > 1,
        SOME_COUNTS: bool(counts) and counts != [2] and not (counts == every and len(every) > 1),
        NO_COUNT: not counts,
    }
    assert sum(sentences.values()) == 1
    for msgid, expected in sentences.items():
        assert says(page, translate, msgid) == expected, f"{where}: {msgid!r} for counts {counts}"
    if sentences[SOME_COUNTS]:
        numbers = [fmt.number(n) for n in counts]
        alternatives = translate.gettext(SOME_COUNTS) % {"players": fmt.list(numbers, style="or")}
        assert alternatives in page, f"{where}: counts {counts} are not alternatives"
        if len(counts) > 1:
            both = translate.gettext(SOME_COUNTS) % {"players": fmt.list(numbers)}
            assert both not in page, f"{where}: counts {counts} joined with 'and'"


def example_explanations(page: str) -> Iterator[tuple[str, str]]:
    """(title, explanation) of each worked example: the first cell, split at its line break."""
    for line in page.splitlines():
        if line.startswith("| **"):
            title, _, text = line.split(" | ")[0].removeprefix("| **").partition("** <br>")
            yield title, text


def assert_dear_cards_are_dear(page: str, rules: Rules, translate: Translator, where: str) -> None:
    first = rules.examples[0] if rules.examples and rules.examples[0].id == "ace-joker-five" else None
    for title, text in example_explanations(page):
        named = {kind for kind, english in KIND_NAMES.items() if names(text, translate, english)}
        # No explanation calls a card dear that is worth no more than a face card.
        for kind in named:
            assert kind_value(rules, kind) > rules.card_values.face, f"{where}: {text!r} calls {kind} dear"
        if first is None or title != translate.gettext(first.title):
            continue
        # The first example (AH JK 5C, paid as it is) names every dear card it holds.
        dear = {kind for kind in ("JK", "A", "5") if kind_value(rules, kind) > rules.card_values.face}
        assert named == dear, f"{where}: {text!r} names {named}, the dear cards are {dear}"
        if not dear:  # nothing dearer than a face card: the plain rule, and nothing else
            assert text == translate.gettext(EVERY_OPPONENT), f"{where}: {text!r}"
        else:
            assert says(text, translate, *((DEAR_ONE,) if len(dear) == 1 else DEAR_MORE)), (
                f"{where}: {text!r}"
            )


def kind_value(rules: Rules, kind: str) -> int:
    if kind == "JK":
        return rules.card_values.joker
    if kind == "A":
        return rules.card_values.ace
    return int(kind)  # two to ten: their pips


def names(text: str, translate: Translator, english: str) -> bool:
    """Whether the text names a kind of card ("the joker", "esset", "as"): a whole word or words."""
    name = re.escape(translate.pgettext("card kind", english))
    return re.search(rf"(?<!\w){name}(?!\w)", text, re.IGNORECASE) is not None


def assert_numbers_come_from_the_rules(page: str, rules: Rules, fmt: Formatter, where: str) -> None:
    values = rules.card_values
    allowed = {values.joker, values.ace, values.face, rules.ace_low, rules.hand_rummy_penalty}
    allowed |= {rules.never_opened_surcharge, rules.never_opened_cap, rules.target_per_opponent}
    for players in rules.player_counts:
        allowed |= {players, engine.target(rules, players)}
    for example in rules.examples:
        allowed |= set(range(1, example.situation.players + 1))  # "Opponent 2", "Player 3"
        for player in engine.score_round(rules, example.situation).players:
            allowed |= {player.score, player.surcharge, player.charged, *player.card_values}
    shown = {fmt.number(n) for n in allowed}
    shown |= set(NUMBER.findall(fmt.percent(rules.cap_target_fraction)))
    text = re.sub(r"<[^>]+>", " ", page)  # attributes (data-card="5C") are not read
    stray = sorted(set(NUMBER.findall(text)) - shown)
    assert not stray, f"{where}: numbers that are no value of the rules nor engine result: {stray}"
