"""The nginx configurations in deploy/nginx/ and the launcher's routed mode, without a room:
both configurations pass `nginx -t`, the launcher's routes exactly as the production one does,
and `run --servers N` starts nginx, N daphnes behind it, the worker and beat (`run` alone:
the Procfile, as ever). The routing itself, with real processes: test_routing.py."""
from __future__ import annotations

import datetime
import re
import subprocess
from pathlib import Path

import pytest

from pokerroom import launch
from pokerroom.routed import (
    DEPLOY_DIR,
    nginx_binary,
    nginx_config,
    nginx_files,
    procfile_entries,
    routed_procfile,
)
from pokerroom.servername import HEADER
from tests.conftest import REPO

PRODUCTION = DEPLOY_DIR / "poker.conf"


def nginx_test(conf: Path) -> subprocess.CompletedProcess:
    """`nginx -t` on `conf` (relative includes resolve beside it)."""
    return subprocess.run([nginx_binary(), "-t", "-p", f"{conf.parent}/", "-c", str(conf),
                           "-e", "stderr"], capture_output=True, text=True, timeout=30)


def routing_blocks(text: str) -> list[str]:
    """The maps and upstreams of an nginx configuration, comments and blank lines dropped and
    each upstream's server addresses left out (they differ; their options must not)."""
    text = re.sub(r"#[^\n]*", "", text)
    blocks = re.findall(r"^\s*((?:map|upstream)\s[^{]*\{[^}]*\})", text, flags=re.M)
    normal = []
    for block in blocks:
        lines = [" ".join(line.split()) for line in block.splitlines() if line.strip()]
        lines = [re.sub(r"^server \S+", "server ADDRESS", line) for line in lines]
        normal.append("\n".join(dict.fromkeys(lines)))  # one line per distinct server options
    return normal


def test_the_launcher_routes_as_the_production_configuration_does(tmp_path):
    local = nginx_config(listen="127.0.0.1:8000", servers=["127.0.0.1:8001", "127.0.0.1:8002"],
                         var_dir=tmp_path)
    production = routing_blocks(PRODUCTION.read_text())
    assert [b.split("{")[0] for b in production] == [
        "map $uri $room_table_id ", "map $http_upgrade $room_connection ",
        "upstream room_by_table ", "upstream room_any "]
    assert "hash $room_table_id consistent;" in production[2]
    assert "least_conn;" in production[3]
    assert routing_blocks(local) == production
    assert f"include {DEPLOY_DIR}/poker-proxy.conf;" in local  # the same locations too


def test_the_launcher_configuration_passes_nginx_t_with_a_line_per_daphne(tmp_path):
    servers = [f"127.0.0.1:{port}" for port in (9001, 9002, 9003)]
    conf = nginx_files(tmp_path, listen="127.0.0.1:9000", servers=servers)
    text = conf.read_text()
    assert "@" not in re.sub(r"#[^\n]*", "", text)  # every placeholder filled
    for server in servers:
        # Table sockets: never left out (a late handshake must not move every table of a
        # daphne); everything else: left out for 5 s after a failure.
        assert text.count(f"server {server} max_fails=0;") == 1
        assert text.count(f"server {server} max_fails=1 fail_timeout=5s;") == 1
    checked = nginx_test(conf)
    assert checked.returncode == 0, checked.stderr


def self_signed(directory: Path) -> tuple[Path, Path]:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "poker.example.com")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now).not_valid_after(now + datetime.timedelta(days=1))
            .sign(key, hashes.SHA256()))
    cert_path, key_path = directory / "cert.pem", directory / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


def test_the_production_configuration_passes_nginx_t_once_its_certificate_is_filled_in(tmp_path):
    """As an operator installs it: poker.conf in Debian's http context, the locations in
    snippets/, the commented certificate lines filled in."""
    cert, key = self_signed(tmp_path)
    site = PRODUCTION.read_text()
    site, filled = re.subn(r"# (ssl_certificate)\s+\S+;", fr"\1 {cert};", site)
    site, filled_key = re.subn(r"# (ssl_certificate_key) \S+;", fr"\1 {key};", site)
    assert (filled, filled_key) == (1, 1)
    (tmp_path / "snippets").mkdir()
    (tmp_path / "snippets" / "poker-proxy.conf").write_text(
        (DEPLOY_DIR / "poker-proxy.conf").read_text())
    (tmp_path / "poker.conf").write_text(site)
    temp = "".join(f"{kind}_temp_path {tmp_path}/{kind};\n"
                   for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    main = tmp_path / "nginx.conf"
    main.write_text(f"pid {tmp_path}/nginx.pid;\nevents {{}}\n"
                    f"http {{\n{temp}include poker.conf;\n}}\n")
    checked = nginx_test(main)
    assert checked.returncode == 0, checked.stderr


def test_run_with_servers_starts_nginx_the_daphnes_behind_it_the_worker_and_beat(tmp_path):
    text = routed_procfile(servers=3, host="127.0.0.1", port=8000, python="/venv/python",
                           var_dir=tmp_path)
    entries = procfile_entries_of(text, tmp_path)
    assert list(entries) == ["nginx", "web1", "web2", "web3", "worker", "beat"]
    assert entries["nginx"].endswith(f"-c {tmp_path}/nginx.conf -e stderr")
    for n, port in enumerate((8001, 8002, 8003), start=1):
        web = entries[f"web{n}"]
        assert web.startswith(f"ROOM_SERVER_NAME=web{n} /venv/python -m pokerroom.serve ")
        assert f" -b 127.0.0.1 -p {port} " in web and " --proxy-headers " in web
        assert f"server 127.0.0.1:{port} " in (tmp_path / "nginx.conf").read_text()
    assert "listen 127.0.0.1:8000;" in (tmp_path / "nginx.conf").read_text()
    procfile = procfile_entries(REPO / "Procfile")
    assert (entries["worker"], entries["beat"]) == (procfile["worker"], procfile["beat"])


def procfile_entries_of(text: str, directory: Path) -> dict[str, str]:
    path = directory / "Procfile.test"
    path.write_text(text)
    return procfile_entries(path)


def upstream_servers(conf: str, name: str) -> list[str]:
    block = re.search(rf"upstream {name} \{{(.*?)\}}", conf, flags=re.S)
    return re.findall(r"server (\S+) ", block.group(1))


def test_page_daphnes_serve_everything_but_the_table_sockets(tmp_path):
    """With --pages, the table daphnes get only the table sockets (routed by table) and the
    page daphnes everything else: the lobby's polls never wait in a table daphne's loop."""
    text = routed_procfile(servers=2, pages=1, host="127.0.0.1", port=8000,
                           python="/venv/python", var_dir=tmp_path)
    entries = procfile_entries_of(text, tmp_path)
    assert list(entries) == ["nginx", "web1", "web2", "page1", "worker", "beat"]
    assert entries["page1"].startswith(
        "ROOM_SERVER_NAME=page1 nice -n 10 /venv/python -m pokerroom.serve ")  # actions first
    assert " -b 127.0.0.1 -p 8003 " in entries["page1"]
    conf = (tmp_path / "nginx.conf").read_text()
    assert upstream_servers(conf, "room_by_table") == ["127.0.0.1:8001", "127.0.0.1:8002"]
    assert upstream_servers(conf, "room_any") == ["127.0.0.1:8003"]
    without = routed_procfile(servers=2, host="127.0.0.1", port=8000, python="/venv/python",
                              var_dir=tmp_path / "without")
    assert "page1" not in procfile_entries_of(without, tmp_path)
    conf = (tmp_path / "without" / "nginx.conf").read_text()
    assert upstream_servers(conf, "room_any") == upstream_servers(conf, "room_by_table") \
        == ["127.0.0.1:8001", "127.0.0.1:8002"]


def test_run_without_servers_is_the_procfile_as_before():
    assert launch.servers_wanted([]) == (None, 0)
    assert launch.procfile(None, {}) == REPO / "Procfile"
    assert launch.servers_wanted(["--servers", "2"]) == (2, 0)
    assert launch.servers_wanted(["--servers", "2", "--pages", "1"]) == (2, 1)
    for wrong in (["--servers", "0"], ["--pages", "1"], ["--servers", "2", "--pages", "-1"]):
        with pytest.raises(SystemExit):
            launch.servers_wanted(wrong)


def test_responses_name_the_daphne_that_answered_when_it_has_a_name(client, settings):
    settings.ROOM_SERVER_NAME = "web7"
    assert client.get("/livez")[HEADER] == "web7"


def test_no_name_no_header(client, settings):
    settings.ROOM_SERVER_NAME = ""
    assert HEADER not in client.get("/livez")
