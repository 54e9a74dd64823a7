"""HTTP caching of published data (缓存): ETags, conditional requests and cache lifetimes.

A numbered edition's files and API entries never change: they are served ``immutable`` for a year, so a browser,
the proxy or a CDN keeps them. A page of the date's *current* edition changes when a correction is published, and
a numbered edition's page says when it was superseded: visitors' pages carry an ETag and a short lifetime, so a
revalidation costs one cache lookup and answers 304.
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Callable

from django.core.cache import cache
from django.http import HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_cache_control, patch_vary_headers

YEAR = 365 * 24 * 3600
PAGE_MAX_AGE = 300


def digest(text: str) -> str:
    """A short stable hash of a query string, for cache keys and ETags (keys stay short whatever the input)."""
    return hashlib.sha1(text.encode()).hexdigest()[:20]


def conditional(request, etag: str) -> HttpResponse | None:
    """A 304 when the client already holds ``etag`` (``If-None-Match``), else None."""
    wanted = request.headers.get("If-None-Match", "")
    if etag and (wanted.strip() == "*" or etag in [t.strip().removeprefix("W/") for t in wanted.split(",")]):
        response = HttpResponseNotModified()
        response["ETag"] = etag
        return response
    return None


def immutable(response: HttpResponse, etag: str) -> HttpResponse:
    """Headers of content that never changes (a numbered edition's file or entries)."""
    response["ETag"] = etag
    patch_cache_control(response, public=True, max_age=YEAR, immutable=True)
    return response


def visitor_cache_headers(response: HttpResponse, etag: str) -> HttpResponse:
    """Headers of a visitor's cached page: revalidated after a few minutes, per language cookie."""
    response["ETag"] = etag
    patch_cache_control(response, public=True, max_age=PAGE_MAX_AGE)
    patch_vary_headers(response, ("Cookie", "Accept-Language"))
    return response


def immutable_content(request, etag: str, key: str, build: Callable[[], bytes | str], content_type: str
                      ) -> HttpResponse:
    """A numbered edition's content: 304 when the client holds ``etag``; else from the shared cache (``key``),
    built once by ``build()``; served immutable."""
    early = conditional(request, etag)
    if early is not None:
        return immutable(early, etag)
    body = cache.get(key)
    if body is None:
        body = build()
        cache.set(key, body, None)
    return immutable(HttpResponse(body, content_type=content_type), etag)


def visitor_page(request, key: str, build: Callable[[], HttpResponse]) -> HttpResponse:
    """A page cached whole for visitors (not signed in: the page carries no token and no name): from the shared
    cache under ``key`` (compressed; with its ETag, answering 304 to a client that holds it), else ``build()`` once
    and kept when it is a 200 (and not marked ``cacheable = False``). Signed-in users always get a fresh page."""
    if request.user.is_authenticated:
        return build()
    found = cache.get(key)
    if found is not None:
        body, etag = found
        return visitor_cache_headers(conditional(request, etag) or HttpResponse(zlib.decompress(body)), etag)
    response = build()
    if response.status_code == 200 and getattr(response, "cacheable", True):
        etag = '"' + hashlib.sha1(response.content).hexdigest()[:32] + '"'
        cache.set(key, (zlib.compress(response.content, 1), etag), None)
        visitor_cache_headers(response, etag)
    return response
