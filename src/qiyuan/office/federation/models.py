"""Models of the federation app."""
