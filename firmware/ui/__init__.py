"""User interface: buttons logic, LED ring logic, screens and the app loop.

Knows nothing of flash or of a particular board: it reads `Board.keys()`,
draws into `Board.display` and hands RGB bytes to `Board.leds`.
"""
