"""The fields of ``rules.yaml`` and of a round, declared once: the one source of their structure.

Each field has a name, a description, whether it is required, and a kind (its type, bounds,
pattern, default, or the fields nested in it). Two readers are derived from this table:

- the loader (:mod:`rulesdoc.spec.values`, :mod:`rulesdoc.spec.rules`): which keys a mapping
  takes and requires, and how each value is read and bounded, with its one-line errors;
- the JSON Schema (:mod:`rulesdoc.spec.schema`): the same fields, for editors and apps.

What needs two values at once (``players.min`` ≤ ``players.max``, a seat that exists, unique
ids, two decks' card limits, an example showing its rule, the target share) is not here: a
JSON Schema cannot compare one value with another. Those *semantic checks* stay in code,
named as such in :mod:`rulesdoc.spec.rules`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TypeVar

from rulesdoc.engine.cards import (
    ALL_CARDS,
    COPIES_PER_CARD,
    JOKER_CODE,
    JOKERS_PER_ROUND,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Rank,
    Suit,
)
from rulesdoc.engine.model import Reason

MAX_CARDS = (len(ALL_CARDS) - 1) * COPIES_PER_CARD + JOKERS_PER_ROUND  # 108: two decks, four jokers
# No Rami score comes near this; the bound keeps every number of a round in a 32-bit int (and
# exact in a JavaScript number), and the JSON Schema states it.
# Worst case, V = MAX_VALUE: the target is at most 7·V (eight players); a hand holds at most the
# 36 jokers, aces and face cards of two decks (V each) and 72 pip cards (432 points), plus a
# surcharge V: a round scores at most 37·V + 432; a total that reaches the target in that round
# is below 7·V + 37·V + 432 = 44·V + 432 = 440 000 432 < 2**31 - 1 = 2 147 483 647.
# (Only tied extra rounds can add to totals past that: each round again at most 37·V + 432.)
MAX_VALUE = 10_000_000
# Worked examples and their texts bound every command's time (manual/publishing.md, "Untrusted
# input"): each example is scored, rendered and linted in every language, and each title and note
# is wrapped into every catalog. The real project has 4 examples of titles under 60 characters;
# at these bounds, within rules.yaml's 1 MiB, render and check take about 6.5 s on two cores.
MAX_EXAMPLES = 100
MAX_TITLE_CHARACTERS = 200
MAX_NOTE_CHARACTERS = 1_000
# Lowercase words joined by "-".
EXAMPLE_ID_PATTERN = "^[a-z0-9]+(-[a-z0-9]+)*$"
# Title and note: any text with something other than whitespace in it.
NON_EMPTY_TEXT_PATTERN = r"\S"


def _either_case(letters: str) -> str:
    return "".join(letter.upper() + letter.lower() for letter in letters)


def card_pattern() -> str:
    """``parse_card``'s syntax: rank then suit in either case (``AH``, ``10s``, ``qd``), or ``JK``."""
    letters = _either_case("".join(rank.value for rank in Rank if not rank.value.isdigit()))
    suits = _either_case("".join(suit.value for suit in Suit))
    joker = "".join(f"[{_either_case(letter)}]" for letter in JOKER_CODE)
    return f"^(?:(?:10|[2-9{letters}])[{suits}]|{joker})$"


# ---------------------------------------------------------------- kinds


@dataclass(frozen=True)
class Integer:
    """A whole number from ``minimum`` to ``maximum``; ``null`` too where ``nullable`` (absent)."""

    minimum: int = 1
    maximum: int = MAX_VALUE
    # The loader's words for a value above a maximum below MAX_VALUE ("<what> is <value>; <over>").
    # Empty where the maximum follows from semantic checks, whose words name the relation:
    # went_out must be a seat of its round (spec.rules), whose count the engine bounds.
    over: str = ""
    nullable: bool = False


@dataclass(frozen=True)
class Number:
    """A finite number above ``exclusive_minimum``, at most ``maximum``."""

    exclusive_minimum: int
    maximum: int


@dataclass(frozen=True)
class Boolean:
    default: bool  # the value of an absent key


@dataclass(frozen=True)
class Text:
    """Non-empty text (no control characters), matching ``pattern``.

    ``mismatch``: the loader's words for text the pattern refuses (``{value}``: the text), where
    the pattern asks more than non-empty text; such text must not have spaces around it either.
    """

    pattern: str = NON_EMPTY_TEXT_PATTERN
    mismatch: str = ""
    max_length: int | None = None  # characters, as written (the schema's maxLength)


@dataclass(frozen=True)
class Choice:
    """One of ``values``; ``noun`` names what an unknown one is ("unknown rule 'x'")."""

    values: tuple[str, ...]
    noun: str


@dataclass(frozen=True)
class CardCode:
    """A card as ``parse_card`` reads it; :func:`card_pattern` states its syntax."""


@dataclass(frozen=True)
class ListOf:
    """A list of ``items``. ``min_items``/``max_items`` are the schema's; the loader reads
    ``max_items`` of the examples, and leaves the other bounded count, the hands of a round, to
    the engine, which checks it against the rules' own players (tighter than two decks' 2 to 8,
    and named in its words)."""

    items: Field
    min_items: int | None = None
    max_items: int | None = None


K = TypeVar("K")


@dataclass(frozen=True)
class Section:
    """A mapping of these keys and no other."""

    fields: tuple[Field, ...]

    def __getitem__(self, name: str) -> Field:
        return next(field for field in self.fields if field.name == name)

    def kind(self, name: str, expected: type[K]) -> K:
        """The kind of the field ``name``, which the reader expects to be of this type."""
        kind = self[name].kind
        if not isinstance(kind, expected):
            raise TypeError(f"the field {name!r} is {type(kind).__name__}, not {expected.__name__}")
        return kind

    # Cached: a `score` input reads these for every round and every hand.
    @cached_property
    def required(self) -> tuple[str, ...]:
        return tuple(field.name for field in self.fields if field.required)

    @cached_property
    def optional(self) -> tuple[str, ...]:
        return tuple(field.name for field in self.fields if not field.required)


Kind = Integer | Number | Boolean | Text | Choice | CardCode | ListOf | Section


@dataclass(frozen=True)
class Field:
    name: str  # the key ("" for a list's items)
    description: str
    kind: Kind
    required: bool = True
    # A rule value's attribute of the model (engine.model.Rules), dotted where it is nested
    # ("card_values.joker"): the loader builds the model from it, the export writes it back.
    attribute: str = ""


def _positive(name: str, description: str, attribute: str) -> Field:
    return Field(name, description, Integer(), attribute=attribute)


def _section(name: str, description: str, *fields: Field) -> Field:
    return Field(name, description, Section(fields))


# ---------------------------------------------------------------- the table

HAND = Section(
    (
        Field(
            "cards",
            "Cards left in hand; empty only for the seat that went out. "
            "Two decks: at most two copies of a card and four jokers in one round.",
            ListOf(
                Field(
                    "",
                    "Rank (A, 2-10, J, Q, K) then suit (C, D, H, S), "
                    "in either case: AH, 10S, qd; JK for a joker.",
                    CardCode(),
                )
            ),
        ),
        Field(
            "opened",
            "Whether the player had laid down melds; false for a player "
            "who never opened (surcharge and caps apply).",
            Boolean(default=True),
            required=False,
        ),
    )
)

ROUND = Section(
    (
        Field(
            "hands",
            "One hand per seat, seat 0 first.",
            ListOf(
                Field("", "What one seat holds when the round ends.", HAND),
                min_items=MIN_PLAYERS,
                max_items=MAX_PLAYERS,
            ),
        ),
        Field(
            "went_out",
            "The seat that went out; leave it out (or null) for a blocked round.",
            Integer(minimum=0, maximum=MAX_PLAYERS - 1, nullable=True),
            required=False,
        ),
        Field(
            "hand_rummy",
            "The seat that went out did so in one turn: every opponent, "
            "none of whom had opened, pays the hand rummy penalty.",
            Boolean(default=False),
            required=False,
        ),
    )
)
ROUND_DESCRIPTION = "A round as it ends: never a result, which the engine computes."

EXAMPLE = Section(
    (
        Field(
            "id",
            "Lowercase words joined by '-', unique among the examples.",
            Text(EXAMPLE_ID_PATTERN, mismatch="example id {value!r} must be lowercase words joined by '-'"),
        ),
        Field(
            "title",
            "English source text, translated in the catalogs.",
            Text(max_length=MAX_TITLE_CHARACTERS),
        ),
        Field(
            "note",
            "Optional English sentence shown below the title.",
            Text(max_length=MAX_NOTE_CHARACTERS),
            required=False,
        ),
        Field(
            "illustrates",
            "The rule the example is there to show: the build fails if another rule decides it.",
            Choice(tuple(reason.value for reason in Reason), noun="rule"),
            required=False,
        ),
        Field("situation", ROUND_DESCRIPTION, ROUND),
    )
)

_PLAYERS_OVER = f"two decks deal at most {MAX_PLAYERS}"

RULES = Section(
    (
        _section(
            "players",
            "Allowed player counts; min must not be above max.",
            Field(
                "min",
                "The fewest players (two at least).",
                Integer(MIN_PLAYERS, MAX_PLAYERS, _PLAYERS_OVER),
                attribute="players_min",
            ),
            Field(
                "max",
                "The most players (two decks deal at most eight).",
                Integer(MIN_PLAYERS, MAX_PLAYERS, _PLAYERS_OVER),
                attribute="players_max",
            ),
        ),
        _section(
            "card_values",
            "What a card costs when it is still in hand; two to ten count their pip value.",
            _positive("joker", "A joker left in hand.", "card_values.joker"),
            _positive("ace", "An ace left in hand.", "card_values.ace"),
            _positive("face", "A jack, queen or king left in hand.", "card_values.face"),
        ),
        _section(
            "melds",
            "Values of cards laid in melds.",
            _positive("ace_low", "An ace laid low in a sequence (A-2-3).", "ace_low"),
        ),
        _section(
            "hand_rummy",
            "Going out in one turn.",
            _positive("penalty", "Charged to every opponent, whatever they hold.", "hand_rummy_penalty"),
        ),
        _section(
            "never_opened",
            "A loser who never opened pays hand value + surcharge, capped by the lower "
            "of cap and cap_target_fraction × target (rounded down).",
            _positive(
                "surcharge", "Added to the hand value of a loser who never opened.", "never_opened_surcharge"
            ),
            _positive("cap", "Never more than this.", "never_opened_cap"),
            Field(
                "cap_target_fraction",
                "Nor more than this share of the game target (above 0, at most 1).",
                Number(exclusive_minimum=0, maximum=1),
                attribute="cap_target_fraction",
            ),
        ),
        _section(
            "target",
            "The game ends after the round in which a total reaches the target.",
            _positive("per_opponent", "The target is this × (players − 1).", "target_per_opponent"),
        ),
        Field(
            "examples",
            "Worked examples, shown on the scoring page in every language.",
            ListOf(
                Field("", "A worked example: a situation the pages score, in every language.", EXAMPLE),
                max_items=MAX_EXAMPLES,
            ),
            required=False,
        ),
    )
)
RULES_DESCRIPTION = "The scoring rules of Rami: the single source of truth of the rules pages and the app."


def rule_values() -> tuple[tuple[str, Field], ...]:
    """Every rule value as ``("section.key", field)``, in the table's order: what the loader reads
    into the model and the export writes back, each through the field's ``attribute``."""
    return tuple(
        (f"{section.name}.{field.name}", field)
        for section in RULES.fields
        if isinstance(section.kind, Section)
        for field in section.kind.fields
    )
