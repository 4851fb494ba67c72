"""Change one value in rules.yaml: every page in every language follows, nothing stale survives.

Expected scores are worked out by hand from the rules (comments show the sums);
expected sentences are the catalog's translation of the message the new value
calls for, filled with the new number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import PUBLISHED, ROOT

from generator.i18n import Formatter, Translator, discover_languages
from generator.render import Project, render_all

HALF = "Hand value plus the surcharge is more than half the target: the opponent pays half the target."
SHARE = "Hand value plus the surcharge is more than %(share)s of the target: the opponent pays %(share)s of the target."
ONE_POINT = (
    "An ace that was worth only one point at the low end of a sequence costs %(ace)s if it stays in hand."
)
TWO_PLAYER = "In a two-player game, this last cap is the one that applies most often."
SHARE_COUNTS = "With %(players)s players, this last cap is the lower one."


@dataclass(frozen=True)
class Mutation:
    key: str  # "section.key" in rules.yaml
    old: str
    new: str
    scores: tuple[tuple[int, ...], ...]  # the four examples, winner first
    card_table: tuple[int, int, int] = (20, 11, 10)  # joker, ace, face
    targets: tuple[int, ...] = (100, 200, 300, 400, 500)
    vanished: tuple[int, ...] = ()  # numbers that must appear nowhere any more
    present: tuple[tuple[str, dict[str, object]], ...] = ()  # messages that must be on the page
    absent: tuple[str, ...] = ()  # messages that must not
    extra: dict[str, object] = field(default_factory=dict)


STANDARD = ((0, 36), (0, 50), (0, 7, 100, 31), (0, 200, 200))

MUTATIONS = [
    # ex1 AH JK 5C = 11+23+5 = 39; ex3 opp3 JK AH = 23+11 = 34;
    # ex3 opp2 K K Q J 9 8 7 JK = 10+10+10+10+9+8+7+23 = 87, +25 = 112 > cap 100 → 100.
    Mutation("card_values.joker", "20", "23", ((0, 39), (0, 50), (0, 7, 100, 34), (0, 200, 200)),
             card_table=(23, 11, 10), vanished=(20,)),
    # ex1 13+20+5 = 38; ex3 opp3 20+13 = 33.
    Mutation("card_values.ace", "11", "13", ((0, 38), (0, 50), (0, 7, 100, 33), (0, 200, 200)),
             card_table=(20, 13, 10), vanished=(11,), present=((ONE_POINT, {"ace": 13}),)),
    # ex2 K K Q J 9 = 12*4+9 = 57, +25 = 82 > 50 → 50; ex3 opp2 48+9+8+7+20 = 92, +25 → 100.
    Mutation("card_values.face", "10", "12", STANDARD, card_table=(20, 11, 12), vanished=(10,)),
    Mutation("hand_rummy.penalty", "200", "250", ((0, 36), (0, 50), (0, 7, 100, 31), (0, 250, 250)),
             vanished=(), extra={"penalty": 250}),
    # ex2 49+30 = 79 > 50 → 50; ex3 opp2 84+30 = 114 → 100.
    Mutation("never_opened.surcharge", "25", "30", STANDARD, vanished=(25,)),
    # ex3 opp2 84+25 = 109 > 90 → 90; two players: share 50 < 90 still.
    Mutation("never_opened.cap", "100", "90", ((0, 36), (0, 50), (0, 7, 90, 31), (0, 200, 200))),
    # share 0.4: 2 players 40 (ex2 74 → 40), 3 players 80, 4 players 120 ≥ cap 100 (ex3 → 100).
    Mutation("never_opened.cap_target_fraction", "0.5", "0.4",
             ((0, 36), (0, 40), (0, 7, 100, 31), (0, 200, 200)),
             present=((SHARE, {"share": "40%"}), (SHARE_COUNTS, {"players": (2, 3)})),
             absent=(HALF, TWO_PLAYER)),
    # targets 90..450: ex2 share 45 → 45; 3 players share 90 < 100, so the list sentence.
    Mutation("target.per_opponent", "100", "90", ((0, 36), (0, 45), (0, 7, 100, 31), (0, 200, 200)),
             targets=(90, 180, 270, 360, 450),
             present=((SHARE_COUNTS, {"players": (2, 3)}),), absent=(TWO_PLAYER,)),
    Mutation("melds.ace_low", "1", "2", STANDARD, absent=(ONE_POINT,)),
]  # fmt: skip


def mutated_rules(tmp_path: Path, mutation: Mutation) -> Path:
    section, key = mutation.key.split(".")
    text = (ROOT / "rules.yaml").read_text("utf-8")
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


def expected_sentence(translate: Translator, fmt: Formatter, msgid: str, values: dict[str, object]) -> str:
    filled = {}
    for name, value in values.items():
        if isinstance(value, tuple):
            filled[name] = fmt.list([fmt.number(v) for v in value])
        elif isinstance(value, str) and value.endswith("%"):
            from fractions import Fraction

            filled[name] = fmt.percent(Fraction(int(value[:-1]), 100))
        else:
            filled[name] = fmt.number(value)  # type: ignore[arg-type]
    return translate.gettext(msgid) % filled


@pytest.mark.parametrize("mutation", MUTATIONS, ids=lambda m: f"{m.key}={m.new}")
def test_every_language_follows_the_rules(tmp_path: Path, mutation: Mutation) -> None:
    project = Project(mutated_rules(tmp_path, mutation), ROOT / "templates", ROOT / "locales")
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
        # Target table: the last five rows, one per player count.
        target_rows = rows[-5:]
        assert [int(re.sub(r"\D", "", r[1])) for r in target_rows] == list(mutation.targets), lang
        for number in mutation.vanished:
            assert not re.search(rf"(?<![\d.,]){number}(?![\d.,%])", page), f"{lang}: stale {number}"
        for msgid, values in mutation.present:
            assert expected_sentence(translate, fmt, msgid, values) in page, f"{lang}: {msgid}"
        for msgid in mutation.absent:
            assert translate.gettext(msgid).split("%(")[0] not in page, f"{lang}: stale {msgid}"
        if "penalty" in mutation.extra:
            assert fmt.number(mutation.extra["penalty"]) in page  # type: ignore[arg-type]


def test_a_value_that_changes_the_deciding_rule_fails_the_build(tmp_path: Path) -> None:
    # per_opponent 150: two-player share 75, and ex2's 49+25 = 74 ≤ 75 is no longer capped,
    # so the example's prose ("capped by the share of the target") would be false.
    from generator.errors import RulesdocError

    mutation = Mutation("target.per_opponent", "100", "150", STANDARD)
    project = Project(mutated_rules(tmp_path, mutation), ROOT / "templates", ROOT / "locales")
    with pytest.raises(RulesdocError) as error:
        render_all(project, ["en"])
    message = str(error.value)
    assert "two-players-never-opened" in message and "capped_target_share" in message
    assert re.search(r"rules\.yaml:\d+:", message)
