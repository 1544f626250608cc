"""The registry: one line per game, "name": "module:GameClass" (imported on first use)."""

REGISTRY: dict[str, str] = {
    "codenames-duet": "tabletrek.games.codenames_duet.rules:Duet",
    "mexican-train": "tabletrek.games.mexican_train.rules:MexicanTrain",
    "double-crossing": "tabletrek.games.double_crossing.rules:DoubleCrossing",
    "touring": "tabletrek.games.touring.rules:Touring",
}
