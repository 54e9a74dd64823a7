"""Commands of the web side: ``qiyuan serve`` runs the portal and the desk.

Local use (default): Django's development server, DEBUG off (the site's own 404/500 pages), static files
from the source tree. ``--production``: the production settings under gunicorn with N worker processes,
static files collected and served by WhiteNoise, behind a TLS proxy (docs/deploy.md).  ``--hall``: always
under gunicorn (a hall of phones posting at once is production load, whatever the settings), ``--lan-http``
included.
"""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path

import typer

from qiyuan.cli.lang import _, problem_line
from qiyuan.office.secret_key import secret_key_refusal

LOOPBACK = ("127.0.0.1", "::1", "localhost")


def register(app: typer.Typer) -> None:
    """Add this module's commands to the ``qiyuan`` app."""
    app.command("serve")(serve)


def default_workers() -> int:
    """gunicorn's advice: two workers per core, plus one."""
    return 2 * (os.cpu_count() or 1) + 1


def serve(
    port: int = typer.Option(8000, "--port", "-p", min=1, max=65535, help="TCP port on the loopback interface"),
    host: str = typer.Option("127.0.0.1", "--host", help="loopback address to bind (127.0.0.1, ::1, localhost)"),
    socket_path: str = typer.Option("", "--socket", help="bind a Unix socket instead (--production; for nginx)"),
    production: bool = typer.Option(
        False, "--production", help="production settings (needs QIYUAN_SECRET_KEY) under gunicorn",
    ),
    workers: int = typer.Option(0, "--workers", "-w", min=0, max=64,
                                help="gunicorn worker processes (--production, --hall; default 2 × cores + 1)"),
    threads: int = typer.Option(1, "--threads", min=1, max=64,
                                help="threads per worker (--production, --hall; more than 1: gunicorn's gthread "
                                     "workers)"),
    debug: bool = typer.Option(False, "--debug", help="developers only: Django's debug pages (not with --production)"),
    migrate: bool = typer.Option(True, "--migrate/--no-migrate", help="bring the database schema up to date first"),
    hall: Path | None = typer.Option(None, "--hall",
                                     help="serve this event file to the players' phones in the hall (/hall/): "
                                          "results reported, confirmed, signed at /desk/hall/CODE/"),
    base_url: str = typer.Option("", "--base-url",
                                 help="--hall: the address the phones use (default: this machine's LAN address)"),
    lan_http: bool = typer.Option(False, "--lan-http",
                                  help="--hall: serve plain HTTP on the venue's own network (docs/deploy.md)"),
) -> None:
    """Run the public portal and the staff desk (http://HOST:PORT/, desk at /desk/)."""
    if hall is not None:
        host, base_url = _hall_setup(hall, host, port, base_url, lan_http, production)
    elif lan_http or base_url:
        _fail(_("--lan-http and --base-url go with --hall"))
    if host not in LOOPBACK and not (hall is not None and lan_http):
        _fail(_("--host must be a loopback address ({addresses}); put a TLS proxy in front for anything else "
                "(docs/deploy.md)").format(addresses=_(", ").join(LOOPBACK)))
    # every mode signs with the key (sessions; --hall: the slips' links): a key that is set must be a secret, and
    # production needs one (without one, --hall signs with a key made for the office, local use with the dev key)
    key = os.environ.get("QIYUAN_SECRET_KEY")
    refusal = secret_key_refusal(key) if production or key else None
    if refusal is not None:
        _fail(problem_line(refusal))
    if production and debug:
        _fail(_("--debug is for local use only, not with --production"))
    if not production and socket_path:
        _fail(_("--socket goes with --production"))
    if not production and hall is None and (workers or threads > 1):
        _fail(_("--workers and --threads go with --production or --hall"))
    os.environ["DJANGO_SETTINGS_MODULE"] = "qiyuan.web.settings_production" if production else "qiyuan.web.settings"
    if debug:
        os.environ["QIYUAN_DEBUG"] = "1"
    import django
    from django.conf import settings
    from django.core.management import call_command

    django.setup()
    settings.VAR_DIR.mkdir(parents=True, exist_ok=True)
    if migrate:
        call_command("migrate", interactive=False, verbosity=0)
    if not production and hall is None:
        call_command("runserver", f"{'[::1]' if host == '::1' else host}:{port}", use_reloader=False)
        return
    call_command("collectstatic", interactive=False, verbosity=0)
    bind = f"unix:{socket_path}" if socket_path else f"[{host}]:{port}" if host == "::1" else f"{host}:{port}"
    n = workers or default_workers()
    where = socket_path or f"http://{host}:{port}/"
    if production:
        typer.echo(_("qiyuan: serving {where} with production settings under gunicorn ({workers} workers × "
                     "{threads} threads); Ctrl-C stops").format(where=where, workers=n, threads=threads))
    else:
        typer.echo(_("qiyuan: serving {where} to the hall under gunicorn ({workers} workers × {threads} threads); "
                     "Ctrl-C stops").format(where=where, workers=n, threads=threads))
    if os.environ.get("QIYUAN_INSECURE_LOOPBACK") == "1":
        typer.echo(_("qiyuan: QIYUAN_INSECURE_LOOPBACK=1 — TLS settings relaxed for plain-HTTP loopback"), err=True)
    sys.stdout.flush()
    run_gunicorn(bind, workers=n, threads=threads)


def lan_address() -> str:
    """This machine's address on the local network (the first IPv4 address that is not loopback)."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    for info in infos:
        address = info[4][0]
        if not address.startswith("127."):
            return address
    return "127.0.0.1"


def _hall_setup(event: Path, host: str, port: int, base_url: str, lan_http: bool,
                production: bool) -> tuple[str, str]:
    """Settings for serving an event file to the hall's phones (``QIYUAN_HALL_*``): returns the host to bind
    and the phones' base URL."""
    from urllib.parse import urlsplit

    if not event.is_file():
        _fail(_("--hall {event}: no such event file").format(event=event))
    if lan_http and production:
        _fail(_("--lan-http is for the venue's own network, not with --production"))
    if lan_http and host in LOOPBACK:
        host = "0.0.0.0"
    if not base_url:
        base_url = f"http://{lan_address() if lan_http else host}:{port}"
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        _fail(_("--base-url must be an http(s) address such as http://192.168.1.10:{port}, not {url}").format(
            port=port, url=repr(base_url)))
    if parts.scheme == "http" and not lan_http and parts.hostname not in LOOPBACK:
        _fail(_("plain HTTP to the phones needs --lan-http (the venue's own network; docs/deploy.md), "
                "otherwise give an https --base-url behind a TLS proxy"))
    os.environ["QIYUAN_HALL_FILE"] = str(event.resolve())
    os.environ["QIYUAN_HALL_BASE_URL"] = base_url.rstrip("/")
    if lan_http:
        os.environ["QIYUAN_HALL_PLAIN_HTTP"] = "1"
        hosts = os.environ.get("QIYUAN_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
        os.environ["QIYUAN_ALLOWED_HOSTS"] = f"{hosts},{parts.hostname}"
    typer.echo(_("qiyuan: the hall's phones report results at {url}/hall/ — print the slips with: "
                 "qiyuan event print {event} slips --hall-url {url} -o slips.pdf").format(url=base_url.rstrip("/"),
                                                                                          event=event))
    return host, base_url


def _fail(message: str) -> None:
    typer.echo(_("error: {message}").format(message=message), err=True)
    raise typer.Exit(2)


def _warm_worker(worker) -> None:
    from django.db import connections

    from qiyuan.web.warm import warm_sheets

    warm_sheets()
    connections.close_all()  # (the worker's requests open their own)


def run_gunicorn(bind: str, *, workers: int, threads: int) -> None:
    """Run the site's WSGI application under gunicorn until it is stopped (SIGINT/SIGTERM)."""
    from django.db import connections
    from gunicorn.app.base import BaseApplication

    connections.close_all()  # the migration's connection must not be shared by the forked workers

    class Server(BaseApplication):
        def load_config(self):
            options = {
                "bind": [bind], "workers": workers, "threads": threads,
                "worker_class": "gthread" if threads > 1 else "sync",
                "accesslog": None, "errorlog": "-", "loglevel": "warning", "proc_name": "qiyuan",
                "timeout": 60, "graceful_timeout": 20, "keepalive": 5,
                # the site is loaded once, before the workers are forked (their memory is shared, they start warm)
                "preload_app": True,
                # the proxy in front says https; gunicorn passes X-Forwarded-Proto on from loopback only
                "forwarded_allow_ips": "127.0.0.1,::1",
                # each worker decodes the current editions' columns the pages read before its first request
                "post_worker_init": _warm_worker,
            }
            for key, value in options.items():
                self.cfg.set(key, value)

        def load(self):
            from django.core.wsgi import get_wsgi_application

            from qiyuan.web.warm import warm

            application = get_wsgi_application()
            warm()  # views, templates, URL names, catalogues, pinyin: now, not on each worker's first request
            connections.close_all()  # no connection may be shared by the forked workers
            return application

    Server().run()
