"""N daphnes behind Debian's nginx on this machine, routed by table (deploy/nginx/).

`python -m pokerroom.launch run --servers N [--pages M]` renders deploy/nginx/local.conf.in
into var/nginx/nginx.conf and a process file into var/Procfile.routed, and runs that under
honcho: nginx on ROOM_HOST:ROOM_PORT (127.0.0.1:8000, where `make run` serves), daphnes
web1..webN for the table sockets and page1..pageM for everything else (pages, the lobby's
polls, the cashier, other sockets; without page daphnes the table daphnes serve it too) on
the ports after it (loopback only, with --proxy-headers: only nginx reaches them), and the
Procfile's Celery worker and beat. Page daphnes of their own keep the lobby's polls (a page of
rows rendered every 5 s for each open lobby) from holding up the table daphnes' event loops,
and run niced (`PAGE_NICENESS`) so that on busy cores an action goes before a poll:
docs/operations.md, "Routing by table". The tests render the same template (tests/pokerroom/
test_routing.py), so what they check is what the launcher runs.
"""
from __future__ import annotations

import os
import shlex
import shutil
from collections.abc import Sequence
from pathlib import Path

from pokerroom.processes import PAGE_NICENESS, daphne_command

BASE_DIR = Path(__file__).resolve().parent.parent
DEPLOY_DIR = BASE_DIR / "deploy" / "nginx"
TEMPLATE = DEPLOY_DIR / "local.conf.in"
DEBIAN_NGINX = "/usr/sbin/nginx"  # not on a normal user's PATH
SERVER_LINE = "@SERVER@"
PAGES_LINE = "@PAGES@"


def nginx_binary() -> str:
    """nginx to run: $NGINX, then the PATH's, then Debian's."""
    found = os.environ.get("NGINX") or shutil.which("nginx")
    if not found and os.access(DEBIAN_NGINX, os.X_OK):
        found = DEBIAN_NGINX
    if not found:
        raise RuntimeError("nginx is not installed: `make nginx` installs Debian's package")
    return found


def listen_address(host: str, port: int) -> str:
    return f"[{host.strip('[]')}]:{port}" if ":" in host else f"{host}:{port}"


def nginx_config(*, listen: str, servers: Sequence[str], var_dir: Path,
                 pages: Sequence[str] = ()) -> str:
    """The template with its placeholders filled: each table upstream's server line once per
    daphne of `servers`, and the pages upstream's once per daphne of `pages` (or of `servers`
    when there are no page daphnes)."""
    lines: list[str] = []
    each = {SERVER_LINE: servers, PAGES_LINE: pages or servers}
    for line in TEMPLATE.read_text().splitlines():
        placeholder = next((p for p in each if p in line), None)
        if placeholder is not None:
            lines.extend(line.replace(placeholder, server) for server in each[placeholder])
        else:
            lines.append(line)
    text = "\n".join(lines) + "\n"
    for name, value in {"@VAR@": str(var_dir), "@LISTEN@": listen,
                        "@DEPLOY@": str(DEPLOY_DIR)}.items():
        text = text.replace(name, value)
    return text


def nginx_files(var_dir: Path, *, listen: str, servers: Sequence[str],
                pages: Sequence[str] = ()) -> Path:
    """Write the configuration (and the temporary directories nginx needs) under `var_dir`."""
    (var_dir / "tmp").mkdir(parents=True, exist_ok=True)
    conf = var_dir / "nginx.conf"
    conf.write_text(nginx_config(listen=listen, servers=servers, var_dir=var_dir, pages=pages))
    return conf


def nginx_command(conf: Path, var_dir: Path) -> list[str]:
    """nginx in the foreground (the configuration says `daemon off`), errors to stderr."""
    return [nginx_binary(), "-p", f"{var_dir}/", "-c", str(conf), "-e", "stderr"]


def procfile_entries(path: Path) -> dict[str, str]:
    entries = {}
    for line in path.read_text().splitlines():
        name, sep, command = line.partition(":")
        if sep and not line.startswith("#"):
            entries[name.strip()] = command.strip()
    return entries


def routed_procfile(*, servers: int, host: str, port: int, python: str, var_dir: Path,
                    pages: int = 0) -> str:
    """A process file: nginx, `servers` table daphnes (web1..) and `pages` page daphnes
    (page1..) on the ports after `port`, worker and beat."""
    if servers < 1:
        raise ValueError("--servers is at least 1")
    if pages < 0:
        raise ValueError("--pages is at least 0")
    names = [f"web{n}" for n in range(1, servers + 1)] + [f"page{n}" for n in range(1, pages + 1)]
    ports = {name: port + 1 + n for n, name in enumerate(names)}
    address = {name: f"127.0.0.1:{p}" for name, p in ports.items()}
    conf = nginx_files(var_dir, listen=listen_address(host, port),
                       servers=[address[n] for n in names if n.startswith("web")],
                       pages=[address[n] for n in names if n.startswith("page")])
    lines = [f"nginx: {shlex.join(nginx_command(conf, var_dir))}"]
    for name, daphne_port in ports.items():
        command = daphne_command(python, host="127.0.0.1", port=daphne_port, proxy_headers=True,
                                 niceness=PAGE_NICENESS if name.startswith("page") else 0)
        lines.append(f"{name}: ROOM_SERVER_NAME={name} {shlex.join(command)}")
    base = procfile_entries(BASE_DIR / "Procfile")
    lines += [f"worker: {base['worker']}", f"beat: {base['beat']}"]
    return "\n".join(lines) + "\n"
