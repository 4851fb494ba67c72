"""Reading and writing files an input cannot abuse: bounded reads, the one bounded YAML loader
(PyYAML's seam), the one folder swap, and where a project's inputs live.
"""
