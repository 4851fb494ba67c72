"""rules.yaml and the rounds files: loading and validating them into the engine's model, the JSON
Schema, and the scoring command's input and output.
"""
