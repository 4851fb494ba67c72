"""What a change of rules.yaml does to every page and example, as text, Markdown or JSON (for a pull
request).
"""
