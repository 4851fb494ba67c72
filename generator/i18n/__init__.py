"""Translations: gettext catalogs (parse, write, update), plural forms, placeholders, verdicts, CLDR
formatting, the translation policy, the theme's strings, extraction and pseudo-locales.
"""
