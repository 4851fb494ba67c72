"""``rulesdoc report --base REV``: what a rule change does, for the pull request that makes it.

Reviewers of a rules pull request see a YAML diff; this shows its consequences, computed by
the engine on both sides: every value before → after, every worked example's scores before →
after (by example id; new and removed examples noted), the target and never-opened cap per
player count, and per language the messages that become fuzzy, new (untranslated) or dropped
once the catalogs are updated against the new extraction.

The base comes from git (``git show REV:rules.yaml`` and the base catalogs); the catalogs'
update is Babel's ``Catalog.update`` on copies read into memory. Nothing is written.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator import engine
from generator.errors import Location, RulesdocError, display_path
from generator.export import PlayerCount, player_counts, rule_values
from generator.markup import escape_text
from generator.model import Rules
from generator.rules import load_rules, parse_rules

Value = int | float


@dataclass(frozen=True)
class ValueChange:
    key: str  # dotted, as in rules.yaml: "card_values.joker"
    before: Value | None  # None: the key did not exist on that side
    after: Value | None

    @property
    def changed(self) -> bool:
        return self.before != self.after


@dataclass(frozen=True)
class Outcome:
    """An example's result on one side."""

    scores: tuple[int, ...]
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class ExampleChange:
    id: str
    title: str  # the new title, or the old one of a removed example
    before: Outcome | None  # None: the example is new
    after: Outcome | None  # None: the example was removed

    @property
    def status(self) -> str:
        if self.before is None:
            return "new"
        if self.after is None:
            return "removed"
        return "unchanged" if self.before == self.after else "changed"


@dataclass(frozen=True)
class PlayerCountChange:
    players: int
    before: PlayerCount | None  # None: the count was not allowed on that side
    after: PlayerCount | None

    @property
    def changed(self) -> bool:
        return self.before != self.after


@dataclass(frozen=True)
class MessageChange:
    msgid: str
    context: str | None
    previous: str | None = None  # a fuzzy message: the msgid whose translation Babel carried over


@dataclass(frozen=True)
class LanguageChange:
    code: str
    new_catalog: bool  # no catalog for this language in the base revision
    fuzzy: tuple[MessageChange, ...]  # translated, but fuzzy after the update (and not fuzzy before)
    untranslated: tuple[MessageChange, ...]  # new messages without a translation
    dropped: tuple[MessageChange, ...]  # translated messages the new extraction no longer has


@dataclass(frozen=True)
class Report:
    base: str  # the revision as given
    commit: str  # what it resolved to
    values: tuple[ValueChange, ...]
    examples: tuple[ExampleChange, ...]
    player_counts: tuple[PlayerCountChange, ...]
    languages: tuple[LanguageChange, ...]


# ---------------------------------------------------------------- git


@dataclass(frozen=True)
class Git:
    """Reads files of one revision of the repository holding ``folder``."""

    folder: Path
    rev: str

    def run(self, *args: str) -> subprocess.CompletedProcess[bytes]:
        try:
            return subprocess.run(["git", "-C", str(self.folder), *args], capture_output=True, check=False)
        except FileNotFoundError:
            raise RulesdocError("git is not installed; report reads the base revision from git") from None

    def commit(self) -> str:
        """The revision's commit, or the one-line reason there is none."""
        if self.rev.startswith("-"):  # it would be read as an option of git
            raise RulesdocError(f"--base {self.rev!r} is not a git revision")
        inside = self.run("rev-parse", "--git-dir")
        if inside.returncode != 0:
            said = inside.stderr.decode(errors="replace").strip().splitlines()
            why = said[0].removeprefix("fatal: ") if said else "not a git repository"
            raise RulesdocError(
                f"report compares with a git revision, but git says: {why}",
                Location(display_path(self.folder)),
            )
        found = self.run("rev-parse", "--verify", "--quiet", f"{self.rev}^{{commit}}")
        if found.returncode != 0:
            raise RulesdocError(
                f"--base {self.rev!r} is not a revision of this repository (try origin/main, HEAD~1)"
            )
        return found.stdout.decode().strip()

    def relative(self, path: Path) -> str:
        return path.resolve().relative_to(self.folder).as_posix()

    def show(self, path: Path) -> bytes | None:
        """The file's bytes in the revision; None if it did not exist there."""
        shown = self.run("show", f"{self.rev}:./{self.relative(path)}")
        return shown.stdout if shown.returncode == 0 else None


# ---------------------------------------------------------------- the comparison


def _flatten(values: dict[str, Any], prefix: str = "") -> dict[str, Value]:
    flat: dict[str, Value] = {}
    for key, value in values.items():
        if isinstance(value, dict):
            flat.update(_flatten(value, f"{prefix}{key}."))
        else:
            flat[prefix + key] = value
    return flat


def value_changes(before: Rules, after: Rules) -> tuple[ValueChange, ...]:
    old = _flatten(rule_values(before, with_examples=False))
    new = _flatten(rule_values(after, with_examples=False))
    keys = list(new) + [key for key in old if key not in new]
    return tuple(ValueChange(key, old.get(key), new.get(key)) for key in keys)


def _outcomes(rules: Rules, where: str) -> dict[str, tuple[str, Outcome]]:
    """Each example's title and result, by id."""
    found = {}
    for example in rules.examples:
        try:
            result = engine.score_round(rules, example.situation)
        except RulesdocError as error:
            raise RulesdocError(
                f"example {example.id!r}: {error.message}", Location(where, example.line)
            ) from None
        outcome = Outcome(tuple(result.scores), tuple(p.reason.value for p in result.players))
        found[example.id] = (example.title, outcome)
    return found


def example_changes(before: Rules, after: Rules) -> tuple[ExampleChange, ...]:
    """Every example of the new rules in their order, then the removed ones."""
    old, new = _outcomes(before, before.source), _outcomes(after, after.source)
    changes = [
        ExampleChange(example_id, title, old[example_id][1] if example_id in old else None, outcome)
        for example_id, (title, outcome) in new.items()
    ]
    changes += [
        ExampleChange(example_id, title, outcome, None)
        for example_id, (title, outcome) in old.items()
        if example_id not in new
    ]
    return tuple(changes)


def player_count_changes(before: Rules, after: Rules) -> tuple[PlayerCountChange, ...]:
    old = {count.players: count for count in player_counts(before)}
    new = {count.players: count for count in player_counts(after)}
    return tuple(PlayerCountChange(n, old.get(n), new.get(n)) for n in sorted(old.keys() | new.keys()))


def _text(message_id: str | tuple[str, ...] | list[str]) -> str:
    return message_id if isinstance(message_id, str) else message_id[0]


def _translated(string: object) -> bool:
    forms = tuple(string) if isinstance(string, (tuple, list)) else (string,)
    return all(forms)


def translation_changes(root: Path, locales: Path, git: Git) -> tuple[LanguageChange, ...]:
    """Per catalog: update a copy against the new extraction, compare with the base catalog."""
    # Babel's extraction costs the other commands nothing: imported here.
    from generator import po
    from generator.catalogs import extract, prefill_theme
    from generator.i18n import catalog_codes, catalog_path

    codes = catalog_codes(locales)
    if not codes:
        return ()  # a project in one language: nothing to extract for
    template = extract(root)
    languages = []
    for code in codes:
        path = catalog_path(locales, code)
        updated = po.load(path, root).catalog  # a copy in memory: the file is never written
        known = {po.key_of(m) for m in updated if m.id}
        updated.update(template, update_header_comment=False)
        prefill_theme(updated, known)  # as `catalog update` does
        data = git.show(path)
        where = f"{git.rev}:{git.relative(path)}"
        try:
            base = po.parse(data, path, where).catalog if data is not None else None
        except RulesdocError as error:
            raise RulesdocError(
                f"invalid catalog in the base revision: {error.message}", Location(where)
            ) from None
        fuzzy, untranslated = [], []
        for message in updated:
            if not message.id:
                continue  # the header
            before = base.get(message.id, message.context) if base is not None else None
            change = MessageChange(_text(message.id), message.context)
            if message.fuzzy and _translated(message.string) and not (before is not None and before.fuzzy):
                previous = message.previous_id[0] if message.previous_id else None
                fuzzy.append(MessageChange(change.msgid, change.context, previous))
            elif not _translated(message.string) and before is None:
                untranslated.append(change)
        carried = {change.previous for change in fuzzy}  # their translation lives on, as a fuzzy one
        dropped = [
            MessageChange(_text(message.id), message.context)
            for message in (base or ())
            if message.id
            and _translated(message.string)
            and updated.get(message.id, message.context) is None
            and _text(message.id) not in carried
        ]
        languages.append(
            LanguageChange(code, base is None, tuple(fuzzy), tuple(untranslated), tuple(dropped))
        )
    return tuple(languages)


def compare(root: Path, rules_path: Path, locales: Path, rev: str) -> Report:
    """The report of the working tree's rules and catalogs against revision ``rev``."""
    after = load_rules(rules_path)
    git = Git(rules_path.resolve().parent, rev)
    commit = git.commit()
    where = f"{rev}:{git.relative(rules_path)}"
    text = git.show(rules_path)
    if text is None:
        raise RulesdocError("no such file in the base revision", Location(where))
    try:
        before = parse_rules(text.decode("utf-8"), where)
    except UnicodeDecodeError as error:
        raise RulesdocError(f"not UTF-8 text ({error.reason})", Location(where)) from None
    return Report(
        base=rev,
        commit=commit,
        values=value_changes(before, after),
        examples=example_changes(before, after),
        player_counts=player_count_changes(before, after),
        languages=translation_changes(root, locales, Git(locales.resolve(), rev)),
    )


# ---------------------------------------------------------------- formats


def _number(value: Value | None) -> str:
    return "—" if value is None else str(value)


def _scores(outcome: Outcome | None) -> str:
    return "—" if outcome is None else ", ".join(str(score) for score in outcome.scores)


def _cap(count: PlayerCount | None) -> str:
    if count is None:
        return "—"
    which = "fixed" if count.cap_rule.value == "capped_fixed" else "target share"
    return f"{count.never_opened_cap} ({which})"


def _row(*cells: str) -> str:
    return "| " + " | ".join(cells) + " |"


def _bold_if(changed: bool, text: str) -> str:
    return f"**{text}**" if changed else text


def _quoted(message: MessageChange) -> str:
    text = f"“{escape_text(message.msgid)}”"
    if message.context:
        text += f" ({escape_text(message.context)})"
    if message.previous:
        text += f", was “{escape_text(message.previous)}”"
    return text


def markdown(report: Report) -> str:
    """For a pull-request comment or ``$GITHUB_STEP_SUMMARY``."""
    lines = [f"## Rule change against `{report.base}` ({report.commit[:12]})", ""]

    changed = [change for change in report.values if change.changed]
    lines += ["### Values", ""]
    if changed:
        lines += [_row("Value", "Before", "After"), _row("---", "---:", "---:")]
        lines += [
            _row(f"`{change.key}`", _number(change.before), f"**{_number(change.after)}**")
            for change in changed
        ]
        lines += ["", f"{len(report.values) - len(changed)} other values unchanged."]
    else:
        lines += ["No value changed."]

    lines += ["", "### Worked examples", ""]
    if report.examples:
        lines += [_row("Example", "Scores before", "Scores after", ""), _row("---", "---", "---", "---")]
        for example in report.examples:
            status = "" if example.status == "unchanged" else f"**{example.status}**"
            name = f"`{example.id}` {escape_text(example.title)}"
            lines.append(_row(name, _scores(example.before), _scores(example.after), status))
    else:
        lines.append("No worked examples.")

    lines += ["", "### Targets and never-opened caps", ""]
    lines += [
        _row("Players", "Target before", "Target after", "Cap before", "Cap after"),
        _row("---:", "---:", "---:", "---:", "---:"),
    ]
    for row in report.player_counts:
        target_before = _number(row.before.target if row.before else None)
        target_after = _number(row.after.target if row.after else None)
        cap_before, cap_after = _cap(row.before), _cap(row.after)
        lines.append(
            _row(
                str(row.players),
                target_before,
                _bold_if(target_before != target_after, target_after),
                cap_before,
                _bold_if(cap_before != cap_after, cap_after),
            )
        )

    lines += ["", "### Translations", ""]
    if not report.languages:
        lines.append("No catalogs.")
    else:
        lines += [
            "What `make update` will do to each catalog: messages that become fuzzy (a translator must "
            "review them), new messages without a translation, translations no longer used.",
            "",
            _row("Language", "Become fuzzy", "New, untranslated", "Dropped"),
            _row("---", "---:", "---:", "---:"),
        ]
        for language in report.languages:
            name = f"`{language.code}`" + (" (new catalog)" if language.new_catalog else "")
            counts = (len(language.fuzzy), len(language.untranslated), len(language.dropped))
            lines.append(_row(name, *(str(count) for count in counts)))
        for language in report.languages:
            groups = (
                ("fuzzy", language.fuzzy),
                ("new", language.untranslated),
                ("dropped", language.dropped),
            )
            items = [f"- {kind}: {_quoted(message)}" for kind, messages in groups for message in messages]
            if items:
                summary = f"{language.code}: {len(items)} message(s)"
                lines += ["", f"<details><summary>{summary}</summary>", "", *items, "", "</details>"]
    return "\n".join(lines) + "\n"


def _outcome_json(outcome: Outcome | None) -> dict[str, Any] | None:
    return None if outcome is None else {"scores": list(outcome.scores), "reasons": list(outcome.reasons)}


def _count_json(count: PlayerCount | None) -> dict[str, Any] | None:
    if count is None:
        return None
    return {
        "target": count.target,
        "never_opened_cap": count.never_opened_cap,
        "never_opened_cap_rule": count.cap_rule.value,
    }


def _messages_json(messages: Sequence[MessageChange]) -> list[dict[str, Any]]:
    return [{"msgid": m.msgid, "context": m.context, "previous": m.previous} for m in messages]


def as_json(report: Report) -> str:
    """For tools: the same content, every value and example included, changed or not."""
    document = {
        "base": report.base,
        "commit": report.commit,
        "values": [
            {"key": c.key, "before": c.before, "after": c.after, "changed": c.changed} for c in report.values
        ],
        "examples": [
            {
                "id": e.id,
                "title": e.title,
                "status": e.status,
                "before": _outcome_json(e.before),
                "after": _outcome_json(e.after),
            }
            for e in report.examples
        ],
        "player_counts": [
            {
                "players": p.players,
                "before": _count_json(p.before),
                "after": _count_json(p.after),
                "changed": p.changed,
            }
            for p in report.player_counts
        ],
        "languages": [
            {
                "code": language.code,
                "new_catalog": language.new_catalog,
                "fuzzy": _messages_json(language.fuzzy),
                "untranslated": _messages_json(language.untranslated),
                "dropped": _messages_json(language.dropped),
            }
            for language in report.languages
        ],
    }
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


FORMATS: dict[str, Callable[[Report], str]] = {"markdown": markdown, "json": as_json}
