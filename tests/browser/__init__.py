"""Browser tests of the built site (a package, so its conftest does not shadow tests/conftest.py)."""
