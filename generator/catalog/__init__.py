"""Catalog files: PO read and written as GNU gettext does, plural rules, where a catalog lies."""
