"""Models of the portal app."""
