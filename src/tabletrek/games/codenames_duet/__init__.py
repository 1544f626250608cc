"""Codenames Duet: rules, clue validation, word packs, the mission-map campaign (and ai/: the AI partner)."""
