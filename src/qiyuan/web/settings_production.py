"""Production settings: HTTPS only, HSTS, secure cookies.

``QIYUAN_SECRET_KEY`` must be set to a real secret (``qiyuan.office.secret_key``: 50 characters or more, not a
placeholder); otherwise the settings refuse to load with Django's ImproperlyConfigured and the reason. Tests that run a server on plain loopback
set ``QIYUAN_INSECURE_LOOPBACK=1``, which relaxes only the TLS settings
(redirect, secure cookies, HSTS) and says so.
"""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

from qiyuan.office.secret_key import secret_key_problem
from .settings import *  # noqa: F403

DEBUG = False
SECRET_KEY = os.environ.get("QIYUAN_SECRET_KEY", "")
if secret_key_problem(SECRET_KEY):
    raise ImproperlyConfigured(secret_key_problem(SECRET_KEY))

SECURE_SSL_REDIRECT = True
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = 31536000
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
WHITENOISE_USE_FINDERS = False  # served from var/static, collected by `qiyuan serve --production`
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# Server errors go to stderr (the service manager's log), not to e-mail.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"stderr": {"class": "logging.StreamHandler"}},
    "loggers": {"django.request": {"handlers": ["stderr"], "level": "ERROR", "propagate": False}},
}

if os.environ.get("QIYUAN_INSECURE_LOOPBACK") == "1":
    # Plain-HTTP loopback for tests and load tests only: TLS settings relaxed.
    SECURE_SSL_REDIRECT = False
    SESSION_COOKIE_SECURE = False
    CSRF_COOKIE_SECURE = False
    SECURE_HSTS_SECONDS = 0
