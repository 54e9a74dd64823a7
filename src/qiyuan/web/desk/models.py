"""Models of the desk app."""
