"""The multilingual MkDocs site: the plugin, each language's build, the root files and the preview. The
only package that imports mkdocs or material.
"""
