"""Open data (开放数据): the page that documents the API and the download of the whole record, and each edition's
rating distribution (等级分分布: a histogram and percentiles) — the same figures as the API's."""

from __future__ import annotations

from django.shortcuts import render
from django.urls import reverse

from qiyuan.office.ratings.models import RatingList

from ...api import dump as dump_files
from ...api.records import edition_distribution
from .. import queries


def open_data(request):
    """The page lists the dump's files and digests once it is built (the first request to ``/api/v1/dump``
    after a publication builds it; the page never waits for that)."""
    built = dump_files.built_dump()
    files, manifest = [], ""
    if built is not None:
        version, directory = built
        files = [{"name": name, "sha256": digest, "bytes": (directory / name).stat().st_size,
                  "url": reverse("api:dump_file", args=[version, name])}
                 for name, digest in sorted(dump_files.manifest(directory).items())]
        manifest = reverse("api:dump_file", args=[version, dump_files.MANIFEST])
    lists = []
    for rl in RatingList.objects.order_by("code"):
        editions = rl.current_editions()
        if editions:
            lists.append({"list": rl, "latest": editions[-1]})
    return render(request, "portal/open_data.html", {
        "files": files, "manifest": manifest, "lists": lists})


def distribution(request, list_code: str, on: str, number: int):
    ed = queries.find_edition(list_code, on, number)
    d = edition_distribution(ed)
    bars = [{"bin": b, "percent": (b.count * 100 // d.tallest) if d.tallest else 0} for b in d.bins]
    return render(request, "portal/distribution.html", {
        "ed": ed, "d": d, "bars": bars, "percentiles": sorted(d.percentiles.items()),
        "api": reverse("api:edition_distribution", args=[list_code, ed.list_date.isoformat(), ed.number])})
