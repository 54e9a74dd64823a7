"""Every refused inbound file is kept with its reasons: a bad report, a bad history directory, the same file
again, a file of unknown kind; a report only waiting for confirmations is not refused."""

from __future__ import annotations

import io
import shutil
import zipfile

import pytest

from ._o2_fixtures import history_dir, make_list

pytestmark = pytest.mark.django_db


def _refused(path, rl, **kw):
    from qiyuan.office.imports import ImportRefused, import_file

    with pytest.raises(ImportRefused) as exc:
        import_file(path, rl, "officer", **kw)
    assert exc.value.rejected
    return exc.value


def test_a_history_directory_with_bad_data_is_kept_as_rejected(tmp_path):
    from qiyuan.office.events.models import Event, RejectedReport

    rl = make_list()
    src = history_dir(tmp_path)
    bad = tmp_path / "badhist"
    shutil.copytree(src, bad)
    games = (bad / "games.csv").read_text(encoding="utf-8").splitlines()
    games[1] = games[1].rsplit(",", 1)[0] + ",2-7"
    (bad / "games.csv").write_text("\n".join(games) + "\n", encoding="utf-8")
    exc = _refused(bad, rl)
    rej = RejectedReport.objects.get()
    assert rej.kind == "history" and rej.filename == "badhist" and rej.reasons == exc.messages
    assert set(zipfile.ZipFile(io.BytesIO(bytes(rej.content))).namelist()) >= {"games.csv", "players.csv"}
    assert not Event.objects.exists()


def test_the_same_file_again_is_kept_as_rejected(tmp_path):
    from qiyuan.office.events.models import RejectedReport
    from qiyuan.office.imports import import_file

    rl = make_list()
    src = history_dir(tmp_path)
    import_file(src, rl, "officer")
    exc = _refused(src, rl)
    rej = RejectedReport.objects.get()
    assert "already imported" in rej.reasons[0] and rej.reasons == exc.messages


def test_a_file_of_unknown_kind_is_kept_as_rejected(tmp_path):
    from qiyuan.office.events.models import RejectedReport

    f = tmp_path / "report.pdf"
    f.write_bytes(b"%PDF-1.4")
    _refused(f, make_list())
    rej = RejectedReport.objects.get()
    assert rej.kind == "unknown" and bytes(rej.content) == b"%PDF-1.4" and "kind" in rej.reasons[0]
