"""The bundle apps test against: the rules, the JSON Schema and conformance vectors dealt from the
rules.
"""
