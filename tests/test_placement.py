"""Every message of a page template says where it shows (generator/i18n/placement.py)."""

from __future__ import annotations

import re

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from support import ROOT

from rulesdoc.i18n import placement

TEMPLATE = """{% macro points(n) %}{{ ngettext("%(num)s point", "%(num)s points", n) }}{% endmacro %}
# {{ _("Scoring") }}

{{ _("Cards left in hand count against you.") }}

## {{ _("Hand rummy") }} {{ f.extra }}

{{ _("Going out in one go doubles the points.") }}
### {{ f.only_code }}
{{ _("Still in hand rummy.") }}
"""


def notes_for(text: str) -> dict[str, list[str]]:
    catalog = Catalog()
    for number, line in enumerate(text.splitlines(), 1):
        for message in re.findall(r'(?:\b_|ngettext)\(\s*"([^"]*)"', line):
            catalog.add(message, locations=[("templates/scoring.md.j2", number)])
    placement.add_notes(catalog, lambda name: text)
    return {message.id: message.auto_comments for message in catalog if message.id}


def test_each_message_names_its_page_and_the_section_above_it() -> None:
    notes = notes_for(TEMPLATE)
    assert notes["%(num)s point"] == [
        'Shown on the page "scoring.md", wherever its template uses it (set before its first heading).'
    ]
    assert notes["Scoring"] == ['Shown on the page "scoring.md": the heading of a section.']
    assert notes["Cards left in hand count against you."] == [
        'Shown on the page "scoring.md", in the section "Scoring".'
    ]
    assert notes["Going out in one go doubles the points."] == [
        'Shown on the page "scoring.md", in the section "Hand rummy".'
    ]
    # A heading with no English text of its own (only values) is passed over for the one above.
    assert notes["Still in hand rummy."] == ['Shown on the page "scoring.md", in the section "Hand rummy".']


def test_moving_a_line_within_its_section_changes_no_note() -> None:
    moved = TEMPLATE.replace('\n{{ _("Cards left in hand count against you.") }}\n', "\n\n\n")
    moved = moved.replace("## {{", '{{ _("Cards left in hand count against you.") }}\n\n## {{', 1)
    assert notes_for(moved) == notes_for(TEMPLATE)


def test_a_note_is_added_once_and_only_to_templates() -> None:
    catalog = Catalog()
    catalog.add("Once", locations=[("templates/a.md.j2", 2), ("templates/a.md.j2", 2), ("rules.yaml", 3)])
    catalog.add("Elsewhere", locations=[("mkdocs.yml", 4)])
    placement.add_notes(catalog, lambda name: "# Title\nOnce\n")
    assert catalog.get("Once").auto_comments == ['Shown on the page "a.md", in the section "Title".']
    assert catalog.get("Elsewhere").auto_comments == []


def test_every_entry_of_this_projects_template_has_a_note_to_translators() -> None:
    """Holds for any rules: every message is extracted with a note saying what or where it is."""
    with (ROOT / "locales" / "messages.pot").open("rb") as handle:
        template = read_po(handle)
    bare = [message.id for message in template if message.id and not message.auto_comments]
    assert bare == []


def test_a_partials_messages_show_where_a_page_includes_it() -> None:
    page = '# {{ _("Scoring") }}\n\n## {{ _("Try it") }}\n\n{% include "_calc.j2" %}\n'
    catalog = Catalog()
    catalog.add("Scoring", locations=[("templates/scoring.md.j2", 1)])
    catalog.add("Players", locations=[("templates/_calc.j2", 3)])
    catalog.add("Lonely", locations=[("templates/_unused.j2", 1)])
    placement.add_notes(catalog, lambda name: page if name.endswith(".md.j2") else "x\n" * 5)
    assert catalog.get("Players").auto_comments == [
        'Shown on the page "scoring.md", in the section "Try it", from _calc.j2.'
    ]
    assert catalog.get("Lonely").auto_comments == ["Shown wherever a page includes _unused.j2."]
