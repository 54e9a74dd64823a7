"""Models of the events app."""
