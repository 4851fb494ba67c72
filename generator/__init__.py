"""rulesdoc: a localized rules documentation generator for the rummy game Rami.

Data flows one way: ``rules.yaml`` → :mod:`rulesdoc.spec.rules` (typed spec) →
:mod:`rulesdoc.engine.scoring` (scores and reasons) → :mod:`rulesdoc.pages.view` (plain view
model, all text decided) → Jinja templates → Markdown → MkDocs.
"""

__version__ = "0.1.0"
