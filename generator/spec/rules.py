"""Load and validate ``rules.yaml`` (and round situations) with file and line in every error.

The YAML is composed into nodes with PyYAML's *safe* loader and validated node by
node, so each error can name the line of the offending key, and no tag other
than YAML's plain ones (``!!python/...`` and friends) is ever constructed.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import TypeVar

import yaml
from yaml.nodes import Node, ScalarNode, SequenceNode

from generator.engine.cards import ALL_CARDS, COPIES_PER_CARD, JOKERS_PER_ROUND, Card, parse_card
from generator.engine.model import CardValues, Example, Hand, Reason, Round, Rules
from generator.errors import Location, RulesdocError, display_path, short
from generator.io import files
from generator.io.yaml_nodes import check_tag, mapping, sequence
from generator.io.yamlload import Source, compose, scalar_value

T = TypeVar("T")

# Control characters but tab and line feed (as msgfmt and YAML's own reader refuse them raw).
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_ID_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MAX_PLAYERS = 8  # two decks and four jokers cannot deal a round to more
MAX_CARDS = (len(ALL_CARDS) - 1) * COPIES_PER_CARD + JOKERS_PER_ROUND  # 108: two decks, four jokers
# No Rami score comes near this; the bound keeps every number of a round in a 32-bit int (and
# exact in a JavaScript number), and is stated in the JSON Schema (generator/spec/schema.py).
# Worst case, V = MAX_VALUE: the target is at most 7·V (eight players); a hand holds at most the
# 36 jokers, aces and face cards of two decks (V each) and 72 pip cards (432 points), plus a
# surcharge V: a round scores at most 37·V + 432; a total that reaches the target in that round
# is below 7·V + 37·V + 432 = 44·V + 432 = 440 000 432 < 2**31 - 1 = 2 147 483 647.
# (Only tied extra rounds can add to totals past that: each round again at most 37·V + 432.)
MAX_VALUE = 10_000_000
# A plain integer as YAML 1.2 and JSON write it. YAML 1.1 (PyYAML) reads 024 as 20, 0x14 and
# 0o24 as 20, 1:20 as 80 (base 60) and 2_0 as 20, where a YAML 1.2 editor reads 24 or a string.
_DECIMAL = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
# A whole number written with a decimal point (20.0, as a JSON writer may): the JSON Schema's
# "integer" accepts it, and so does the loader.
_WHOLE_FLOAT = re.compile(r"[-+]?(?:0|[1-9][0-9]*)\.0*")


# YAML is read by the one bounded loader of every YAML file: generator/io/yamlload.py.


def read_text(path: Path, root: Path | None = None, limit: int = files.MAX_RULES_BYTES) -> str:
    """A rules or rounds file: a regular file inside the project, bounded, UTF-8."""
    return files.read_text(path, limit, root)


# ---------------------------------------------------------------- node readers


def _scalar(node: Node, source: Source, what: str) -> object:
    check_tag(node, source)
    if not isinstance(node, ScalarNode):
        kind = "a list" if isinstance(node, SequenceNode) else "a mapping"
        raise source.error(node, f"{what} must be a single value, not {kind}")
    try:
        return scalar_value(node)
    except (yaml.YAMLError, ValueError, KeyError, TypeError, OverflowError):
        # An explicit tag the value does not fit (``!!int two``), or more digits than Python reads.
        shown = repr(short(node.value, 40))
        if re.fullmatch(r"[-+]?[0-9_]+", node.value):
            raise source.error(node, f"{what}: {shown} ({len(node.value)} digits) is too large") from None
        kind = node.tag.rsplit(":", 1)[-1]
        raise source.error(node, f"{what}: {shown} is not a valid {kind}") from None


def _integer(node: Node, source: Source, what: str, minimum: int = 1) -> int:
    value = _scalar(node, source, what)
    if isinstance(value, float) and isinstance(node, ScalarNode) and _WHOLE_FLOAT.fullmatch(node.value):
        value = int(value)
    if (
        isinstance(value, int)
        and not isinstance(value, bool)
        and isinstance(node, ScalarNode)
        and not node.style
        and not _DECIMAL.fullmatch(node.value)
        and not _WHOLE_FLOAT.fullmatch(node.value)
    ):
        raise source.error(
            node,
            f"{what}: write {short(node.value)!r} as a plain decimal number ({short(str(value))}?); "
            "YAML 1.1 and YAML 1.2 tools read it differently",
        )
    if isinstance(value, bool) or not isinstance(value, int):
        raise source.error(node, f"{what} must be a whole number, not {short(node.value)!r}")
    if value < minimum:
        bound = "positive" if minimum == 1 else f"at least {minimum}"
        raise source.error(node, f"{what} must be {bound}, not {value}")
    if value > MAX_VALUE:
        raise source.error(node, f"{what}: {value} is too large; at most {MAX_VALUE}")
    return value


def _boolean(node: Node, source: Source, what: str) -> bool:
    value = _scalar(node, source, what)
    if not isinstance(value, bool):
        raise source.error(node, f"{what} must be true or false, not {short(node.value)!r}")
    return value


def _text(node: Node, source: Source, what: str) -> str:
    value = _scalar(node, source, what)
    if not isinstance(value, str) or not value.strip():
        raise source.error(node, f"{what} must be non-empty text")
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in value):
        raise source.error(node, f"{what} holds a lone surrogate (an escape like \\ud800): not text")
    control = _CONTROL.search(value)
    if control:  # an escape like "\0" or "\e": it would reach the POT, the pages and the search index
        raise source.error(node, f"{what} holds the control character {control.group()!r}; refused")
    return " ".join(value.split())


def _each(nodes: list[Node], read: Callable[[Node, int], T]) -> tuple[T, ...]:
    return tuple(read(node, index) for index, node in enumerate(nodes))


# ---------------------------------------------------------------- situations


def _hand(node: Node, source: Source, seat: int, dealt: int) -> Hand:
    """One seat's hand; ``dealt``: the cards of the seats before it, bounded with its own."""
    fields = mapping(node, source, f"hand of seat {seat}", ("cards",), ("opened",))
    card_nodes = sequence(fields["cards"], source, f"cards of seat {seat}")
    if dealt + len(card_nodes) > MAX_CARDS:
        raise source.error(
            fields["cards"],
            f"seat {seat} brings the round to more than {MAX_CARDS} cards; two decks and four jokers "
            f"hold {MAX_CARDS}",
        )
    cards: list[Card] = []
    for card_node in card_nodes:
        code = _scalar(card_node, source, "a card")
        if isinstance(code, str) and code != code.strip():  # the schema's pattern has no spaces either
            raise source.error(card_node, f"unknown card {short(code)!r}: no spaces around a card")
        try:
            cards.append(parse_card(str(code)))
        except RulesdocError as error:
            raise source.error(card_node, error.message) from None
    opened = _boolean(fields["opened"], source, "opened") if "opened" in fields else True
    return Hand(tuple(cards), opened)


def parse_round(node: Node, source: Source, what: str = "round") -> Round:
    """Read a round situation: hands, who went out (absent for a blocked round), hand rummy."""
    fields = mapping(node, source, what, ("hands",), ("went_out", "hand_rummy"))
    hand_nodes = sequence(fields["hands"], source, "hands")
    # Bounded before anything is built: through YAML aliases (`- *hand`) a few bytes can name a
    # hand, or a list of cards, again and again. Every seat but one holds a card, so a round of
    # more seats than that cannot be dealt; the engine names the rules' own bounds below these.
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
    if "went_out" in fields and _scalar(fields["went_out"], source, "went_out") is not None:
        went_out = _integer(fields["went_out"], source, "went_out", minimum=0)
        if went_out >= len(hands):
            raise source.error(
                fields["went_out"], f"went_out is seat {went_out}, but seats run from 0 to {len(hands) - 1}"
            )
    hand_rummy = _boolean(fields["hand_rummy"], source, "hand_rummy") if "hand_rummy" in fields else False
    return Round(hands, went_out, hand_rummy)


# ---------------------------------------------------------------- rules


def _example(node: Node, source: Source, index: int) -> Example:
    what = f"examples[{index}]"
    fields = mapping(node, source, what, ("id", "title", "situation"), ("note", "illustrates"))
    example_id = _text(fields["id"], source, "id")
    raw_id = _scalar(fields["id"], source, "id")
    if not _ID_PATTERN.match(example_id) or raw_id != example_id:  # spaces around it too: the schema's
        raise source.error(
            fields["id"], f"example id {short(example_id)!r} must be lowercase words joined by '-'"
        )
    illustrates = None
    if "illustrates" in fields:
        name = _text(fields["illustrates"], source, "illustrates")
        names = [reason.value for reason in Reason]
        if name not in names:
            close = difflib.get_close_matches(name, names, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else f"; expected one of: {', '.join(names)}"
            raise source.error(fields["illustrates"], f"unknown rule {short(name)!r}{hint}")
        illustrates = Reason(name)
    return Example(
        id=example_id,
        title=_text(fields["title"], source, "title"),
        situation=parse_round(fields["situation"], source, f"{what}.situation"),
        note=_text(fields["note"], source, "note") if "note" in fields else None,
        illustrates=illustrates,
        line=node.start_mark.line + 1,
    )


def parse_rules(text: str, path: str = "rules.yaml") -> Rules:
    source = Source(path)
    root = compose(text, source)
    if root is None:
        raise RulesdocError("the rules file is empty", Location(path))
    top = mapping(
        root,
        source,
        "the rules",
        ("players", "card_values", "melds", "hand_rummy", "never_opened", "target"),
        ("examples",),
    )
    players = mapping(top["players"], source, "players", ("min", "max"))
    values = mapping(top["card_values"], source, "card_values", ("joker", "ace", "face"))
    melds = mapping(top["melds"], source, "melds", ("ace_low",))
    rummy = mapping(top["hand_rummy"], source, "hand_rummy", ("penalty",))
    never = mapping(top["never_opened"], source, "never_opened", ("surcharge", "cap", "cap_target_fraction"))
    target = mapping(top["target"], source, "target", ("per_opponent",))

    players_min = _integer(players["min"], source, "players.min", minimum=2)
    players_max = _integer(players["max"], source, "players.max", minimum=2)
    if players_max > MAX_PLAYERS:
        raise source.error(
            players["max"], f"players.max is {players_max}; two decks deal at most {MAX_PLAYERS}"
        )
    if players_min > players_max:
        raise source.error(
            players["min"], f"players.min ({players_min}) is above players.max ({players_max})"
        )

    fraction_node = never["cap_target_fraction"]
    raw_fraction = _scalar(fraction_node, source, "never_opened.cap_target_fraction")
    if isinstance(raw_fraction, bool) or not isinstance(raw_fraction, (int, float)):
        raise source.error(
            fraction_node,
            f"never_opened.cap_target_fraction must be a number, not {short(fraction_node.value)!r}",
        )
    if not math.isfinite(raw_fraction):
        raise source.error(
            fraction_node,
            f"never_opened.cap_target_fraction must be a finite number, not {short(fraction_node.value)!r}",
        )
    fraction = Fraction(str(raw_fraction))
    if not 0 < fraction <= 1:
        raise source.error(
            fraction_node,
            f"never_opened.cap_target_fraction must be above 0 and at most 1, not {raw_fraction}",
        )

    examples: tuple[Example, ...] = ()
    if "examples" in top:
        nodes = sequence(top["examples"], source, "examples")
        examples = _each(nodes, lambda n, i: _example(n, source, i))
        seen: set[str] = set()
        for node, example in zip(nodes, examples, strict=True):
            if example.id in seen:
                raise source.error(node, f"duplicate example id {example.id!r}")
            seen.add(example.id)

    rules = Rules(
        players_min=players_min,
        players_max=players_max,
        card_values=CardValues(
            joker=_integer(values["joker"], source, "card_values.joker"),
            ace=_integer(values["ace"], source, "card_values.ace"),
            face=_integer(values["face"], source, "card_values.face"),
        ),
        ace_low=_integer(melds["ace_low"], source, "melds.ace_low"),
        hand_rummy_penalty=_integer(rummy["penalty"], source, "hand_rummy.penalty"),
        never_opened_surcharge=_integer(never["surcharge"], source, "never_opened.surcharge"),
        never_opened_cap=_integer(never["cap"], source, "never_opened.cap"),
        cap_target_fraction=fraction,
        target_per_opponent=_integer(target["per_opponent"], source, "target.per_opponent"),
        examples=examples,
        source=path,
    )
    _check_target_share(rules, target["per_opponent"], raw_fraction, source)
    return rules


def _check_target_share(rules: Rules, node: Node, fraction: float, source: Source) -> None:
    """Refuse a target share that rounds down to 0: a never-opened loser would pay nothing.

    The share grows with the player count, so the fewest players decide.
    """
    from generator.engine import scoring as engine  # the engine depends on the model only

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
    from generator.engine.scoring import check_example_illustrates  # the engine depends on the model only

    path = Path(path)
    rules = parse_rules(read_text(path, root), display_path(path))
    check_example_illustrates(rules)
    return rules
