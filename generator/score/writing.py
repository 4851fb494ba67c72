"""``rulesdoc score``: rounds read, scored and written one at a time.

Memory stays bounded whatever the number of rounds: the input is read round by round
(:class:`rulesdoc.score.reading.RoundStream`), a game keeps only its running totals
(:class:`rulesdoc.engine.scoring.Game`), and each round's result is written once it is known, in the
bytes the whole document would have had (``json.dumps(..., indent=2)``, or the text tables).

Output is held back up to :data:`HOLD_CHARS`, so an input refused within its first rounds
(any input of a few thousand rounds) writes nothing, as when everything was read first. Past
that, results are written as they come, and an error stops the output where it is: the rounds
before it stay written (the JSON unterminated, so no reader takes it for whole) and the exit
status is 2.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rulesdoc.engine import scoring as engine
from rulesdoc.engine.model import Round, Rules
from rulesdoc.errors import Location, RulesdocError
from rulesdoc.score.reading import Form, RoundStream
from rulesdoc.score.table import BLOCK_SEPARATOR, game_end_block, round_block

Write = Callable[[str], None]
HOLD_CHARS = 1024 * 1024  # about 4 000 rounds of JSON


class HeldOutput:
    """Text held back until :meth:`release`, or until there is more than ``hold`` of it."""

    def __init__(self, write: Write, hold: int = HOLD_CHARS) -> None:
        self._write = write
        self._hold = hold
        self._held: list[str] | None = []
        self._size = 0

    def write(self, text: str) -> None:
        if self._held is None:
            self._write(text)
            return
        self._held.append(text)
        self._size += len(text)
        if self._size > self._hold:
            self.release()

    def release(self) -> None:
        """Write what is held; from now on, write at once. Not reached when a round is refused:
        ``score`` then writes nothing (under ``hold``), so a bad input leaves no half-written output."""
        if self._held:
            self._write("".join(self._held))
        self._held = None


def score(rules: Rules, stream: RoundStream, text: bool, write: Write) -> None:
    """Score every round of ``stream`` and write the results, as JSON or (``text``) as tables."""
    output = HeldOutput(write)
    writer: _Writer = _Text(stream.form, output.write) if text else _Json(stream.form, output.write)
    game = engine.Game(rules) if stream.form == "game" else None
    for situation, where in stream:
        with _at(where):
            if game is None:
                result = engine.score_round(rules, situation)
            else:
                engine.validate_round(rules, situation)  # an impossible round says so first
                result = game.add(situation)
        writer.round(situation, result)
    writer.end(game)
    output.release()


@contextmanager
def _at(where: Location) -> Iterator[None]:
    """The engine's errors, located at the round they are about."""
    try:
        yield
    except RulesdocError as error:
        raise RulesdocError(error.message, where) from None


def round_json(result: engine.RoundResult) -> dict[str, object]:
    return {
        "scores": result.scores,
        "winners": result.winners,
        "target": result.target,
        "reasons": [p.reason.value for p in result.players],
    }


class _Writer:
    def __init__(self, form: Form, write: Write) -> None:
        self.form = form
        self.write = write
        self.count = 0  # rounds written

    def round(self, situation: Round, result: engine.RoundResult) -> None:
        raise NotImplementedError

    def end(self, game: engine.Game | None) -> None:
        raise NotImplementedError


class _Json(_Writer):
    """``json.dumps(document, ensure_ascii=False, indent=2)``, a round at a time.

    The document is one round's result, a list of them, or a game: ``{"rounds": [...],
    "totals": ..., "target": ..., "finished": ..., "winner": ..., "extra_round": ...}``.
    """

    def round(self, situation: Round, result: engine.RoundResult) -> None:
        item = json.dumps(round_json(result), ensure_ascii=False, indent=2)
        if self.form == "round":
            self.write(item + "\n")
            return
        if self.count:
            opening = ",\n"
        else:
            opening = "[\n" if self.form == "list" else '{\n  "rounds": [\n'
        indent = "\n  " if self.form == "list" else "\n    "  # every line of the item, one level in
        self.write(opening + indent[1:] + item.replace("\n", indent))
        self.count += 1

    def end(self, game: engine.Game | None) -> None:
        if self.form == "list":
            self.write("\n]\n")
        elif game is not None:
            rest = {
                "totals": list(game.totals),
                "target": game.target,
                "finished": game.finished,
                "winner": game.winner,
                "extra_round": game.extra_round,
            }
            # The rest of the game's object, as its own dump indents it: drop that dump's "{\n".
            self.write("\n  ],\n" + json.dumps(rest, ensure_ascii=False, indent=2)[2:] + "\n")


class _Text(_Writer):
    """The text tables: a round; a list's rounds under their numbers; a game's, then its totals.

    A list of one round is shown as that round, without a number: the first round of a list
    waits until the second shows it is not alone.
    """

    def __init__(self, form: Form, write: Write) -> None:
        super().__init__(form, write)
        self.first: tuple[Round, engine.RoundResult] | None = None

    def round(self, situation: Round, result: engine.RoundResult) -> None:
        self.count += 1
        if self.form == "round":
            self.write(round_block(situation, result) + "\n")
            return
        if self.form == "list" and self.count == 1:
            self.first = (situation, result)
            return
        if self.first is not None:
            self.write(round_block(*self.first, 1))
            self.first = None
        separator = BLOCK_SEPARATOR if self.count > 1 else ""
        self.write(separator + round_block(situation, result, self.count))

    def end(self, game: engine.Game | None) -> None:
        if self.first is not None:  # a list of one round
            self.write(round_block(*self.first) + "\n")
        elif game is not None:
            self.write(BLOCK_SEPARATOR + game_end_block(game) + "\n")
        elif self.form == "list":
            self.write("\n")
