"""rulesdoc: a localized rules documentation generator for the rummy game Rami.

Data flows one way: ``rules.yaml`` → :mod:`generator.rules` (typed spec) →
:mod:`generator.engine` (scores and reasons) → :mod:`generator.view` (plain view
model, all text decided) → Jinja templates → Markdown → MkDocs.
"""

__version__ = "0.1.0"
