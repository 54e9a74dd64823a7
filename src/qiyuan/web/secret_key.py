"""The production secret key's check (密钥检查): long, and not a placeholder anyone can read.

Django signs sessions, password-reset links and CSRF tokens with ``SECRET_KEY``; a short or published key
lets anyone forge them. Production refuses a key shorter than ``MIN_LENGTH`` characters, one of fewer than
five different characters, or a known placeholder (the development key, the docs' example, Django's
``django-insecure-`` keys).
"""

from __future__ import annotations

MIN_LENGTH = 50
#: the development settings' key, and pieces of the placeholders people copy from examples
DEVELOPMENT_KEY = "dev-only-insecure-key-change-me-in-production-0123456789"
_PLACEHOLDER_PARTS = ("change-me", "changeme", "change_me", "insecure", "placeholder", "random characters",
                      "your-secret", "secret-key", "secretkey", "xxxxxxxx", "…")

HOW = "make one with: python3 -c 'import secrets; print(secrets.token_urlsafe(50))'"


def secret_key_problem(key: str | None) -> str:
    """Why ``key`` cannot be the production secret key (empty when it can)."""
    if not key:
        return f"QIYUAN_SECRET_KEY is not set; production needs a secret key of {MIN_LENGTH} characters or more ({HOW})"
    if len(key) < MIN_LENGTH:
        return (f"QIYUAN_SECRET_KEY has {len(key)} characters; production needs {MIN_LENGTH} or more "
                f"({HOW})")
    if len(set(key)) < 5:
        return f"QIYUAN_SECRET_KEY has fewer than 5 different characters ({HOW})"
    low = key.lower()
    if key == DEVELOPMENT_KEY or low.startswith("django-insecure-") or any(p in low for p in _PLACEHOLDER_PARTS):
        return f"QIYUAN_SECRET_KEY is a placeholder from an example, not a secret ({HOW})"
    return ""
