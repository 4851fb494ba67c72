"""Change one value in rules.yaml: every page in every language follows, nothing stale survives.

Each mutation changes one value of the seed rules (tests/fixtures/rules/seed.yaml).

Expected scores are worked out by hand from the rules (comments show the sums);
expected sentences are the catalog's translation of the message the new value
calls for, filled with the new number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import pytest
from support import PUBLISHED, SEED_RULES

from rulesdoc.cli.render_checked import render_all
from rulesdoc.i18n.translate import Translator, discover_languages
from rulesdoc.io.project import Project
from rulesdoc.localedata.cldr import Formatter

# Messages with a plural: (singular, plural, count).
Plural = tuple[str, str, int]
# One seat's sentences (several seats have a message of their own, "%(seats)s each pay…").
HALF = "%(seat)s pays half the target: their hand value plus the surcharge is more than that."
SHARE = "%(seat)s pays %(share)s of the target: their hand value plus the surcharge is more than that."
CAPPED_SHARE = "%(sum)s, capped at %(cap)s (%(share)s of the target)"
DEAR_ONE = "%(card)s costs dearly if it stays in hand."
ONE_POINT = (
    "An ace that was worth only one point at the low end of a sequence costs %(ace)s if it stays in hand."
)
TWO_PLAYER = "In a two-player game, this last cap is the one that applies most often."
DEAR = "%(card)s costs dearly if it stays in hand, and so does %(others)s."
SHARE_COUNTS = "With %(players)s players, this last cap is the lower one."
COUNT_WORDS = dict(enumerate(("two", "three", "four", "five", "six", "seven", "eight"), 2))


@dataclass(frozen=True)
class Percent:
    value: int  # a share of the target, as the page's percentage


@dataclass(frozen=True)
class Opponent:
    number: int  # named as a sentence names a seat: "Opponent 1" (pt "o Adversário 1")


@dataclass(frozen=True)
class CardKind:
    name: str  # a kind of card as a sentence names it ("the joker"), context "card kind"


# The arithmetic under each seat's points, example by example (the winner who went out has
# none): the numbers of each line in order, terms, sum, and the cap with its share if any.
STANDARD_SUMS = (
    ((11, 20, 5, 36),),  # AH JK 5C
    ((10, 10, 10, 10, 9, 25, 74, 50),),  # K K Q J 9 + 25, capped at half the target
    ((3, 4, 7), (10, 10, 10, 10, 9, 8, 7, 20, 25, 109, 100), (20, 11, 31)),
    ((200,), (200,)),  # hand rummy
)


@dataclass(frozen=True)
class Mutation:
    key: str  # "section.key" in rules.yaml
    old: str
    new: str
    scores: tuple[tuple[int, ...], ...]  # the four examples, winner first
    card_table: tuple[int, int, int] = (20, 11, 10)  # joker, ace, face
    targets: tuple[int, ...] = (100, 200, 300, 400, 500)
    vanished: tuple[int, ...] = ()  # numbers that must appear nowhere any more
    sums: tuple[tuple[tuple[int, ...], ...], ...] = STANDARD_SUMS
    present: tuple[tuple[str | Plural, dict[str, object]], ...] = ()  # messages that must be on the page
    absent: tuple[str | Plural, ...] = ()  # messages that must not
    extra: dict[str, object] = field(default_factory=dict)


STANDARD = ((0, 36), (0, 50), (0, 7, 100, 31), (0, 200, 200))

MUTATIONS = [
    # ex1 AH JK 5C = 11+23+5 = 39; ex3 opp3 JK AH = 23+11 = 34;
    # ex3 opp2 K K Q J 9 8 7 JK = 10+10+10+10+9+8+7+23 = 87, +25 = 112 > cap 100 → 100.
    Mutation("card_values.joker", "20", "23", ((0, 39), (0, 50), (0, 7, 100, 34), (0, 200, 200)),
             card_table=(23, 11, 10), vanished=(20,),
             sums=(((11, 23, 5, 39),), STANDARD_SUMS[1],
                   ((3, 4, 7), (10, 10, 10, 10, 9, 8, 7, 23, 25, 112, 100), (23, 11, 34)), STANDARD_SUMS[3])),
    # ex1 13+20+5 = 38; ex3 opp3 20+13 = 33.
    Mutation("card_values.ace", "11", "13", ((0, 38), (0, 50), (0, 7, 100, 33), (0, 200, 200)),
             card_table=(20, 13, 10), vanished=(11,), present=((ONE_POINT, {"ace": 13}),),
             sums=(((13, 20, 5, 38),), STANDARD_SUMS[1],
                   ((3, 4, 7), STANDARD_SUMS[2][1], (20, 13, 33)), STANDARD_SUMS[3])),
    # ex2 K K Q J 9 = 12*4+9 = 57, +25 = 82 > 50 → 50; ex3 opp2 48+9+8+7+20 = 92, +25 = 117 → 100.
    # The ace (11) is no longer dearer than a face card (12): only the joker costs dearly.
    Mutation("card_values.face", "10", "12", STANDARD, card_table=(20, 11, 12), vanished=(10,),
             sums=(STANDARD_SUMS[0], ((12, 12, 12, 12, 9, 25, 82, 50),),
                   ((3, 4, 7), (12, 12, 12, 12, 9, 8, 7, 20, 25, 117, 100), (20, 11, 31)), STANDARD_SUMS[3]),
             present=((DEAR_ONE, {"card": CardKind("the joker")}),), absent=(DEAR,)),
    Mutation("hand_rummy.penalty", "200", "250", ((0, 36), (0, 50), (0, 7, 100, 31), (0, 250, 250)),
             vanished=(), extra={"penalty": 250}, sums=STANDARD_SUMS[:3] + (((250,), (250,)),)),
    # ex2 49+30 = 79 > 50 → 50; ex3 opp2 84+30 = 114 → 100.
    Mutation("never_opened.surcharge", "25", "30", STANDARD, vanished=(25,),
             sums=(STANDARD_SUMS[0], ((10, 10, 10, 10, 9, 30, 79, 50),),
                   ((3, 4, 7), (10, 10, 10, 10, 9, 8, 7, 20, 30, 114, 100), (20, 11, 31)), STANDARD_SUMS[3])),
    # ex3 opp2 84+25 = 109 > 90 → 90; two players: share 50 < 90 still.
    Mutation("never_opened.cap", "100", "90", ((0, 36), (0, 50), (0, 7, 90, 31), (0, 200, 200)),
             sums=(STANDARD_SUMS[0], STANDARD_SUMS[1],
                   ((3, 4, 7), (10, 10, 10, 10, 9, 8, 7, 20, 25, 109, 90), (20, 11, 31)), STANDARD_SUMS[3])),
    # share 0.4: 2 players 40 (ex2 74 → 40), 3 players 80, 4 players 120 ≥ cap 100 (ex3 → 100).
    # Two player counts where the share is lower: "2 or 3", never "2 and 3".
    Mutation("never_opened.cap_target_fraction", "0.5", "0.4",
             ((0, 36), (0, 40), (0, 7, 100, 31), (0, 200, 200)),
             sums=(STANDARD_SUMS[0], ((10, 10, 10, 10, 9, 25, 74, 40, 40),), STANDARD_SUMS[2], STANDARD_SUMS[3]),
             present=((SHARE, {"seat": Opponent(1), "share": Percent(40)}), (SHARE_COUNTS, {"players": (2, 3)}),
                      (CAPPED_SHARE, {"sum": "10 + 10 + 10 + 10 + 9 + 25 = 74", "cap": 40, "share": Percent(40)})),
             absent=(HALF, TWO_PLAYER)),
    # targets 90..450: ex2 share 45 → 45; 3 players share 90 < 100, so the list sentence.
    Mutation("target.per_opponent", "100", "90", ((0, 36), (0, 45), (0, 7, 100, 31), (0, 200, 200)),
             targets=(90, 180, 270, 360, 450),
             sums=(STANDARD_SUMS[0], ((10, 10, 10, 10, 9, 25, 74, 45),), STANDARD_SUMS[2], STANDARD_SUMS[3]),
             present=((SHARE_COUNTS, {"players": (2, 3)}),), absent=(TWO_PLAYER,)),
    Mutation("melds.ace_low", "1", "2", STANDARD, absent=(ONE_POINT,)),
]  # fmt: skip


def mutated_rules(tmp_path: Path, mutation: Mutation) -> Path:
    section, key = mutation.key.split(".")
    text = SEED_RULES.read_text("utf-8")
    pattern = re.compile(rf"(^{section}:\n(?:[ #].*\n)*?\s+{key}: ){re.escape(mutation.old)}\b", re.M)
    changed, count = pattern.subn(rf"\g<1>{mutation.new}", text)
    assert count == 1, f"{mutation.key} not found once in rules.yaml"
    path = tmp_path / "rules.yaml"
    path.write_text(changed, "utf-8")
    return path


def numbers_in(cell: str) -> list[int]:
    # A no-break space keeps each score with its label.
    return [int(n) for n in re.findall(r"\*\*[\u00a0 ](\d+)", cell)]


def table_rows(page: str, first_cell: str = "") -> list[list[str]]:
    rows = []
    for line in page.splitlines():
        if line.startswith("|") and not line.startswith("|--") and not line.startswith("|:"):
            rows.append([cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip())[1:-1]])
    return rows


def translated(translate: Translator, msgid: str | Plural) -> str:
    if isinstance(msgid, tuple):
        return translate.ngettext(*msgid)
    return translate.gettext(msgid)


def expected_sentence(
    translate: Translator, fmt: Formatter, msgid: str | Plural, values: dict[str, object]
) -> str:
    filled = {}
    for name, value in values.items():
        if isinstance(value, tuple):
            # Player counts, as alternatives, in the catalog's words ("to eller tre").
            filled[name] = fmt.list(
                [translate.pgettext("player count", COUNT_WORDS[v]) for v in value], style="or"
            )
        elif isinstance(value, Percent):
            filled[name] = fmt.percent(Fraction(value.value, 100))
        elif isinstance(value, Opponent):
            filled[name] = translate.pgettext("seat in a sentence", "Opponent %(number)s") % {
                "number": value.number
            }
        elif isinstance(value, CardKind):
            filled[name] = translate.pgettext("card kind", value.name)
        elif isinstance(value, str):
            filled[name] = value
        else:
            filled[name] = fmt.number(value)  # type: ignore[arg-type]
    sentence = translated(translate, msgid) % filled
    return sentence[:1].upper() + sentence[1:]  # a card's name may begin it


def arithmetic_lines(cell: str) -> list[tuple[int, ...]]:
    """The numbers of each arithmetic line under the points of one example."""
    return [
        tuple(int(n) for n in re.findall(r"\d+", line)) for line in re.findall(r"<small>(.*?)</small>", cell)
    ]


# Each mutation copies the project and renders every language: the first stays in
# `make test-fast`, the others are slow (the value grid's reasoning).
@pytest.mark.parametrize(
    "mutation",
    [MUTATIONS[0], *(pytest.param(m, marks=pytest.mark.slow) for m in MUTATIONS[1:])],
    ids=lambda m: f"{m.key}={m.new}",
)
def test_every_language_follows_the_rules(tmp_path: Path, seed_root: Path, mutation: Mutation) -> None:
    project = Project(mutated_rules(tmp_path, mutation), seed_root / "templates", seed_root / "locales")
    pages = {p.lang: p.text for p in render_all(project) if p.name == "scoring.md"}
    assert sorted(pages) == sorted(PUBLISHED)
    languages = {language.code: language for language in discover_languages(project.locales)}
    for lang, page in pages.items():
        translate = Translator.load(languages[lang])
        fmt = Formatter(languages[lang].locale)
        rows = table_rows(page)
        # Card values table: joker, ace, face rows come after the header.
        card_rows = rows[1:4]
        assert [int(r[1]) for r in card_rows] == list(mutation.card_table), lang
        # Worked examples: the round points column.
        example_rows = [r for r in rows if len(r) == 3 and r[0].startswith("**")]
        assert [tuple(numbers_in(r[2])) for r in example_rows] == list(mutation.scores), lang
        assert [tuple(arithmetic_lines(r[2])) for r in example_rows] == list(mutation.sums), lang
        # Target table: the last five rows, one per player count.
        target_rows = rows[-5:]
        assert [int(re.sub(r"\D", "", r[1])) for r in target_rows] == list(mutation.targets), lang
        # The calculator's data block is data (card codes "10C", the rules' values): its words are
        # judged below, with the page's.
        text = re.sub(r"<script\b.*?</script>", " ", page, flags=re.S)
        for number in mutation.vanished:
            assert not re.search(rf"(?<![\d.,]){number}(?![\d.,%])", text), f"{lang}: stale {number}"
        for msgid, values in mutation.present:
            assert expected_sentence(translate, fmt, msgid, values) in page, f"{lang}: {msgid}"
        for msgid in mutation.absent:
            # Its longest stretch of words between placeholders must be gone from the page.
            words = max(re.split(r"%\(\w+\)s", translated(translate, msgid)), key=len)
            assert words not in page, f"{lang}: stale {msgid}"
        if "penalty" in mutation.extra:
            assert fmt.number(mutation.extra["penalty"]) in page  # type: ignore[arg-type]


def test_a_value_that_changes_the_deciding_rule_fails_the_build(tmp_path: Path, seed_root: Path) -> None:
    # per_opponent 150: two-player share 75, and ex2's 49+25 = 74 ≤ 75 is no longer capped,
    # so the example's prose ("capped by the share of the target") would be false.
    from rulesdoc.errors import RulesdocError

    mutation = Mutation("target.per_opponent", "100", "150", STANDARD)
    project = Project(mutated_rules(tmp_path, mutation), seed_root / "templates", seed_root / "locales")
    with pytest.raises(RulesdocError) as error:
        render_all(project, ["en"])
    message = str(error.value)
    assert "two-players-never-opened" in message and "capped_target_share" in message
    assert re.search(r"rules\.yaml:\d+:", message)
