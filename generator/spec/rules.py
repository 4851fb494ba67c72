"""Load and validate ``rules.yaml`` (and round situations) with file and line in every error.

The YAML is composed into nodes by the one bounded loader and read node by node, so each
error can name the line of the offending key. Which keys each mapping takes, and how each
value is read and bounded, comes from the table of fields (:mod:`rulesdoc.spec.fields`),
the source of the JSON Schema too; what is left here builds the model and makes the
*semantic checks*: those that compare values, which no JSON Schema can express.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from yaml.nodes import Node

from rulesdoc.engine.cards import MAX_PLAYERS
from rulesdoc.engine.model import Example, Hand, Reason, Round, Rules
from rulesdoc.errors import Location, RulesdocError, display_path
from rulesdoc.io import files
from rulesdoc.io.yaml_nodes import sequence
from rulesdoc.io.yamlload import Source, compose
from rulesdoc.spec import values
from rulesdoc.spec.fields import (
    EXAMPLE,
    HAND,
    MAX_CARDS,
    ROUND,
    RULES,
    Boolean,
    Choice,
    Integer,
    ListOf,
    Number,
    Section,
    Text,
    rule_values,
)

# YAML is read by the one bounded loader of every YAML file: generator/io/yamlload.py.


def read_text(path: Path, root: Path | None = None, limit: int = files.MAX_RULES_BYTES) -> str:
    """A rules or rounds file: a regular file inside the project, bounded, UTF-8."""
    return files.read_text(path, limit, root, utf8_bom=True)  # YAML allows a UTF-8 BOM


# The kinds the readers below read by name, looked up once (a mistake in the table fails at import).
_OPENED = HAND.kind("opened", Boolean)
_WENT_OUT = ROUND.kind("went_out", Integer)
_HAND_RUMMY = ROUND.kind("hand_rummy", Boolean)
_TEXTS = {name: EXAMPLE.kind(name, Text) for name in ("id", "title", "note")}
_ILLUSTRATES = EXAMPLE.kind("illustrates", Choice)


# ---------------------------------------------------------------- situations


def _hand(node: Node, source: Source, seat: int, dealt: int) -> Hand:
    """One seat's hand; ``dealt``: the cards of the seats before it, bounded with its own."""
    fields = values.keys(node, source, f"hand of seat {seat}", HAND)
    card_nodes = sequence(fields["cards"], source, f"cards of seat {seat}")
    if dealt + len(card_nodes) > MAX_CARDS:  # semantic: two decks, counted across the seats
        raise source.error(
            fields["cards"],
            f"seat {seat} brings the round to more than {MAX_CARDS} cards; two decks and four jokers "
            f"hold {MAX_CARDS}",
        )
    cards = tuple(values.card(card_node, source) for card_node in card_nodes)
    return Hand(cards, values.boolean(_OPENED, fields.get("opened"), source, "opened"))


def parse_round(node: Node, source: Source, what: str = "round") -> Round:
    """Read a round situation: hands, who went out (absent for a blocked round), hand rummy."""
    fields = values.keys(node, source, what, ROUND)
    hand_nodes = sequence(fields["hands"], source, "hands")
    # Bounded before anything is built: through YAML aliases (`- *hand`) a few bytes can name a
    # hand, or a list of cards, again and again. Every seat but one holds a card, so a round of
    # more seats than that cannot be dealt; the engine checks the count against the rules' own
    # players (tighter than the schema's, and with words that name them).
    if len(hand_nodes) > MAX_CARDS + 1:
        raise source.error(
            fields["hands"], f"a round of {len(hand_nodes)} players; two decks deal at most {MAX_PLAYERS}"
        )
    hand_list: list[Hand] = []
    dealt = 0
    for seat, hand_node in enumerate(hand_nodes):
        hand_list.append(_hand(hand_node, source, seat, dealt))
        dealt += len(hand_list[-1].cards)
    hands = tuple(hand_list)
    went_out: int | None = None
    if "went_out" in fields:
        went_out = values.integer(_WENT_OUT, fields["went_out"], source, "went_out")
        if went_out is not None and went_out >= len(hands):  # semantic: a seat of this round
            raise source.error(
                fields["went_out"], f"went_out is seat {went_out}, but seats run from 0 to {len(hands) - 1}"
            )
    hand_rummy = values.boolean(_HAND_RUMMY, fields.get("hand_rummy"), source, "hand_rummy")
    return Round(hands, went_out, hand_rummy)


# ---------------------------------------------------------------- rules


def _example(node: Node, source: Source, index: int) -> Example:
    what = f"examples[{index}]"
    fields = values.keys(node, source, what, EXAMPLE)

    def text(name: str) -> str:
        return values.text(_TEXTS[name], fields[name], source, name)

    example_id = text("id")
    return Example(
        id=example_id,
        title=text("title"),
        situation=parse_round(fields["situation"], source, f"{what}.situation"),
        note=text("note") if "note" in fields else None,
        illustrates=(
            Reason(values.choice(_ILLUSTRATES, fields["illustrates"], source, "illustrates"))
            if "illustrates" in fields
            else None
        ),
        line=node.start_mark.line + 1,
    )


def _examples(node: Node, source: Source) -> tuple[Example, ...]:
    nodes = sequence(node, source, "examples")
    limit = RULES.kind("examples", ListOf).max_items
    if limit is not None and len(nodes) > limit:  # before any is read: each costs every command time
        raise source.error(
            nodes[limit],
            f"example {limit + 1} of {len(nodes):,}: at most {limit} worked examples; keep the ones "
            "that show a rule",
        )
    examples = tuple(_example(example_node, source, index) for index, example_node in enumerate(nodes))
    seen: set[str] = set()
    for example_node, example in zip(nodes, examples, strict=True):
        if example.id in seen:  # semantic: unique among the examples
            raise source.error(example_node, f"duplicate example id {example.id!r}")
        seen.add(example.id)
    return examples


def _numbers(top: dict[str, Node], source: Source) -> tuple[dict[str, int | float], dict[str, Node]]:
    """The value of every ``section.key`` of the rules' sections, and its node, in the table's
    order: each section's keys first (a missing section is found before any value is read)."""
    sections = {
        field.name: (field.kind, values.keys(top[field.name], source, field.name, field.kind))
        for field in RULES.fields
        if isinstance(field.kind, Section)
    }
    numbers: dict[str, int | float] = {}
    nodes: dict[str, Node] = {}
    for name, (section, fields) in sections.items():
        for field in section.fields:
            what = f"{name}.{field.name}"
            nodes[what] = fields[field.name]
            if isinstance(field.kind, Integer):
                value = values.integer(field.kind, nodes[what], source, what)
                if value is None:  # the table's mistake: no key of the rules' sections is nullable
                    raise TypeError(f"{what}: a value of the rules is nullable in the table of fields")
                numbers[what] = value
            elif isinstance(field.kind, Number):
                numbers[what] = values.number(field.kind, nodes[what], source, what)
            else:  # the table's mistake, not the file's
                raise TypeError(f"{what}: a section of the rules holds numbers, not {field.kind}")
    return numbers, nodes


def parse_rules(text: str, path: str = "rules.yaml") -> Rules:
    source = Source(path)
    root = compose(text, source)
    if root is None:
        raise RulesdocError("the rules file is empty", Location(path))
    top = values.keys(root, source, "the rules", RULES)
    numbers, nodes = _numbers(top, source)

    def whole(key: str) -> int:
        value = numbers[key]
        if not isinstance(value, int):  # the table's mistake, not the file's
            raise TypeError(f"{key}: the table of fields reads a number here, not a whole number")
        return value

    if whole("players.min") > whole("players.max"):  # semantic: two values
        raise source.error(
            nodes["players.min"],
            f"players.min ({whole('players.min')}) is above players.max ({whole('players.max')})",
        )
    fraction = numbers["never_opened.cap_target_fraction"]
    rules = Rules(
        **model_values(numbers),
        examples=_examples(top["examples"], source) if "examples" in top else (),
        source=path,
    )
    _check_target_share(rules, nodes["target.per_opponent"], fraction, source)
    return rules


def model_values(numbers: Mapping[str, int | float]) -> dict[str, Any]:
    """The model's arguments from the rule values by ``section.key``, through the table's
    attributes: a nested one ("card_values.joker") builds its part of the model, a fraction is
    exact from the decimal text, as written (0.1 is 1/10, not the float nearest it)."""
    hints = typing.get_type_hints(Rules)
    arguments: dict[str, Any] = {}
    parts: dict[str, dict[str, int | float]] = {}
    for path, field in rule_values():
        outer, _, inner = field.attribute.partition(".")
        if inner:
            parts.setdefault(outer, {})[inner] = numbers[path]
        else:
            arguments[outer] = Fraction(str(numbers[path])) if hints[outer] is Fraction else numbers[path]
    for outer, part in parts.items():
        arguments[outer] = hints[outer](**part)
    return arguments


def _check_target_share(rules: Rules, node: Node, fraction: float, source: Source) -> None:
    """Refuse a target share that rounds down to 0: a never-opened loser would pay nothing.

    The share grows with the player count, so the fewest players decide.
    """
    from rulesdoc.engine import scoring as engine  # the engine depends on the model only

    players = rules.players_min
    if engine.target_share(rules, players) < 1:
        target = engine.target(rules, players)
        raise source.error(
            node,
            f"the never-opened cap from the target is 0 with {players} players "
            f"({fraction} of {target}, rounded down): raise target.per_opponent "
            "or never_opened.cap_target_fraction",
        )


def load_rules(path: Path | str, root: Path | None = None) -> Rules:
    """Load, validate and check ``rules.yaml``: its examples must score and show what they claim."""
    from rulesdoc.engine.scoring import check_example_illustrates  # the engine depends on the model only

    path = Path(path)
    rules = parse_rules(read_text(path, root), display_path(path))
    check_example_illustrates(rules)
    return rules
