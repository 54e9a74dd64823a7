import pytest


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    """The heads a verifier remembers live in the user's data folder: a fresh one per test, never the real one."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data"
