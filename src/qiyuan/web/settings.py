"""Django settings of the qiyuan office.

SQLite by default (``var/qiyuan.sqlite3`` under ``QIYUAN_HOME``, default the
current directory); PostgreSQL when ``DATABASE_URL`` points at one. Production
hardening lives in ``qiyuan.web.settings_production``.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url

from qiyuan.web.cache import code_fingerprint
from qiyuan.office.secret_key import DEVELOPMENT_KEY

BASE_DIR = Path(__file__).resolve().parent
QIYUAN_HOME = Path(os.environ.get("QIYUAN_HOME", Path.cwd())).resolve()
VAR_DIR = QIYUAN_HOME / "var"

#: Off unless a developer asks (``QIYUAN_DEBUG=1`` or ``qiyuan serve --debug``): visitors see the site's own
#: 404/500 pages, never Django's debug page.
DEBUG = os.environ.get("QIYUAN_DEBUG", "0") == "1"
SECRET_KEY = os.environ.get("QIYUAN_SECRET_KEY", DEVELOPMENT_KEY)
ALLOWED_HOSTS = [h for h in os.environ.get("QIYUAN_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver").split(",") if h]

#: The hall (``qiyuan serve --hall EVENT``): the event file served to the players' phones, the address the
#: phones use, and whether plain HTTP is allowed on the venue's own network (``--lan-http``).
QIYUAN_HALL_FILE = os.environ.get("QIYUAN_HALL_FILE", "")
QIYUAN_HALL_BASE_URL = os.environ.get("QIYUAN_HALL_BASE_URL", "")
QIYUAN_HALL_PLAIN_HTTP = os.environ.get("QIYUAN_HALL_PLAIN_HTTP") == "1"
#: rating-band prize floors (issue 37): a registration's entry list carries each player's highest published rating
#: of the list's last N editions (分段等级分), so a player whose rating fell stays in his band; 0: no floors
_floors = os.environ.get("QIYUAN_BAND_FLOOR_EDITIONS", "0").strip()
QIYUAN_BAND_FLOOR_EDITIONS = int(_floors) if _floors.isdigit() else 0

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "qiyuan.office.federation.apps.Config",
    "qiyuan.office.events.apps.Config",
    "qiyuan.office.ratings.apps.Config",
    "qiyuan.office.audit.apps.Config",
    "qiyuan.office.grades.apps.Config",
    "qiyuan.office.calendar.apps.Config",
    "qiyuan.office.hall.apps.Config",
    "qiyuan.web.portal.apps.Config",
    "qiyuan.web.desk.apps.Config",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "qiyuan.web.middleware.CleanInputMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "qiyuan.web.urls"
WSGI_APPLICATION = "qiyuan.web.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

_default_db = f"sqlite:///{VAR_DIR / 'qiyuan.sqlite3'}"
DATABASES = {"default": dj_database_url.parse(os.environ.get("DATABASE_URL", _default_db), conn_max_age=60)}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    _options = DATABASES["default"].setdefault("OPTIONS", {})
    # Writers queue instead of failing: every transaction takes the write lock when it begins (BEGIN IMMEDIATE,
    # so none has to upgrade a read lock half-way, which the busy timeout cannot wait for), and a writer waits
    # up to ``timeout`` seconds for the one before it (docs/office.md, "What may run at once").
    _options["transaction_mode"] = "IMMEDIATE"
    _options["timeout"] = int(os.environ.get("QIYUAN_SQLITE_TIMEOUT", "300"))
    # WAL: readers (the portal, a running backup) never block the desk's writes, nor writes them.
    _options["init_command"] = "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", "简体中文"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR.parent / "locale"]
TIME_ZONE = "Asia/Shanghai"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "static"
STATICFILES_DIRS = [BASE_DIR / "static"]  # the site's own CSS and script (qiyuan.web is not an app)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

LOGIN_URL = "/desk/login/"
# Failed logins throttled per account and per address, desk and admin alike (qiyuan.web.login_guard).
AUTHENTICATION_BACKENDS = ["qiyuan.web.login_guard.LockoutBackend"]
LOGIN_REDIRECT_URL = "/desk/"

# Uploads (reports, TRF, history files): limited in size; types are checked by the views.
DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024
QIYUAN_UPLOAD_MAX_BYTES = 20 * 1024 * 1024

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

# The cache is shared by every worker process: files under var/cache by default, Redis when REDIS_URL is set.
# Published editions never change, so what is cached from them never expires (keys carry their version).
# Keys carry a fingerprint of the site's code and templates, so a new release never serves pages cached by the
# previous one (hosts of one release agree on it).
REDIS_URL = os.environ.get("REDIS_URL", "")
CACHE_KEY_PREFIX = "qiyuan-" + code_fingerprint(BASE_DIR.parent)
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL,
                          "KEY_PREFIX": CACHE_KEY_PREFIX, "TIMEOUT": None}}
else:
    CACHES = {"default": {"BACKEND": "qiyuan.web.cache.FileCache",
                          "LOCATION": str(Path(os.environ.get("QIYUAN_CACHE_DIR", VAR_DIR / "cache"))),
                          "KEY_PREFIX": CACHE_KEY_PREFIX, "TIMEOUT": None,
                          "OPTIONS": {"MAX_ENTRIES": 300_000, "CULL_FREQUENCY": 10}}}

# Static files: collected under var/static for production; served from the source tree otherwise.
WHITENOISE_USE_FINDERS = True
