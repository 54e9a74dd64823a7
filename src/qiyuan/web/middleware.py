"""Input cleaned before any view sees it (输入清理): control characters removed from query and form values.

A NUL byte in a query (``/players/?q=a%00b``) is refused by PostgreSQL (HTTP 500) and was echoed into the page on
SQLite; other C0/C1 control characters have no business in a name or a code either. Every GET parameter and every
urlencoded/multipart form field (not uploaded files) loses them here, so no view, form or query ever holds one;
tab, line feed and carriage return stay in form fields (a textarea's lines), not in query parameters. An address
holding one is no permalink: 404.
"""

from __future__ import annotations

import re

from django.http import Http404, QueryDict

#: C0 controls, DEL and C1 controls; tab, LF and CR are kept in form fields only.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_CONTROL_BUT_LINES = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def clean_text(value: str, *, lines: bool = False) -> str:
    """``value`` without control characters (``lines``: tab, LF and CR kept)."""
    return (_CONTROL_BUT_LINES if lines else _CONTROL).sub("", value)


def _cleaned(qd: QueryDict, *, lines: bool) -> QueryDict | None:
    pattern = _CONTROL_BUT_LINES if lines else _CONTROL
    dirty = any(pattern.search(k) or any(pattern.search(v) for v in qd.getlist(k)) for k in qd)
    if not dirty:
        return None
    out = QueryDict(mutable=True, encoding=qd.encoding)
    for key in qd:
        out.setlist(clean_text(key, lines=False), [clean_text(v, lines=lines) for v in qd.getlist(key)])
    out._mutable = False
    return out


class CleanInputMiddleware:
    """Replace ``request.GET`` / ``request.POST`` by copies without control characters (only when they hold one)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if _CONTROL.search(request.path_info):
            raise Http404("control character in the address")  # no permalink holds one
        cleaned = _cleaned(request.GET, lines=False)
        if cleaned is not None:
            request.GET = cleaned
        if request.method == "POST" and request.content_type in (
                "application/x-www-form-urlencoded", "multipart/form-data"):
            cleaned = _cleaned(request.POST, lines=True)
            if cleaned is not None:
                request.POST = cleaned
        return self.get_response(request)
