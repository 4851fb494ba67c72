"""The rulesdoc command."""
