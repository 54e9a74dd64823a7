"""Downloading what a verifier checks (下载), trusting nothing: only http(s) addresses, only of the origin the
user named, with a size cap and time limits, streamed in chunks (a server that never ends, sends forever or
redirects elsewhere is refused, named).  A listing's addresses are checked by ``kit.chain.read_listing``
before anything is fetched; a redirect to another origin is refused here."""

from __future__ import annotations

import http.client
import threading
import time
import urllib.error
import urllib.request
from urllib.parse import urlsplit

from qiyuan.errors import problem
from qiyuan.formats.edition_bundle import BadBundle

#: a bundle larger than this is not downloaded (the largest office's bundle is a few tens of MiB)
MAX_BUNDLE_BYTES = 256 << 20
#: seconds without a byte, and seconds for one whole file
IDLE_SECONDS = 30
TOTAL_SECONDS = 600
_CHUNK = 1 << 16


def origin(url: str) -> tuple[str, str, int]:
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    port = parts.port or (443 if scheme == "https" else 80)
    return scheme, (parts.hostname or "").lower(), port


def same_origin(url: str, base: str) -> bool:
    """``url`` is http(s) and has ``base``'s scheme, host and port (no local path, no ``file:``, no other site)."""
    try:
        return url.startswith(("http://", "https://")) and origin(url) == origin(base)
    except ValueError:  # a port that is no number
        return False


class _SameOrigin(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        if not same_origin(newurl, req.full_url):
            raise BadBundle(problem("{where}: redirected to another site ({url}); not followed",
                                    where=req.full_url, url=newurl[:120]))
        return super().redirect_request(req, fp, code, msg, headers, newurl)


_OPENER = urllib.request.build_opener(_SameOrigin)


def fetch(url: str, *, base: str | None = None, limit: int = MAX_BUNDLE_BYTES, idle: float = IDLE_SECONDS,
          total: float = TOTAL_SECONDS) -> bytes:
    """The bytes at ``url`` (http or https; of ``base``'s origin when given); ``BadBundle`` naming why not.
    The whole exchange — connecting, the headers, the body — runs in a worker thread given ``total`` seconds:
    a server that dribbles its headers byte by byte is left behind, not waited for."""
    if not url.startswith(("http://", "https://")) or (base is not None and not same_origin(url, base)):
        raise BadBundle(problem("{where}: only http(s) addresses of the listing's own site are fetched",
                                where=url[:120]))
    outcome: list = []

    def work():
        try:
            outcome.append(_download(url, limit, idle, total))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread as it is
            outcome.append(exc)

    worker = threading.Thread(target=work, name="qiyuan-fetch", daemon=True)
    worker.start()
    worker.join(total + 1)
    if not outcome:
        raise BadBundle(problem("{where}: took longer than {seconds} s; stopped", where=url, seconds=int(total)))
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome[0]


def _download(url: str, limit: int, idle: float, total: float) -> bytes:
    start = time.monotonic()
    chunks, size = [], 0
    try:
        with _OPENER.open(url, timeout=idle) as answer:  # noqa: S310 - http(s) only, checked above
            declared = answer.headers.get("Content-Length")
            if declared and declared.isdigit() and int(declared) > limit:
                raise BadBundle(problem("{where}: larger than {size} MiB; not downloaded", where=url,
                                        size=limit >> 20))
            while chunk := answer.read1(_CHUNK):  # (whatever has arrived: a slow sender meets the total limit)
                size += len(chunk)
                if size > limit:
                    raise BadBundle(problem("{where}: larger than {size} MiB; not downloaded", where=url,
                                            size=limit >> 20))
                if time.monotonic() - start > total:
                    raise BadBundle(problem("{where}: took longer than {seconds} s; stopped", where=url,
                                            seconds=int(total)))
                chunks.append(chunk)
    except BadBundle:
        raise
    except (urllib.error.URLError, http.client.HTTPException, OSError, ValueError, TimeoutError) as exc:
        why = getattr(exc, "reason", None) or exc
        raise BadBundle(problem("{where}: cannot download ({why})", where=url, why=str(why)[:200])) from None
    return b"".join(chunks)
