"""Issues 23 and 33: the printed slips carry each player's own credential as a QR code on his half (segno),
read back here with zxing-cpp from the rendered page; entry cards carry them too; a re-issued credential
replaces the old one; `serve --hall` refuses unsafe or malformed set-ups with a clear error."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import typer
from typer.testing import CliRunner

from qiyuan.cli.tournament import register
from qiyuan.cli.web import register as register_web
from qiyuan.formats.trf import read_trf
from qiyuan.office.hall.tokens import read_player_token
from qiyuan.tournament import hall

zxingcpp = pytest.importorskip("zxingcpp")
Image = pytest.importorskip("PIL.Image")
POPPLER = shutil.which("pdftoppm") is not None

app = typer.Typer()
register(app)
register_web(app)


@app.callback()
def _root() -> None:
    """qiyuan (test harness)."""


def run(*args, code=0):
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == code, (args, result.stdout, result.stderr)
    return result


@pytest.fixture
def event(tmp_path, settings, db):
    settings.VAR_DIR = tmp_path / "var"
    ev = tmp_path / "open.trf"
    run("event", "new", ev, "--name", "公开赛", "--rounds", 5)
    for i in range(20):
        run("event", "add-player", ev, f"棋手{i + 1}")
    run("event", "pair", ev)
    return ev


def _codes(pdf: Path, tmp_path: Path, prefix: str, dpi: int = 200) -> list:
    """The credentials of the QR codes on a PDF's pages."""
    subprocess.run(["pdftoppm", "-r", str(dpi), "-gray", "-png", str(pdf), str(tmp_path / prefix)], check=True)
    out = []
    for png in sorted(tmp_path.glob(f"{prefix}*.png")):
        for r in zxingcpp.read_barcodes(Image.open(png)):
            url = urlsplit(r.text)
            assert (url.scheme, url.netloc) == ("http", "192.168.1.10:8000") and url.path.startswith("/hall/e/open/")
            out.append(read_player_token(url.path.removeprefix("/hall/e/open/").rstrip("/")))
    return out


@pytest.mark.skipif(not POPPLER, reason="needs pdftoppm (poppler-utils)")
def test_every_slip_carries_each_players_own_credential_on_his_half(event, tmp_path):
    out = tmp_path / "slips.pdf"
    run("event", "print", event, "slips", "--hall-url", "http://192.168.1.10:8000", "-o", out)
    toks = _codes(out, tmp_path, "page")
    boards = hall.boards_of(read_trf(event), 1)
    assert len(toks) == 2 * len(boards) == 20
    assert {(t.event, t.issue) for t in toks} == {("open", 1)}
    assert sorted(t.number for t in toks) == list(range(1, 21))


@pytest.mark.skipif(not POPPLER, reason="needs pdftoppm (poppler-utils)")
def test_entry_cards_and_a_reissued_card(event, tmp_path):
    out = tmp_path / "cards.pdf"
    run("event", "print", event, "cards", "--hall-url", "http://192.168.1.10:8000", "-o", out)
    assert sorted(t.number for t in _codes(out, tmp_path, "card", 100)) == list(range(1, 21))
    r = run("event", "reissue", event, 7, "--hall-url", "http://192.168.1.10:8000", "-o", tmp_path / "seven.pdf")
    assert "re-issued" in r.stdout
    (tok,) = _codes(tmp_path / "seven.pdf", tmp_path, "seven", 100)
    assert (tok.number, tok.issue) == (7, 2)
    again = tmp_path / "again.pdf"  # cards and slips printed after it carry the new issue
    run("event", "print", event, "cards", "--player", 7, "--hall-url", "http://192.168.1.10:8000", "-o", again)
    assert [(t.number, t.issue) for t in _codes(again, tmp_path, "again", 100)] == [(7, 2)]
    bad = run("event", "print", event, "cards", "-o", tmp_path / "x.pdf", code=2)
    assert "--hall-url" in bad.stderr and not (tmp_path / "x.pdf").exists()


def test_slips_without_a_hall_have_no_code_and_a_bad_url_is_refused(event, tmp_path):
    run("event", "print", event, "slips", "-o", tmp_path / "plain.pdf")
    bad = run("event", "print", event, "slips", "--hall-url", "192.168.1.10:8000", "-o", tmp_path / "x.pdf", code=2)
    assert "--hall-url must be an http(s) address" in bad.stderr
    assert not (tmp_path / "x.pdf").exists()


def test_serve_hall_refuses_unsafe_or_malformed_set_ups(event, tmp_path):
    r = run("serve", "--hall", tmp_path / "missing.trf", code=2)
    assert "no such event file" in r.stderr
    r = run("serve", "--lan-http", code=2)
    assert "go with --hall" in r.stderr
    r = run("serve", "--hall", event, "--base-url", "http://192.168.1.10:8000", code=2)
    assert "needs --lan-http" in r.stderr
    r = run("serve", "--hall", event, "--lan-http", "--production", code=2)
    assert "not with --production" in r.stderr
    r = run("serve", "--hall", event, "--base-url", "ftp://x", "--lan-http", code=2)
    assert "--base-url must be an http(s) address" in r.stderr


def test_slips_with_hall_links_are_never_signed_with_a_weak_key(event, tmp_path, monkeypatch):
    """Issue 32: outside production too, a weak QIYUAN_SECRET_KEY signs no link — the slips are refused."""
    monkeypatch.setenv("QIYUAN_SECRET_KEY", "x")
    out = tmp_path / "weak.pdf"
    bad = run("event", "print", event, "slips", "--hall-url", "http://192.168.1.10:8000", "-o", out, code=2)
    assert "QIYUAN_SECRET_KEY" in bad.output and not out.exists()
