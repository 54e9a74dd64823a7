"""The production secret key's check (密钥检查): long, and not a placeholder anyone can read.

Django signs sessions, password-reset links and CSRF tokens with ``SECRET_KEY``, and the hall's slips their
links (``office.hall.tokens``); a short, guessable or published key lets anyone forge them. Every mode that signs
with it — production, ``serve --hall``, the slips printed with hall links — refuses a key shorter than
``MIN_LENGTH`` characters, one of fewer than five different characters, one that repeats itself or runs in
sequence (``abcde`` × 10, ``0123456789`` × 5, ``qiyuan`` × 8 and 12 characters more: fewer than ``MIN_PIECES``
different three-character pieces, or more than half its steps to the next character in the alphabet), or a known
placeholder (the development key, the docs' example, Django's ``django-insecure-`` keys).
"""

from __future__ import annotations

from qiyuan.errors import Problem, problem

MIN_LENGTH = 50
#: the fewest different three-character pieces a key holds (a random key of 50 characters: 45 or more; a word
#: repeated with a dozen characters more: about 20)
MIN_PIECES = 40
#: the development settings' key, and pieces of the placeholders people copy from examples
DEVELOPMENT_KEY = "dev-only-insecure-key-change-me-in-production-0123456789"
_PLACEHOLDER_PARTS = ("change-me", "changeme", "change_me", "insecure", "placeholder", "random characters",
                      "your-secret", "secret-key", "secretkey", "xxxxxxxx", "…")

HOW = "python3 -c 'import secrets; print(secrets.token_urlsafe(50))'"


def secret_key_refusal(key: str | None) -> Problem | None:
    """Why ``key`` cannot be the production secret key, as a translatable problem (None when it can)."""
    if not key:
        return problem("QIYUAN_SECRET_KEY is not set; production needs a secret key of {min} characters or more "
                       "(make one as docs/deploy.md says)", min=MIN_LENGTH)
    if len(key) < MIN_LENGTH:
        return problem("QIYUAN_SECRET_KEY has {n} characters; production needs {min} or more (make one as docs/deploy.md says)",
                       n=len(key), min=MIN_LENGTH)
    if len(set(key)) < 5:
        return problem("QIYUAN_SECRET_KEY has fewer than 5 different characters (make one as docs/deploy.md says)")
    low = key.lower()
    if key == DEVELOPMENT_KEY or low.startswith("django-insecure-") or any(p in low for p in _PLACEHOLDER_PARTS):
        return problem("QIYUAN_SECRET_KEY is a placeholder from an example, not a secret (make one as docs/deploy.md says)")
    pieces = len({key[i:i + 3] for i in range(len(key) - 2)})
    steps = sum(abs(ord(b) - ord(a)) == 1 for a, b in zip(key, key[1:]))
    if pieces < MIN_PIECES or 2 * steps > len(key):
        return problem("QIYUAN_SECRET_KEY repeats itself or runs in sequence ({pieces} different three-character "
                       "pieces, {steps} steps to the next character): a secret key must be random (make one as "
                       "docs/deploy.md says)", pieces=pieces, steps=steps)
    return None


def secret_key_problem(key: str | None) -> str:
    """Why ``key`` cannot be the production secret key, in English (empty when it can)."""
    refusal = secret_key_refusal(key)
    return refusal.text() if refusal else ""
