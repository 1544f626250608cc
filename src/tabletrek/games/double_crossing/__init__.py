"""Double Crossing (Paul J. Gruen, 1988): buy cars, trade them for contracts, race home."""
