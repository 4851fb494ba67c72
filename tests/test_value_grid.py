"""Every sentence true for every value, in every language: the scoring page over a grid of values.

Each value of the seed rules (tests/fixtures/rules/seed.yaml) at its lowest allowed, its seed
value and a high one, the cap fractions 0.2, 0.4, 0.5 and 1, ace_low 1 and 2, an ace worth no
more than ace_low, a joker worth 1, odd targets (whose share the engine rounds down), caps equal
at some player counts, and a few combinations; besides the seed examples, a blocked round won
by a tie and rounds where one or two of several opponents pay the target share. The pages are
rendered in-process (no MkDocs) and checked for what a reader would catch: a lost caption, a
claim the values contradict, "and" where "or" is meant, "1 points", a placeholder left over, a
number that comes from nowhere.

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
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from support import PUBLISHED, SEED_RULES
from support.running_text import assert_counts_are_words

from rulesdoc.catalog.po import load
from rulesdoc.engine import scoring as engine
from rulesdoc.engine.cards import parse_card
from rulesdoc.engine.model import CardValues, Example, Hand, Round, Rules
from rulesdoc.i18n.translate import Language, Translator
from rulesdoc.io.project import Project
from rulesdoc.localedata.cldr import Formatter
from rulesdoc.pages.render import Workspace
from rulesdoc.spec.rules import load_rules

SEED = load_rules(SEED_RULES)
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
    # The loader refuses a target share of 0 (a never-opened loser would pay nothing).
    assert math.floor(per_opponent * (low - 1) * fraction) >= 1, "rules the loader refuses"
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


# More situations, so every rule gets said somewhere: a blocked round, one won by a tie, a
# never-opened loser under the cap, and two never-opened opponents of three over it (77 + 25).
# Their titles are headings of the page, already in every catalog.
BIG = "KH KS QD QC JH JS 9D 8C"
EXTRA_EXAMPLES = (
    Example("blocked", "The blocked round", Round((hand("2C 3D"), hand("4H"), hand("KS QS", False)), None)),
    Example("tie", "Three special cases", Round((hand("2C 3D"), hand("5H"), hand("KS QS", False)), None)),
    Example("closed", "The player who never opened", Round((hand(""), hand("2C", False), hand("3D")), 0)),
    Example(
        "two-closed",
        "The end of the game",
        Round((hand(""), hand(BIG, False), hand("KD KC QH QS JD JC 9H 8D", False)), 0),
    ),
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
    "per opponent 2": grid_rules(per_opponent=2),  # the lowest the loader takes: a share of 1
    "per opponent 75": grid_rules(per_opponent=75),  # half of 75 is rounded down; 150 is not
    "per opponent 75, fraction 0.4": grid_rules(per_opponent=75, fraction=Fraction(2, 5)),  # 30, 60, 90...
    "per opponent 75, cap 1000000": grid_rules(per_opponent=75, cap=1_000_000),
    "cap 50": grid_rules(cap=50),  # equal with two players, the fixed one is lower with more
    "cap 150": grid_rules(cap=150),  # the share is lower with 2 or 3, equal with 4
    "cap 300, 4 to 8 players": grid_rules(cap=300, players=(4, 8)),  # equal with 7, nothing lower
    "fraction 1, per opponent 50, cap 1000000": grid_rules(
        fraction=Fraction(1), per_opponent=50, cap=1_000_000
    ),
    "per opponent 2500": grid_rules(per_opponent=2500),
    "two players only": grid_rules(players=(2, 2)),
    "2 to 8 players": grid_rules(players=(2, 8)),
    "4 to 8 players": grid_rules(players=(4, 8)),
    "all lowest": grid_rules(1, 1, 1, 1, 1, 1, 1, Fraction(1, 5), 5, (2, 2)),
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
EQUAL = "With %(players)s players, both caps are equal."
EQUAL_THEN_FIXED = (
    "With %(players)s players, both caps are equal; with more players, the fixed cap is the lower one."
)
ROUNDING = "A share of the target that is not a whole number of points is rounded down."
BLOCKED_ONE = "Nobody went out: the player with the lowest hand value wins the blocked round and scores zero."
BLOCKED_TIE = (
    "Nobody went out: the players tied for the lowest hand value all win the blocked round and score zero."
)
# Who pays the target share, by (whole target, half, rounded down): one seat ("%(seat)s pays"),
# several ("%(seats)s each pay", a plural message over how many they are) are different messages.
SHARE_PAID = {
    (True, False, False): "%(seat)s pays the target",
    (False, True, False): "%(seat)s pays half the target",
    (False, True, True): "%(seat)s pays half the target, rounded down",
    (False, False, False): "%(seat)s pays %(share)s of the target",
    (False, False, True): "%(seat)s pays %(share)s of the target, rounded down",
}
MORE = ": their hand value plus the surcharge is more than that."
NEVER_OPENED = "%(seat)s pays their hand value plus the surcharge."
FIXED_CAP = "%(seat)s pays the fixed cap: their hand value plus the surcharge is more than that."


def several(msgid: str) -> str:
    """The message that names several seats: "%(seats)s each pay…" (singular and plural msgid alike)."""
    return msgid.replace("%(seat)s pays", "%(seats)s each pay")


def who_pays(translate: Translator, msgid: str, names: list[str], fmt: Formatter, **values: str) -> str:
    """The sentence naming the seats that pay: one seat's message or the several seats' one,
    the seats in a list, the first letter a capital (the sentence may start with an article)."""
    if len(names) == 1:
        sentence = translate.gettext(msgid) % {"seat": names[0], **values}
    else:
        plural = several(msgid)
        sentence = translate.ngettext(plural, plural, len(names)) % {"seats": fmt.list(names), **values}
    return sentence[:1].upper() + sentence[1:]


CAPPED_AT = {  # the arithmetic under a seat that pays the share, by (whole, half, rounded down)
    (True, False, False): "%(sum)s, capped at %(cap)s (the target)",
    (False, True, False): "%(sum)s, capped at %(cap)s (half the target)",
    (False, True, True): "%(sum)s, capped at %(cap)s (half the target, rounded down)",
    (False, False, False): "%(sum)s, capped at %(cap)s (%(share)s of the target)",
    (False, False, True): "%(sum)s, capped at %(cap)s (%(share)s of the target, rounded down)",
}
KIND_NAMES = {"JK": "the joker", "A": "the ace"} | {
    str(pips): f"the {word}"
    for pips, word in enumerate(("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"), 2)
}
PLACEHOLDER = re.compile(r"%\(|%%|\{\{|\}\}|\{%|%\}")
NUMBER = re.compile(r"\d+(?:[.,\u00a0\u202f]\d+)*")


@pytest.fixture(scope="module")
def renderer(seed_root: Path) -> Workspace:
    return dataclasses.replace(Workspace.load(Project.at(seed_root)), names=("scoring.md.j2",))


@pytest.fixture(scope="module")
def languages(renderer: Workspace) -> list[Language]:
    return renderer.languages


@pytest.fixture(scope="module")
def template(seed_root: Path) -> Catalog:
    """messages.pot: which messages say a number of players."""
    return load(seed_root / "locales" / "messages.pot").catalog


def scoring_page(renderer: Workspace, rules: Rules, language: Language) -> str:
    """The scoring page under other rules; every message it uses must be translated."""
    result = dataclasses.replace(renderer, rules=rules).render([language])[language.code]
    assert result.error is None and not result.missed, (result.error, result.missed)
    (page,) = result.pages
    return page.text


# Each point renders the scoring page in every language (2-5 s under load): the seed values stay
# in `make test-fast`, the rest of the grid is slow.
@pytest.mark.parametrize(
    "name", [name if name == "seed" else pytest.param(name, marks=pytest.mark.slow) for name in GRID]
)
def test_every_language_tells_the_truth(
    name: str, renderer: Workspace, languages: list[Language], template: Catalog
) -> None:
    rules = GRID[name]
    assert sorted(language.code for language in languages) == sorted(PUBLISHED)
    for language in languages:
        page = scoring_page(renderer, rules, language)
        translate = Translator.load(language)
        # Lists end as the catalog says (its "list of alternatives" message), as the page joins them.
        fmt = Formatter(language.locale, list_ends=translate.list_ends())
        where = f"{name}, {language.code}"
        assert_every_table_has_its_caption(page, where)
        assert not PLACEHOLDER.search(page), f"{where}: a placeholder is left: {PLACEHOLDER.search(page)}"
        assert_counts_are_plural(page, language.code, where)
        assert_notes_hold(page, rules, translate, where)
        assert_lower_cap_sentence(page, rules, translate, fmt, where)
        assert_dear_cards_are_dear(page, rules, translate, where)
        assert_blocked_winners(page, rules, translate, where)
        assert_share_payers_named(page, rules, translate, fmt, where)
        assert_rounding_said(page, rules, translate, fmt, where)
        assert_numbers_come_from_the_rules(page, rules, fmt, where)
        assert_counts_are_words(page, rules, translate, fmt, template, where)


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


def says(text: str, translate: Translator, msgid: str, plural: str = "", **known: str) -> bool:
    """Whether the text holds a message's translation (any plural form), whatever fills its
    placeholders but the ``known`` ones. The sentence starts at a word; its first letter may
    have been capitalised."""
    forms = {translate.ngettext(msgid, plural, n) for n in (1, 2, 5, 21, 1_000_000)} if plural else set()
    for form in forms or {translate.gettext(msgid)}:
        for name, value in known.items():
            form = form.replace(f"%({name})s", value)
        parts = [re.escape(part) for part in re.split(r"%\(\w+\)s", form)]
        first = parts[0][:1]
        if first.isalpha():
            parts[0] = f"[{first.lower()}{first.upper()}]{parts[0][1:]}"
        if re.search(_sentence(parts), text, re.MULTILINE):
            return True
    return False


def _sentence(parts: list[str]) -> str:
    r"""``(?<!\w)a.+?b.+?c``, as fast as the page is long: the same matches, found without trying
    every later ``b`` again, nor every start, where a text does not say it (a second a page).

    The earliest ``b`` after ``a`` leaves the most room for what follows, so each ``.+?b`` is an
    atomic group; and where the sentence starts with a placeholder (``a`` empty) the earliest
    start, its line's, is the one to try. ``.`` stops at a line end: no part may span lines."""
    if any("\n" in part for part in parts):  # re.escape keeps a line end a line end
        return r"(?<!\w)" + ".+?".join(parts)
    start = "^" if parts[0] == "" else r"(?<!\w)" + parts[0]
    return start + "".join(f"(?>.+?{part})" for part in parts[1:])


def assert_notes_hold(page: str, rules: Rules, translate: Translator, where: str) -> None:
    values = rules.card_values
    ace = values.ace > rules.ace_low  # laid low in a sequence, an ace is worth ace_low
    joker = values.joker > max(values.ace, values.face, 10)  # laid down, it counts as its card
    expected = NOTE_BOTH if ace and joker else NOTE_ACE if ace else NOTE_JOKER if joker else None
    for note in (NOTE_BOTH, NOTE_ACE, NOTE_JOKER):
        assert (translate.gettext(note) in page) == (note == expected), f"{where}: {note!r}"


# The source's words for the player counts the rules allow (two decks deal at most eight).
COUNT_WORDS = dict(enumerate(("two", "three", "four", "five", "six", "seven", "eight"), 2))


def count_words(translate: Translator, counts: list[int]) -> list[str]:
    """Player counts as a sentence says them: each in its catalog's word ("to", "dua")."""
    return [translate.pgettext("player count", COUNT_WORDS[n]) for n in counts]


def equal_counts(rules: Rules) -> list[int]:
    """Player counts where the target share equals the fixed cap."""
    return [
        players
        for players in range(rules.players_min, rules.players_max + 1)
        if math.floor(rules.target_per_opponent * (players - 1) * rules.cap_target_fraction)
        == rules.never_opened_cap
    ]


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
    equal = equal_counts(rules)
    every = list(range(rules.players_min, rules.players_max + 1))
    fixed = [n for n in every if n not in counts and n not in equal]
    sentences = {
        ONLY_TWO: counts == [2],
        EVERY_COUNT: counts == every and len(every) > 1,
        SOME_COUNTS: bool(counts) and counts != [2] and not (counts == every and len(every) > 1),
        # Never "the fixed cap is the lower one" where both are equal.
        NO_COUNT: not counts and not equal,
        EQUAL_THEN_FIXED: not counts and bool(equal) and bool(fixed),
        EQUAL: bool(equal) and not (not counts and fixed),
    }
    assert sum(sentences[m] for m in (ONLY_TWO, EVERY_COUNT, SOME_COUNTS, NO_COUNT, EQUAL_THEN_FIXED)) <= 1
    for msgid, expected in sentences.items():
        # EQUAL is the start of EQUAL_THEN_FIXED: look for it as a sentence of its own.
        found = (
            says(page, translate, msgid)
            if msgid != EQUAL
            else translate.gettext(EQUAL) % {"players": fmt.list(count_words(translate, equal), style="or")}
            in page.splitlines()
        )
        assert found == expected, f"{where}: {msgid!r} for share counts {counts}, equal {equal}"
    if equal:
        numbers = fmt.list(count_words(translate, equal), style="or")
        msgid = EQUAL_THEN_FIXED if sentences[EQUAL_THEN_FIXED] else EQUAL
        assert translate.gettext(msgid) % {"players": numbers} in page, f"{where}: equal at {equal}"
    if sentences[SOME_COUNTS]:
        numbers = count_words(translate, counts)
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
    text = re.sub(r"<script\b.*?</script>", " ", page, flags=re.S)  # data, not text (the calculator's)
    text = re.sub(r"<[^>]+>", " ", text)  # attributes (data-card="5C") are not read
    stray = sorted(set(NUMBER.findall(text)) - shown)
    assert not stray, f"{where}: numbers that are no value of the rules nor engine result: {stray}"


def assert_blocked_winners(page: str, rules: Rules, translate: Translator, where: str) -> None:
    """A blocked round says one winner, or all the tied ones, as the hands decide."""
    said = dict(example_explanations(page))
    for example in rules.examples:
        situation = example.situation
        if situation.went_out is not None:
            continue
        values = [sum(engine.card_value(rules, card) for card in h.cards) for h in situation.hands]
        tied = values.count(min(values)) > 1
        text = said[translate.gettext(example.title)]
        assert (translate.gettext(BLOCKED_TIE) in text) == tied, f"{where}: {example.id}: {text!r}"
        assert (translate.gettext(BLOCKED_ONE) in text) == (not tied), f"{where}: {example.id}: {text!r}"


def share_words(rules: Rules, players: int) -> tuple[bool, bool, bool]:
    """(the whole target, half of it, rounded down) for the share at this player count."""
    fraction = rules.cap_target_fraction
    exact = rules.target_per_opponent * (players - 1) * fraction
    return fraction == 1, fraction == HALF, exact.denominator != 1


SEAT = "seat in a sentence"  # a seat's name inside a sentence, with the article its language puts there


def seat_names(situation: Round, seats: list[int], translate: Translator) -> list[str]:
    """How the page names seats: opponents numbered from 1 after the winner, in a blocked
    round players by seat."""
    out = situation.went_out
    if out is None:
        return [translate.pgettext(SEAT, "Player %(number)s") % {"number": seat + 1} for seat in seats]
    opponents = [seat for seat in range(situation.players) if seat != out]
    return [
        translate.pgettext(SEAT, "Opponent %(number)s") % {"number": opponents.index(seat) + 1}
        for seat in seats
    ]


def assert_share_payers_named(
    page: str, rules: Rules, translate: Translator, fmt: Formatter, where: str
) -> None:
    """The never-opened losers are named, each in the sentence of the rule that decided their
    score; the share in words that fit its value ("the target", "half the target", "40 %"),
    "rounded down" exactly when it is not whole."""
    said = dict(example_explanations(page))
    share = fmt.percent(rules.cap_target_fraction)
    for example in rules.examples:
        situation = example.situation
        players = situation.players
        values = [sum(engine.card_value(rules, card) for card in h.cards) for h in situation.hands]
        blocked = situation.went_out is None
        target_share = math.floor(rules.target_per_opponent * (players - 1) * rules.cap_target_fraction)
        never_opened = [
            seat
            for seat, (h, value) in enumerate(zip(situation.hands, values, strict=True))
            if not (seat == situation.went_out or (blocked and value == min(values)))  # a winner
            and not h.opened
            and not situation.hand_rummy
        ]
        cap = min(target_share, rules.never_opened_cap)  # equal: the fixed cap is named
        over = [seat for seat in never_opened if values[seat] + rules.never_opened_surcharge > cap]
        payers = over if target_share < rules.never_opened_cap else []
        fixed = [] if payers else over
        text = said[translate.gettext(example.title)]
        for seats, msgid in (([s for s in never_opened if s not in over], NEVER_OPENED), (fixed, FIXED_CAP)):
            if seats:
                sentence = who_pays(translate, msgid, seat_names(situation, seats, translate), fmt)
                assert sentence in text, f"{where}: {example.id}: {msgid!r}: {sentence!r} not in {text!r}"
            else:
                assert not says(text, translate, msgid), f"{where}: {example.id}: {msgid!r}"
                assert not says(text, translate, several(msgid), several(msgid)), f"{where}: {example.id}"
        words = share_words(rules, players)
        for key, start in SHARE_PAID.items():
            if key != words or not payers:
                assert not says(text, translate, start + MORE, share=share), (
                    f"{where}: {example.id}: {text!r}"
                )
                plural = several(start + MORE)
                assert not says(text, translate, plural, plural, share=share), (
                    f"{where}: {example.id}: {text!r}"
                )
                continue
            sentence = who_pays(
                translate, start + MORE, seat_names(situation, payers, translate), fmt, share=share
            )
            assert sentence in text, f"{where}: {example.id}: {sentence!r} not in {text!r}"
        row = next(
            line for line in page.splitlines() if line.startswith(f"| **{translate.gettext(example.title)}**")
        )
        for key, msgid in CAPPED_AT.items():
            expected = bool(payers) and key == words
            assert says(row, translate, msgid, share=share) == expected, f"{where}: {example.id}: {msgid!r}"


def assert_rounding_said(page: str, rules: Rules, translate: Translator, fmt: Formatter, where: str) -> None:
    rounds = any(share_words(rules, n)[2] for n in rules.player_counts)
    assert (translate.gettext(ROUNDING) in page) == rounds, f"{where}: rounding said: {not rounds}"
    if rules.cap_target_fraction == 1:  # "the target", never "100 % of the target"
        share = fmt.percent(rules.cap_target_fraction)
        assert not says(
            page, translate, "%(sum)s, capped at %(cap)s (%(share)s of the target)", share=share
        ), where
