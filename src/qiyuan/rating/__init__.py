"""等级分: the official rating rules as pure functions over plain data."""
