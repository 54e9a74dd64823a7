"""Checking a list yourself (核对本期等级分): an edition's signed bundle, the federation's public key, and what
the edition page says about them. The bundle is built and signed by the office (``office.bundles``: when it
publishes the edition, or by ``qiyuan office bundles build``); the views only serve it, and never build one: a
bundle not built yet gets a "being prepared" page (503, Retry-After)."""

from __future__ import annotations

import hashlib

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_cache_control

from qiyuan.errors import NotFound
from qiyuan.office.bundles import BundlePending, bundle_name, stored_bundle
from qiyuan.office.heads import entry_proof
from qiyuan.office.ratings.models import RatingList
from qiyuan.office.signing_key import key_info

from .. import queries
from ..http import conditional, immutable

PUBLIC_KEY_NAME = "federation.pub.pem"
#: when a client should ask again for a bundle being prepared (seconds)
RETRY_AFTER = 300


def bundle(request, list_code: str, on: str, number: int):
    """The edition's bundle (ZIP), immutable once built; 404 while the office has no signing key; a page saying
    it is being prepared (503, Retry-After) while it is not built yet — never built here."""
    ed = queries.find_edition(list_code, on, number)
    try:
        data = stored_bundle(ed)
    except BundlePending:
        response = render(request, "portal/bundle_pending.html", {"edition": ed}, status=503)
        response["Retry-After"] = str(RETRY_AFTER)
        response["Cache-Control"] = "no-store"
        return response
    except NotFound:
        raise Http404("no signing key yet") from None
    etag = f'"{ed.digest[:32]}-bundle-{hashlib.sha256(data).hexdigest()[:16]}"'
    response = immutable(conditional(request, etag) or HttpResponse(data, content_type="application/zip"), etag)
    response["Content-Disposition"] = f'attachment; filename="{bundle_name(ed)}"'
    return response


def player_proof(request, list_code: str, federation_id: str):
    """A player's proof of his own lines in the list's newest edition (``qiyuan verify-entry proof.json --key
    federation.pub.pem`` checks it offline); 404 without a key or a line of his."""
    rl = RatingList.objects.filter(code=list_code).first()
    if rl is None:
        raise Http404(list_code)
    try:
        data = entry_proof(rl, federation_id)
    except NotFound:
        raise Http404("no proof") from None
    response = HttpResponse(data, content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{list_code}-{federation_id}-proof.json"'
    return response


def public_key(request):
    """The federation's public key (PEM), which ``qiyuan verify-edition --key`` trusts."""
    try:
        info = key_info()
    except NotFound:
        raise Http404("no signing key yet") from None
    response = HttpResponse(info.public_pem, content_type="application/x-pem-file")
    response["Content-Disposition"] = f'inline; filename="{PUBLIC_KEY_NAME}"'
    patch_cache_control(response, public=True, max_age=3600)
    return response


def check_context(request, ed) -> dict | None:
    """What the edition page shows under "核对本期等级分": the bundle, its digest, the chain link, the key and
    its fingerprint, the commands to run (None while the office has no signing key)."""
    try:
        info = key_info()
    except NotFound:
        return None
    day = ed.list_date.isoformat()
    url = request.build_absolute_uri(reverse("portal:list_bundle", args=[ed.rating_list.code, day, ed.number]))
    key_url = request.build_absolute_uri(reverse("portal:public_key"))
    prev = ed.previous
    prev_url = (request.build_absolute_uri(reverse("portal:list_bundle", args=[
        prev.rating_list.code, prev.list_date.isoformat(), prev.number])) if prev is not None else "")
    name = bundle_name(ed)
    chain_api = request.build_absolute_uri(reverse("api:list_chain", args=[ed.rating_list.code]))
    commands = [f"curl -o {PUBLIC_KEY_NAME} {key_url}",
                f"openssl pkey -pubin -in {PUBLIC_KEY_NAME} -outform DER | tail -c 32 | sha256sum | cut -c1-32 | "
                "sed 's/..../& /g; s/ $//; s/^/SHA256:/'",
                f"qiyuan verify-edition {url}" + (f" --previous {prev_url}" if prev is not None else "")
                + f" --key {PUBLIC_KEY_NAME}",
                f"qiyuan verify-edition --chain {chain_api} --key {PUBLIC_KEY_NAME}"]
    return {"bundle_url": url, "bundle_name": name, "digest": ed.digest, "previous": prev, "previous_url": prev_url,
            "key_url": key_url, "fingerprint": info.fingerprint, "commands": commands,
            "chain_api": chain_api,
            "witnesses_api": request.build_absolute_uri(reverse("api:list_witnesses", args=[ed.rating_list.code]))}
