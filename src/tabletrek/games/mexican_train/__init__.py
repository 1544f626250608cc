"""Mexican Train dominoes: personal trains, the Mexican train, public markers, 13 rounds."""
