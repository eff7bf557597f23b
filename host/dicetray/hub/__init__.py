"""The table hub: `dicetray serve` (docs/hub.md)."""
