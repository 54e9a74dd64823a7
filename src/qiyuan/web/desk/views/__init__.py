"""Views of the staff desk, one module per audience: home, users, events (arbiter), office (officer)."""
