"""Goofspiel (GOPS, the Game of Pure Strategy): secret bids for a prize card, highest bid wins it.

The fifth game, added as one folder plus one line in ``tabletrek/games/__init__.py``: every service
finds it through ``spec.py`` (see ``docs/architecture.md``).
"""
