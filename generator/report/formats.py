"""The rule-change report's formats: Markdown for a pull request (or ``$GITHUB_STEP_SUMMARY``),
JSON for tools."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rulesdoc.errors import short
from rulesdoc.i18n.markup import escape_text
from rulesdoc.io import files
from rulesdoc.report.changes import MessageChange, Outcome, Report, Value
from rulesdoc.spec.rules_data import PlayerCount


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


def code_span(text: str) -> str:
    """``text`` as a Markdown code span, literal whatever it holds (a git ref may hold ` < >).

    CommonMark: the fence is one backtick more than the longest run inside, and a space pads
    the text when it starts or ends with a backtick; nothing in a code span is HTML.
    """
    text = " ".join(text.split())  # one line: a line break would end the heading
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


# What GitHub acts on in a comment beyond Markdown and HTML (/work FIELD-NOTES, "GitHub"): each is
# broken by a zero-width joiner where its pattern needs two characters side by side, or, for
# math, the dollar sign put in a span (GitHub's own advice); the text reads the same.
_ZWJ = "\u200d"
_GITHUB_ACTIVE = (
    (re.compile(r"@"), "@" + _ZWJ),  # @user, @org/team mentions (and e-mail autolinks)
    (re.compile(r"#(?=\d)"), "#" + _ZWJ),  # #1 references
    (re.compile(r"(?i)\b(gh)-(?=\d)"), r"\1-" + _ZWJ),  # GH-1 references
    (re.compile(r":(?=//)"), ":" + _ZWJ),  # http://, https://, any scheme's autolink
    (re.compile(r"(?i)\b(www)\."), r"\1" + _ZWJ + "."),  # www. autolinks
    (re.compile(r"(?i)\b(mailto|xmpp):"), r"\1" + _ZWJ + ":"),
    (re.compile(r":(?=[\w+-]+:)"), ":" + _ZWJ),  # :emoji: shortcodes
    (re.compile(r"\$"), "<span>$</span>"),  # $math$, $$math$$
)


def inert(text: str) -> str:
    """Untrusted text for a pull-request comment: escaped for Markdown and HTML, and nothing GitHub
    links, notifies or renders (mentions, references, autolinks, emoji, math)."""
    text = escape_text(text)
    for pattern, replacement in _GITHUB_ACTIVE:
        text = pattern.sub(replacement, text)
    return text


def _quoted(message: MessageChange) -> str:
    text = f"“{inert(message.msgid)}”"
    if message.context:
        text += f" ({inert(message.context)})"
    if message.previous:
        text += f", was “{inert(message.previous)}”"
    return text


def markdown(report: Report) -> str:
    """For a pull-request comment or ``$GITHUB_STEP_SUMMARY``."""
    lines = [f"## Rule change against {code_span(short(report.base))} ({report.commit[:12]})", ""]

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
            name = f"{code_span(example.id)} {inert(example.title)}"
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
                str(row.key),
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
            "What `rulesdoc catalog update` will do to each catalog: messages that become fuzzy "
            "(a translator must review them), new messages without a translation, "
            "translations no longer used.",
            "",
            _row("Language", "Become fuzzy", "New, untranslated", "Dropped"),
            _row("---", "---:", "---:", "---:"),
        ]
        for language in report.languages:
            name = code_span(language.code) + (" (new catalog)" if language.new_catalog else "")
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
                summary = f"{inert(language.code)}: {len(items)} message(s)"
                lines += ["", f"<details><summary>{summary}</summary>", "", *items, "", "</details>"]
    return "\n".join(lines) + "\n"


GITHUB_LIMIT = 65_536  # GitHub refuses an issue or pull-request comment body longer than this
COMMENT_LIMIT = 64_000  # the report's share: room left for the workflow's marker line


def bounded(text: str, limit: int, whole: str) -> str:
    """The Markdown report cut to at most ``limit`` characters (UTF-16 code units, as GitHub counts
    them), at a line, with any ``<details>`` left open closed and a line saying how much was cut and
    where the whole report is (``whole``: a file of the run, e.g. its artifact)."""
    if _length(text) <= limit:
        return text
    lines = text.split("\n")
    kept: list[str] = []
    size = 0
    tail_room = 600 + _length(whole)  # the closing tags and the cut line
    for line in lines:
        if size + _length(line) + 1 > limit - tail_room:
            break
        kept.append(line)
        size += _length(line) + 1
    opened = sum(line == "</details>" for line in kept) - sum(line.startswith("<details>") for line in kept)
    more = len(lines) - len(kept) - 1  # the report ends with a newline: its last "line" is empty
    cut = f"**{more} more line(s) not shown**: a GitHub comment holds {GITHUB_LIMIT:,} characters; "
    cut += f"the whole report is {whole}."
    return "\n".join([*kept, *(["", "</details>"] * max(0, -opened)), "", cut]) + "\n"


def comment(text: str, full: Path, limit: int = COMMENT_LIMIT) -> str:
    """Write the whole report to ``full`` and give the comment: the report, bounded (:func:`bounded`)."""
    files.write_atomically(full, text.encode("utf-8"))
    return bounded(text, limit, f"{code_span(full.name)}, in this run's artifacts")


def _length(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


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
                "players": p.key,
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
