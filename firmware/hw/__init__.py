"""Hardware layer: board profiles (board.py picks one) and the drivers they use."""
