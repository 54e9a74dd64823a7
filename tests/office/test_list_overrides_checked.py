"""Issue 18, item 7: `office list add --overrides` is checked by the validator `rules show` uses — the
issue's `base = [1,2]` file and a non-UTF-8 one are refused (exit 2), never accepted or an internal error."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from qiyuan.cli import app

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("content,reason", [
    (b"base = [1,2]\n", "setting 'base'"),
    (b"k_new = 40\nname = '\xff\xfe'\n", "not UTF-8"),
    (b"k_new = 10000000000000\n", "setting 'k_new'"),
])
def test_list_add_refuses_the_overrides_rules_show_refuses(tmp_path, content, reason):
    from qiyuan.office.ratings.models import RatingList

    path = tmp_path / "v.toml"
    path.write_bytes(content)
    r = CliRunner().invoke(app, ["office", "list", "add", "X", "--rules", "cga-gomoku-2011", "--overrides", str(path)])
    assert r.exit_code == 2 and reason in r.output and "internal error" not in r.output, r.output
    assert not RatingList.objects.filter(code="X").exists()
    shown = CliRunner().invoke(app, ["rules", "show", str(path.rename(tmp_path / "w.toml"))])
    assert shown.exit_code == 2
