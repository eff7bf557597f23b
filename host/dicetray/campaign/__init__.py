"""What the host makes of a campaign's events: its words and log, the
export (document, JSON, CSV), its trackers as a player reads them, its
dice's fairness, the exact odds. No tray, no front-end."""
