"""The scoring engine: cards, the rules model and the pure functions that score a round and build the
target table. Imports nothing of the rest of the package but errors.
"""
