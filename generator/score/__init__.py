"""The ``score`` command: rounds and games read from a stream (:mod:`.reading`), scored by the
engine, written as JSON or as text tables (:mod:`.writing`, :mod:`.table`)."""
