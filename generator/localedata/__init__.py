"""Locale data: CLDR through Babel, and the strings Material ships per language, as files."""
