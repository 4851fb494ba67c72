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

import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from rulesdoc.engine import scoring as engine
from rulesdoc.engine.model import Rules
from rulesdoc.errors import Location, RulesdocError, display_path, short
from rulesdoc.io import files
from rulesdoc.spec.rules import load_rules, parse_rules
from rulesdoc.spec.rules_data import PlayerCount, player_counts, rule_values

Value = int | float
K = TypeVar("K")
V = TypeVar("V")


@dataclass(frozen=True)
class Change(Generic[K, V]):
    """One thing before → after: a value (by its dotted key) or a player count's row."""

    key: K  # "card_values.joker"; a number of players
    before: V | None  # None: it did not exist on that side
    after: V | None

    @property
    def changed(self) -> bool:
        return self.before != self.after


ValueChange = Change[str, Value]
PlayerCountChange = Change[int, PlayerCount]


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
    """Reads files of one revision of the repository holding ``folder``.

    ``rev`` is the revision as the user wrote it (echoed, cut to 60 characters); ``resolved`` its
    commit once :meth:`commit` has found it, which every read names: a form such as ``:/text``
    (the newest commit whose message matches) means nothing followed by ``:path``.
    """

    folder: Path
    rev: str
    resolved: str = ""

    @property
    def shown(self) -> str:
        return short(self.rev)

    def run(self, *args: str) -> subprocess.CompletedProcess[bytes]:
        try:
            return subprocess.run(["git", "-C", str(self.folder), *args], capture_output=True, check=False)
        except FileNotFoundError:
            raise RulesdocError("git is not installed; report reads the base revision from git") from None

    def commit(self) -> str:
        """The revision's commit, or the one-line reason there is none."""
        if self.rev.startswith("-"):  # it would be read as an option of git
            raise RulesdocError(f"--base {self.shown!r} is not a git revision")
        if self.rev.startswith("^"):  # git's "not reachable from": a set of commits left out, not one
            raise RulesdocError(
                f"--base {self.shown!r} names commits to leave out (git's ^REV), not one revision; "
                f"give the revision itself: --base {short(self.rev.lstrip('^'))}"
            )
        inside = self.run("rev-parse", "--git-dir")
        if inside.returncode != 0:
            said = inside.stderr.decode(errors="replace").strip().splitlines()
            why = said[0].removeprefix("fatal: ") if said else "not a git repository"
            raise RulesdocError(
                f"report compares with a git revision, but git says: {why}",
                Location(display_path(self.folder)),
            )
        named = self.run("rev-parse", "--verify", "--quiet", "--end-of-options", self.rev)
        if named.returncode != 0:
            raise RulesdocError(self._not_found())
        found = self.run("rev-parse", "--verify", "--quiet", f"{named.stdout.decode().strip()}^{{commit}}")
        if found.returncode != 0:  # a file (HEAD:rules.yaml) or a tree (HEAD^{tree})
            raise RulesdocError(f"--base {self.shown!r} names a git object that is not a commit")
        return found.stdout.decode().strip()

    def _not_found(self) -> str:
        """Why the revision is not there: a shallow clone has only the last commits of its history."""
        shallow = self.run("rev-parse", "--is-shallow-repository").stdout.strip() == b"true"
        if shallow:
            return (
                f"--base {self.shown!r} is not in this clone, whose history is shallow: fetch more of "
                "it (git fetch --deepen=50, or fetch-depth: 0 in actions/checkout) or the base branch "
                "(git fetch origin main)"
            )
        tries = ", ".join(rev for rev in ("origin/main", "HEAD~1") if rev != self.rev)
        return f"--base {self.shown!r} is not a revision of this repository (try {tries})"

    def relative(self, path: Path) -> str:
        """The path of the file (a symlink's target: git keeps the link, not the file) in ``folder``."""
        resolved = path.resolve()
        if not resolved.is_relative_to(self.folder.resolve()):
            raise RulesdocError(
                "is a symlink to a file outside the project; refused", Location(display_path(path))
            )
        return resolved.relative_to(self.folder.resolve()).as_posix()

    def show(self, path: Path, limit: int) -> bytes | None:
        """The file's bytes in the revision, at most ``limit`` of them; None if it did not exist there.

        Its size is asked of git first: a huge base file is refused before it is read.
        """
        name = f"{self.resolved or self.rev}:./{self.relative(path)}"
        sized = self.run("cat-file", "-s", name)
        if sized.returncode != 0:
            return None
        size = int(sized.stdout.strip() or 0)
        if size > limit:
            raise RulesdocError(
                f"file is {size:,} bytes in the base revision; the limit is {limit:,}",
                Location(f"{self.shown}:{self.relative(path)}"),
            )
        shown = self.run("cat-file", "blob", name)
        return shown.stdout[: limit + 1] if shown.returncode == 0 else None


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
    from rulesdoc.catalog import po
    from rulesdoc.catalog.budget import Budget, CatalogBudgetError
    from rulesdoc.i18n.catalogs import FuzzyBudget, merge, prefill_theme
    from rulesdoc.i18n.extraction import extract
    from rulesdoc.i18n.translate import catalog_codes, catalog_path
    from rulesdoc.i18n.verdicts import from_theme
    from rulesdoc.io.project import template_path

    codes = catalog_codes(locales)
    if not codes:
        return ()  # a project in one language: nothing to extract for
    # Counted as check counts (against messages.pot) before Babel's extraction and merging; the
    # base revision's catalogs are held to the same limits.
    pot = template_path(locales)
    budget = Budget.against(po.load(pot, root) if pot.is_file() else None)
    loaded = [budget.take(po.load(catalog_path(locales, code), root)) for code in codes]
    base_budget = Budget()
    fuzzy_budget = FuzzyBudget()  # as `catalog update` merges: the run's comparisons bounded
    template = extract(root)
    languages = []
    for code, catalog in zip(codes, loaded, strict=True):
        path = catalog.path
        updated = catalog.catalog  # a copy in memory: the file is never written
        known = {po.key_of(m) for m in updated if m.id}
        merge(updated, template, fuzzy_budget, update_header_comment=False)  # as `catalog update` merges
        prefill_theme(updated, known)  # as `catalog update` does
        data = git.show(path, files.MAX_CATALOG_BYTES)
        where = f"{git.shown}:{git.relative(path)}"
        try:
            base = base_budget.take(po.parse(data, path, where)).catalog if data is not None else None
        except CatalogBudgetError as error:
            raise RulesdocError(f"in the base revision: {error.message}", error.location) from None
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
            was_fuzzy = before is not None and before.fuzzy
            if message.fuzzy and _translated(message.string) and not from_theme(message) and not was_fuzzy:
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
    after = load_rules(rules_path, root)
    commit = Git(rules_path.resolve().parent, rev).commit()
    git = Git(rules_path.resolve().parent, rev, commit)
    where = f"{git.shown}:{git.relative(rules_path)}"
    text = git.show(rules_path, files.MAX_RULES_BYTES)
    if text is None:
        raise RulesdocError("no such file in the base revision", Location(where))
    before = parse_rules(files.decode_utf8(text, where, utf8_bom=True), where)  # as load_rules reads it
    return Report(
        base=rev,
        commit=commit,
        values=value_changes(before, after),
        examples=example_changes(before, after),
        player_counts=player_count_changes(before, after),
        # The project's folder, not the catalogs': a catalog may be a symlink to another in the project.
        languages=translation_changes(root, locales, Git(root.resolve(), rev, commit)),
    )
