"""Plural-Forms headers, read as data and compared by meaning.

A catalog's ``Plural-Forms: nplurals=3; plural=(n==1 ? 0 : ...);`` is a C expression.
It is parsed here into a small tree and evaluated by this module: never handed to
Python's ``eval`` (as ``gettext.c2py`` does), so a header cannot run code, and its
size and nesting are bounded before any work is done.

Two rules are the same when they pick the same form for every count a page can show:
:func:`same_meaning` compares them on 0..1000 and a spread of large numbers, so
``plural=n != 1;`` (Weblate) and ``plural=(n != 1);`` (Babel) agree, while French's
gettext ``(n > 1)`` and CLDR's three forms do not. Page counts are whole numbers:
gettext has no decimals, so neither does the comparison.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from babel import Locale
from babel.messages.plurals import get_plural

from rulesdoc.errors import short

MAX_FORMS = 6  # CLDR's most (Arabic, Welsh): more is a mistake, and Babel would pad every entry
MAX_EXPRESSION = 400  # characters: the longest CLDR rule in gettext form is ~200
MAX_NESTING = 40
SAMPLES: tuple[int, ...] = (*range(0, 1001), 1001, 1100, 2000, 10**4, 10**5, 10**6, 2 * 10**6, 10**7, 10**9)

Rule = Callable[[int], int]


class PluralFormsError(ValueError):
    """A Plural-Forms header that cannot be used; the message says why, in one line."""


@dataclass(frozen=True)
class PluralForms:
    """A parsed header: how many forms, and which form a count takes."""

    count: int
    expression: str  # as written, whitespace normalized
    select: Rule
    picks: tuple[int, ...]  # the form of each of SAMPLES, worked out once

    @property
    def header(self) -> str:
        return f"nplurals={self.count}; plural={self.expression};"

    def __reduce__(self) -> tuple[Callable[[int, str], PluralForms], tuple[int, str]]:
        """Pickled as its header (a parsed catalog kept between runs, rulesdoc.catalog.kept):
        ``select`` is made from the expression again."""
        return (_parse_checked, (self.count, self.expression))

    @functools.cached_property
    def by_form(self) -> dict[int, tuple[int, ...]]:
        """Which sample counts each form is used for: the lint names "n = 0, 1" for form 0."""
        used: dict[int, list[int]] = {index: [] for index in range(self.count)}
        for n, form in zip(SAMPLES, self.picks, strict=True):
            used[form].append(n)
        return {index: tuple(numbers) for index, numbers in used.items()}

    def samples_by_form(self) -> dict[int, tuple[int, ...]]:
        return self.by_form


_HEADER = re.compile(r"\s*nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*(.*?)\s*;?\s*")
_TOKEN = re.compile(r"\s*(?:(\d+)|(n)|(\|\||&&|==|!=|<=|>=|[-+*/%<>!?:()]))")


def parse(header: str) -> PluralForms:
    """Parse ``nplurals=N; plural=EXPR;``; raise :class:`PluralFormsError` for anything else."""
    match = _HEADER.fullmatch(header)
    if match is None:
        raise PluralFormsError(f"Plural-Forms {short(header)!r} is not 'nplurals=N; plural=EXPRESSION;'")
    digits, text = match.group(1), " ".join(match.group(2).split())
    if len(digits) > 2 or not 1 <= int(digits) <= MAX_FORMS:
        shown = short(digits, 12)
        raise PluralFormsError(f"nplurals={shown}: a language has 1 to {MAX_FORMS} plural forms (CLDR)")
    count = int(digits)
    if len(text) > MAX_EXPRESSION:
        raise PluralFormsError(
            f"the plural expression is {len(text)} characters long; at most {MAX_EXPRESSION}"
        )
    return _parse_checked(count, text)


@functools.lru_cache(maxsize=64)
def _parse_checked(count: int, text: str) -> PluralForms:
    """Every catalog of a language has the same header: parse and check it once per run."""
    strict = _Parser(text).expression_only()
    try:
        picks = tuple(strict(n) for n in SAMPLES)
    except _DivisionByZero:
        n = next(n for n in SAMPLES if _divides_by_zero(strict, n))
        raise PluralFormsError(
            f"the plural expression divides by zero for n = {n} (msgfmt -c refuses it; gettext would crash)"
        ) from None
    for n, form in zip(SAMPLES, picks, strict=True):
        if not 0 <= form < count:
            raise PluralFormsError(
                f"the plural expression picks form {form} for n = {n}; nplurals is {count}"
            )

    def select(n: int) -> int:  # a count past SAMPLES that divides by zero takes form 0
        try:
            return strict(n)
        except _DivisionByZero:
            return 0

    return PluralForms(count, text, select, picks)


def _divides_by_zero(rule: Rule, n: int) -> bool:
    try:
        rule(n)
    except _DivisionByZero:
        return True
    return False


@functools.cache
def cldr(locale: Locale) -> PluralForms:
    """CLDR's rule for a locale, as Babel gives it in gettext form."""
    count, expression = get_plural(locale)
    return parse(f"nplurals={count}; plural={expression};")


def same_meaning(catalog: PluralForms, reference: PluralForms) -> bool:
    """The same forms for the same counts, in the same order (the order is the msgstr[N] index)."""
    return catalog.count == reference.count and catalog.picks == reference.picks


def describe(rule: PluralForms) -> str:
    """``form 0: n = 0, 1; form 1: n = 2, 3, 4, …`` for a message a translator can act on."""
    parts = []
    for index, numbers in rule.samples_by_form().items():
        shown = ", ".join(str(n) for n in numbers[:3]) + (", …" if len(numbers) > 3 else "")
        parts.append(f"form {index}: n = {shown or 'none'}")
    return "; ".join(parts)


# ---------------------------------------------------------------- the expression parser

# Binary operators by precedence, lowest first, as in C.
_LEVELS: tuple[dict[str, Callable[[int, int], int]], ...] = (
    {"||": lambda a, b: int(bool(a) or bool(b))},
    {"&&": lambda a, b: int(bool(a) and bool(b))},
    {"==": lambda a, b: int(a == b), "!=": lambda a, b: int(a != b)},
    {"<": lambda a, b: int(a < b), ">": lambda a, b: int(a > b),
     "<=": lambda a, b: int(a <= b), ">=": lambda a, b: int(a >= b)},
    {"+": lambda a, b: a + b, "-": lambda a, b: a - b},
    {"*": lambda a, b: a * b, "/": lambda a, b: _divide(a, b), "%": lambda a, b: _divide(a, b, True)},
)  # fmt: skip


class _DivisionByZero(ArithmeticError):
    """A rule divided by zero for a count; C's and Python's gettext would crash there."""


def _divide(a: int, b: int, remainder: bool = False) -> int:
    """/ and % on counts; by zero, :class:`_DivisionByZero` (msgfmt refuses the rule)."""
    if b == 0:
        raise _DivisionByZero
    return a % b if remainder else a // b


class _Parser:
    """Recursive descent over C's conditional, logical, comparison and arithmetic operators."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = self._tokenize(text)
        self.position = 0
        self.depth = 0

    @staticmethod
    def _tokenize(text: str) -> list[str]:
        tokens, position = [], 0
        while position < len(text.rstrip()):
            match = _TOKEN.match(text, position)
            if match is None:
                shown = text[position : position + 12].strip()
                raise PluralFormsError(
                    f"the plural expression has {shown!r}: only n, numbers and C operators"
                )
            tokens.append(match.group(match.lastindex or 0))
            position = match.end()
        return tokens

    def expression_only(self) -> Rule:
        rule = self._conditional()
        if self.position != len(self.tokens):
            raise PluralFormsError(
                f"the plural expression has {self.tokens[self.position]!r} where it should end"
            )
        return rule

    def _peek(self) -> str | None:
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def _take(self, expected: str | None = None) -> str:
        token = self._peek()
        if token is None or (expected is not None and token != expected):
            raise PluralFormsError(
                f"the plural expression {self.text!r} is incomplete: expected {expected or 'more'}"
            )
        self.position += 1
        return token

    def _conditional(self) -> Rule:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise PluralFormsError(f"the plural expression nests deeper than {MAX_NESTING}")
        test = self._binary(0)
        if self._peek() == "?":
            self._take("?")
            yes = self._conditional()
            self._take(":")
            no = self._conditional()
            self.depth -= 1
            return lambda n: yes(n) if test(n) else no(n)
        self.depth -= 1
        return test

    def _binary(self, level: int) -> Rule:
        if level == len(_LEVELS):
            return self._unary()
        left = self._binary(level + 1)
        while (token := self._peek()) in _LEVELS[level]:
            self._take()
            right = self._binary(level + 1)
            left = _combine(_LEVELS[level][token], left, right)
        return left

    def _unary(self) -> Rule:
        token = self._take()
        if token == "!":
            inner = self._unary()
            return lambda n: int(not inner(n))
        if token == "-":
            inner = self._unary()
            return lambda n: -inner(n)
        if token == "(":
            inner = self._conditional()
            self._take(")")
            return inner
        if token == "n":
            return lambda n: n
        if token.isdigit():
            value = int(token)
            return lambda n: value
        raise PluralFormsError(f"the plural expression has {token!r} where a value should be")


def _combine(operator: Callable[[int, int], int], left: Rule, right: Rule) -> Rule:
    return lambda n: operator(left(n), right(n))


def remap_forms(texts: tuple[str, ...], old: PluralForms | None, new: PluralForms) -> tuple[str, ...]:
    """Each new form takes the old form that the same count picked: the meaning stays.

    Only when the old header describes the entry (as many forms written as it says); an
    entry the header does not describe, or a mapping that would leave a written
    translation out, keeps its forms where they are: no translation is ever erased.
    """
    positional = tuple(texts[i] if i < len(texts) else "" for i in range(new.count))
    if old is None or old.count != len(texts):
        return positional
    result = []
    for index, numbers in new.samples_by_form().items():
        source = old.select(numbers[0]) if numbers else index
        result.append(texts[source] if source < len(texts) else "")
    kept = set(result)
    if any(text and text not in kept for text in texts):
        return positional
    return tuple(result)
