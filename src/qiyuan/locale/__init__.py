"""Translations of the web face (msgids are the Chinese text; ``en`` holds English)."""
