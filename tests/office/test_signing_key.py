"""Issue 20: the federation's signing key — made once by `office key init` (the private half outside the
database, readable by the office only), shown with its fingerprint, never replaced silently; audited."""

from __future__ import annotations

import stat

import pytest

from qiyuan.errors import Conflict, NotFound
from qiyuan.formats import signing
from qiyuan.office.audit.models import AuditLog
from qiyuan.office.signing_key import init_key, key_info, private_key


@pytest.fixture
def var(settings, tmp_path, monkeypatch):
    monkeypatch.delenv("QIYUAN_KEY_DIR", raising=False)
    settings.VAR_DIR = tmp_path / "var"
    return settings.VAR_DIR


@pytest.mark.django_db
def test_the_key_is_made_once_outside_the_database(var):
    with pytest.raises(NotFound, match="office key init"):
        key_info()
    info = init_key("officer")
    assert stat.S_IMODE(info.private_path.stat().st_mode) == 0o600
    assert info.private_path.parent == var / "keys"
    data = b"manifest"
    assert signing.verifies(signing.load_public(info.public_pem), data, signing.sign(private_key(), data))
    assert key_info().fingerprint == info.fingerprint
    assert AuditLog.objects.filter(action="office.key_init").get().detail["fingerprint"] == info.fingerprint
    with pytest.raises(Conflict, match="signing key already"):
        init_key("officer")
    assert key_info().fingerprint == info.fingerprint  # not replaced
