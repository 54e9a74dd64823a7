"""Production settings: HTTPS only, HSTS, secure cookies.

``QIYUAN_SECRET_KEY`` must be set. Tests that run a server on plain loopback
set ``QIYUAN_INSECURE_LOOPBACK=1``, which relaxes only the TLS settings
(redirect, secure cookies, HSTS) and says so.
"""

from __future__ import annotations

import os

from .settings import *  # noqa: F403

DEBUG = False
SECRET_KEY = os.environ["QIYUAN_SECRET_KEY"]

SECURE_SSL_REDIRECT = True
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = 31536000
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

if os.environ.get("QIYUAN_INSECURE_LOOPBACK") == "1":
    # Plain-HTTP loopback for tests and load tests only: TLS settings relaxed.
    SECURE_SSL_REDIRECT = False
    SESSION_COOKIE_SECURE = False
    CSRF_COOKIE_SECURE = False
    SECURE_HSTS_SECONDS = 0
