"""The kinds of Double Crossing moves (an action decodes to (kind, a, b))."""

# Action kinds.
(
    PASS,
    REACT,
    ROLL,
    VILLAIN,
    BUY_CARDS,
    BUY_N,
    DISCARD,
    DROP,
    SELL_CAR,
    SELL_CONTRACT,
    TRADE,
    DONE,
    BUY_CAR,
    DECLINE,
    CONNECT,
    DOUBLE_CROSS,
    GO,
    MOVE,
    RETURN,
    ENGINEER,
    END,
) = range(21)

ROLL_WORDS = ("roll", "roll slow", "roll back", "roll slow back")
"""Roll variants: bit 0 = slow (one die), bit 1 = back (counter-clockwise)."""
ROLL_CREW = (0, 1, 1, 2)
"""Railroad Crew cards each roll variant costs."""
