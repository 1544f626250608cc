"""The registry: one line per game, "name": "module:GameClass" (imported on first use)."""

REGISTRY: dict[str, str] = {
    "touring": "tabletrek.games.touring.rules:Touring",
}
