"""`qiyuan office user add NAME --role arbiter|officer|admin`: desk users from the command line (issue 10),
through the one use case ``qiyuan.web.staff.add_user``: all problems at once, nothing written, an audit entry."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from qiyuan.cli import app
from tests.conftest import on_postgres
from tests.support.offices import initialised_office
from tests.support.processes import at_once, qiyuan

runner = CliRunner()


@pytest.mark.django_db
def test_add_a_user_with_a_role_from_a_password_file(tmp_path, client):
    from django.contrib.auth import get_user_model

    from qiyuan.office.audit.models import AuditLog
    from qiyuan.web.desk.permissions import roles_of

    pw = tmp_path / "pw.txt"
    pw.write_text("a-long-password\n", encoding="utf-8")
    r = runner.invoke(app, ["office", "user", "add", "wang.li", "--role", "arbiter", "--password-file", str(pw),
                            "--actor", "root"])
    assert r.exit_code == 0, r.output
    user = get_user_model().objects.get(username="wang.li")
    assert roles_of(user) == {"arbiter"} and not user.is_staff
    assert AuditLog.objects.filter(action="user.create", actor="root").count() == 1
    assert client.login(username="wang.li", password="a-long-password")
    r = runner.invoke(app, ["office", "user", "list"])
    assert r.exit_code == 0 and "wang.li\tarbiter" in r.output


@pytest.mark.django_db
def test_the_password_is_asked_twice_and_an_admin_opens_the_registry_admin(tmp_path):
    from django.contrib.auth import get_user_model

    r = runner.invoke(app, ["office", "user", "add", "boss", "--role", "admin"], input="s3cret-words\ns3cret-words\n")
    assert r.exit_code == 0, r.output
    user = get_user_model().objects.get(username="boss")
    assert user.is_staff and user.is_superuser and user.check_password("s3cret-words")


@pytest.mark.django_db
@pytest.mark.parametrize("args, text", [
    (["bad name", "--role", "officer"], "use letters, digits"),
    (["", "--role", "officer"], "the user name is empty"),
    (["short", "--role", "officer"], None),
])
def test_bad_input_is_refused_with_every_problem_and_nothing_written(tmp_path, args, text):
    from django.contrib.auth import get_user_model

    pw = tmp_path / "pw.txt"
    pw.write_text("short\n" if args[0] == "short" else "long-enough-1\n", encoding="utf-8")
    r = runner.invoke(app, ["office", "user", "add", *args, "--password-file", str(pw)])
    assert r.exit_code == 2
    assert (text or "at least 8 characters") in r.output
    assert not get_user_model().objects.exists()


@pytest.mark.django_db
def test_an_unknown_role_a_missing_file_and_a_taken_name(tmp_path):
    r = runner.invoke(app, ["office", "user", "add", "li", "--role", "boss", "--password-file", "x"])
    assert r.exit_code == 2 and "boss" in r.output
    r = runner.invoke(app, ["office", "user", "add", "li", "--role", "officer", "--password-file",
                            str(tmp_path / "none.txt")])
    assert r.exit_code == 2 and "cannot read the password" in r.output
    pw = tmp_path / "pw.txt"
    pw.write_text("long-enough-1\n", encoding="utf-8")
    assert runner.invoke(app, ["office", "user", "add", "li", "--role", "officer", "--password-file",
                               str(pw)]).exit_code == 0
    r = runner.invoke(app, ["office", "user", "add", "li", "--role", "arbiter", "--password-file", str(pw)])
    assert r.exit_code == 2 and "the user li exists already" in r.output


def test_two_processes_adding_the_same_user_at_once_make_one_user(request, tmp_path):
    """Real processes released together on one office (SQLite in the SQLite run, PostgreSQL in the PostgreSQL
    run): one creates the user, the others are told it exists."""
    env = initialised_office(request, tmp_path / "home", postgres=on_postgres())
    pw = tmp_path / "pw.txt"
    pw.write_text("long-enough-1\n", encoding="utf-8")
    for trial in range(3):
        name = f"same{trial}"
        outs = at_once([["office", "user", "add", name, "--role", "arbiter", "--password-file", str(pw)]] * 3, env)
        assert sorted(o.returncode for o in outs) == [0, 2, 2], [(o.returncode, o.stderr[-400:]) for o in outs]
        assert all("exists already" in o.stdout + o.stderr for o in outs if o.returncode == 2), outs
    listed = qiyuan(["office", "user", "list"], env)
    assert [ln.split("\t")[0] for ln in listed.stdout.splitlines()] == ["same0", "same1", "same2"]
