"""The registry: one line per game, "name": "module:GameClass" (imported on first use)."""

REGISTRY: dict[str, str] = {
    "codenames-duet": "tabletrek.games.codenames_duet.rules:Duet",
    "mexican-train": "tabletrek.games.mexican_train.rules:MexicanTrain",
    "touring": "tabletrek.games.touring.rules:Touring",
}
