"""Babel extraction method for ``rules.yaml``: example titles and notes, card names, and the
words of the player counts the rules may allow.

Registered in ``babel.cfg`` (``[rulesdoc.i18n.extract:extract_rules: rules.yaml]``) and as
the ``rulesdoc_rules`` entry point, so ``pybabel extract`` finds every string with
its source line and a translator comment.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from rulesdoc.engine.cards import ALL_CARDS
from rulesdoc.errors import Location, RulesdocError, display_path
from rulesdoc.i18n.translate import (
    CARD_CONTEXT,
    COUNT_CONTEXT,
    COUNT_WORDS,
    LIST_CONTEXT,
    LIST_END_OR,
    english_card_name,
)
from rulesdoc.io import files
from rulesdoc.io.yamlload import Source, compose

ExtractResult = tuple[int, str, "str | tuple[str, ...]", list[str]]

_CARD_COMMENT = (
    "A card's name, shown on a card chip in the worked examples. Write the whole name as "
    "your language says it: word order and grammar are yours (Danish: 'hjerter es')."
)

_COUNT_COMMENT = (
    "A number of players, as a sentence of the scoring page writes it ('With two or three players, "
    "both caps are equal'; alternatives are joined by 'or'). Write the word your language uses "
    "there, agreeing with 'players' where it must (Portuguese 'dois'); where your language writes "
    "small counts as digits, write the digit."
)


_LIST_COMMENT = (
    "The end of a list of three or more alternatives, as a sentence of the scoring page joins "
    "player counts ('With two, three, or four players, ...'): %(items)s is the list up to its last "
    "item ('two, three'), %(last)s the last item ('four'). Write the word and the punctuation your "
    "language puts before the last alternative (Malay: '%(items)s atau %(last)s', no comma). "
    "A list of two uses CLDR's pattern for two; without a translation, CLDR's end is used."
)
# Messages of this extractor that the view model fills in with %: python-format, unlike the texts
# of rules.yaml (never formatted: "50% off" is a title, not a placeholder).
FORMATTED = frozenset({(LIST_END_OR, LIST_CONTEXT)})


def extract_rules(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[ExtractResult]:
    """Yield ``(lineno, funcname, message, comments)`` as Babel's extractors do.

    The file is read as :func:`rulesdoc.spec.rules.load_rules` reads it: bounded, UTF-8, YAML
    nested at most 32 levels; what is wrong with it is the same one-line error, file and line.
    """
    name = getattr(fileobj, "name", None)
    path = display_path(name) if isinstance(name, str) else "rules.yaml"
    data = fileobj.read(files.MAX_RULES_BYTES + 1)  # Babel opened it: bound what is read
    if len(data) > files.MAX_RULES_BYTES:
        raise RulesdocError(f"file is over the limit of {files.MAX_RULES_BYTES:,} bytes", Location(path))
    root = compose(files.decode_utf8(data, path, utf8_bom=True), Source(path))
    if isinstance(root, MappingNode):
        for key, value in root.value:
            if key.value == "examples" and isinstance(value, SequenceNode):
                yield from _examples(value)
    for card in ALL_CARDS:
        # Cards are not in the file but every one of them may be dealt in an example.
        yield 0, "pgettext", (CARD_CONTEXT, english_card_name(card)), [_CARD_COMMENT]
    for word in COUNT_WORDS.values():
        # Every player count the rules may allow: a change of players.min/max needs no translator.
        yield 0, "pgettext", (COUNT_CONTEXT, word), [_COUNT_COMMENT]
    # The counts' lists of alternatives: whatever the rules, three counts may need joining.
    yield 0, "pgettext", (LIST_CONTEXT, LIST_END_OR), [_LIST_COMMENT]


def _examples(examples: SequenceNode) -> Iterator[ExtractResult]:
    for node in examples.value:
        if not isinstance(node, MappingNode):
            continue
        fields = {k.value: v for k, v in node.value if isinstance(k, ScalarNode)}
        example_id = fields.get("id")
        name = example_id.value if isinstance(example_id, ScalarNode) else "?"
        for key, what in (("title", "Title"), ("note", "Note below the title")):
            value = fields.get(key)
            if isinstance(value, ScalarNode) and isinstance(value.value, str):
                comment = f"{what} of the worked example {name!r} (rules.yaml)."
                yield value.start_mark.line + 1, "gettext", " ".join(value.value.split()), [comment]
