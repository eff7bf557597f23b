"""The tray's events as the host describes them: each rule system's events
declared (events.py: kind, name, arguments and their ranges, what each
changes), and how the device's keys make each one (keypaths.py). Tables
only, importing nothing: the device never loads them (they are not in the
firmware), tests/mpy read them on MicroPython too.
"""
