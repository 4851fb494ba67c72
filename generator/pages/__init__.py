"""From the engine's facts and a catalog to a page: the view model, the Jinja templates rendered, the
rendering checked.
"""
