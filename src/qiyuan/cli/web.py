"""Commands of the web side: ``qiyuan serve`` runs the portal and the desk on loopback."""

from __future__ import annotations

import os
import sys

import typer

LOOPBACK = ("127.0.0.1", "::1", "localhost")


def register(app: typer.Typer) -> None:
    """Add this module's commands to the ``qiyuan`` app."""
    app.command("serve")(serve)


def serve(
    port: int = typer.Option(8000, "--port", "-p", help="TCP port on the loopback interface"),
    host: str = typer.Option("127.0.0.1", "--host", help="loopback address to bind (127.0.0.1, ::1, localhost)"),
    production: bool = typer.Option(
        False, "--production",
        help="production settings (needs QIYUAN_SECRET_KEY) under a threaded WSGI server instead of runserver",
    ),
    threads: int = typer.Option(16, "--threads", help="request threads of the production server"),
    migrate: bool = typer.Option(True, "--migrate/--no-migrate", help="bring the database schema up to date first"),
) -> None:
    """Run the public portal and the staff desk (http://HOST:PORT/, desk at /desk/)."""
    if host not in LOOPBACK:
        typer.echo(f"error: --host must be a loopback address ({', '.join(LOOPBACK)}); put a TLS proxy in front "
                   "for anything else", err=True)
        raise typer.Exit(2)
    if production and not os.environ.get("QIYUAN_SECRET_KEY"):
        typer.echo("error: --production needs QIYUAN_SECRET_KEY in the environment", err=True)
        raise typer.Exit(2)
    os.environ["DJANGO_SETTINGS_MODULE"] = "qiyuan.web.settings_production" if production else "qiyuan.web.settings"
    import django
    from django.conf import settings
    from django.core.management import call_command

    django.setup()
    settings.VAR_DIR.mkdir(parents=True, exist_ok=True)
    if migrate:
        call_command("migrate", interactive=False, verbosity=0)
    if not production:
        call_command("runserver", f"{'[::1]' if host == '::1' else host}:{port}", use_reloader=False)
        return
    call_command("collectstatic", interactive=False, verbosity=0)
    server = make_server(host, port, threads=threads)
    typer.echo(f"qiyuan: serving http://{host}:{port}/ with production settings ({threads} threads); Ctrl-C stops")
    if os.environ.get("QIYUAN_INSECURE_LOOPBACK") == "1":
        typer.echo("qiyuan: QIYUAN_INSECURE_LOOPBACK=1 — TLS settings relaxed for plain-HTTP loopback", err=True)
    sys.stdout.flush()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def make_server(host: str, port: int, *, threads: int = 16):
    """A WSGI server for the site with a bounded pool of request threads (stdlib only)."""
    import socket
    from concurrent.futures import ThreadPoolExecutor
    from wsgiref.simple_server import WSGIRequestHandler, WSGIServer

    from django.core.wsgi import get_wsgi_application

    class QuietHandler(WSGIRequestHandler):
        def log_message(self, format, *args):  # noqa: A002 - the stdlib's name
            pass

    class PooledWSGIServer(WSGIServer):
        request_queue_size = 256
        allow_reuse_address = True
        address_family = socket.AF_INET6 if ":" in host else socket.AF_INET

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="qiyuan-http")

        def process_request(self, request, client_address):
            self.pool.submit(self._handle, request, client_address)

        def _handle(self, request, client_address):
            try:
                self.finish_request(request, client_address)
            except Exception:  # noqa: BLE001 - one broken connection must not stop the server
                self.handle_error(request, client_address)
            finally:
                self.shutdown_request(request)

        def server_close(self):
            super().server_close()
            self.pool.shutdown(wait=False, cancel_futures=True)

    server = PooledWSGIServer((host, port), QuietHandler)
    server.set_app(get_wsgi_application())
    return server
