"""The nginx configurations docs/online.md gives, run for real in front of ``mahjong-nts
serve`` (Debian's nginx, TLS with a certificate made for the test): the blocks are read
from the page itself, and only what a site must fill in is changed (ports, the
certificate, the processes' addresses), each replacement checked to be there, so a change
to the page's configuration is what is tested.

- "Behind a reverse proxy": pages and the API through TLS, a table's socket upgraded and
  played to the end of a hand, its ``Origin`` checked against the ``Host`` the proxy
  passes (the page's own origin accepted, another refused).
- "Deploying several processes" (two processes, one PostgreSQL): a table made through the
  club's address is reached through it (hashed by table id, sent on by a 421/307 to its
  owner's own address when the hash picks the other process), its socket is played through
  the proxy, and a node's address goes to the other process once it is down."""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import random
import re
import shutil
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from online_helpers import Client, is_over, play_until
from websockets.exceptions import InvalidStatus

from pg_helpers import PostgresServer
from server_helpers import ROOT, running_server

pytestmark = [pytest.mark.server, pytest.mark.db]

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
DOC = ROOT / "docs" / "online.md"
SECRET = "s" * 40
ENV = {
    "MAHJONG_NTS_WINDOW_SECONDS": "0.05",
    "MAHJONG_NTS_BOT_DELAY_SECONDS": "0",
    "MAHJONG_NTS_LEASE_SECONDS": "2",
    "MAHJONG_NTS_ONLINE_SECRET": SECRET,
}
BOTS3 = [{"kind": "human"}] + [{"kind": "bot"}] * 3
UNTIMED = {"turn_seconds": None, "claim_seconds": None, "hands": 1}


def _blocks() -> dict[str, str]:
    """The page's nginx blocks: the one with an ``upstream`` is the several-process one."""
    found = re.findall(r"```nginx\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(found) == 2, "docs/online.md should hold two nginx configurations"
    several = [b for b in found if "upstream mahjong" in b]
    one = [b for b in found if "upstream" not in b]
    assert len(several) == 1 and len(one) == 1
    return {"one": one[0], "several": several[0]}


def _fill(block: str, replacements: list[tuple[str, str, int]]) -> str:
    """``block`` with each ``old`` replaced by ``new``, where it occurs exactly ``times``."""
    for old, new, times in replacements:
        assert block.count(old) == times, f"docs/online.md: expected {old!r} {times} times"
        block = block.replace(old, new)
    return block


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for ``localhost`` and 127.0.0.1: (certificate, key)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    crt, pem = folder / "site.crt", folder / "site.key"
    crt.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    pem.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return crt, pem


@dataclass
class Proxy:
    folder: Path
    tls: ssl.SSLContext

    def http(self) -> httpx.Client:
        return httpx.Client(verify=self.tls, timeout=30)


def _certified(folder: Path) -> tuple[str, ssl.SSLContext]:
    crt, key = _certificate(folder)
    line = f"ssl_certificate {crt}; ssl_certificate_key {key};"
    return line, ssl.create_default_context(cafile=str(crt))


@dataclass
class Nginx:
    proc: subprocess.Popen[str]
    conf: Path

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def _run_nginx(folder: Path, server: str, ports: list[int]) -> Nginx:
    """nginx in the foreground with ``server`` (the page's block, filled in) as its whole
    ``http`` section, its files in ``folder``; waits until every port answers."""
    if not Path(NGINX).exists():
        pytest.fail(
            "nginx is not installed: apt-get install nginx (.ci/run does), "
            "or deselect with -m 'not server'"
        )
    temp = folder / "temp"
    temp.mkdir(exist_ok=True)
    conf = folder / "nginx.conf"
    conf.write_text(
        f"daemon off;\nworker_processes 1;\npid {folder / 'nginx.pid'};\n"
        f"error_log {folder / 'error.log'} info;\nevents {{ worker_connections 256; }}\n"
        "http {\n"
        f"access_log {folder / 'access.log'};\n"
        f"client_body_temp_path {temp}/body; proxy_temp_path {temp}/proxy;\n"
        f"fastcgi_temp_path {temp}/fastcgi; uwsgi_temp_path {temp}/uwsgi;\n"
        f"scgi_temp_path {temp}/scgi;\n{server}\n}}\n",
        encoding="utf-8",
    )
    checked = subprocess.run(
        [NGINX, "-t", "-p", str(folder), "-c", str(conf)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr
    proc = subprocess.Popen(
        [NGINX, "-p", str(folder), "-c", str(conf)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    for port in ports:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None:
                    said = proc.stderr.read() if proc.stderr else ""
                    raise AssertionError(f"nginx stopped: {said}") from None
                time.sleep(0.05)
        else:
            proc.kill()
            raise AssertionError(f"nginx does not listen on {port}")
    return Nginx(proc, conf)


async def _play_through(url: str, cookie: str, origin: str, tls: ssl.SSLContext) -> dict[str, Any]:
    client = await Client("Ann", 0).connect(url, cookie, ssl=tls, origin=origin)
    end = await play_until(client, random.Random(3), is_over)
    await client.close()
    return end


async def _refused(url: str, cookie: str, origin: str, tls: ssl.SSLContext) -> int:
    """The HTTP status of the handshake of a socket opened from a page of ``origin``."""
    with pytest.raises(InvalidStatus) as refused:
        await Client("Ann", 0).connect(url, cookie, ssl=tls, origin=origin)
    status: int = refused.value.response.status_code
    return status


def _join(http: httpx.Client, base: str, table: str) -> str:
    answer = http.post(f"{base}/api/online/tables/{table}/join", json={"nickname": "Ann"})
    assert answer.status_code == 200, answer.text
    name = f"mjseat_{table}"
    return f"{name}={answer.cookies[name]}"


@pytest.fixture(scope="module")
def one(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Proxy]]:
    """The single-process configuration in front of one server (SQLite): the site's URL."""
    folder = tmp_path_factory.mktemp("nginx-one")
    certificate, tls = _certified(folder)
    site = _free_port()
    with running_server(folder / "data", **ENV) as (url, _):
        backend = url.rstrip("/").rsplit(":", 1)[1]
        server = _fill(
            _blocks()["one"],
            [
                ("listen 443 ssl;", f"listen 127.0.0.1:{site} ssl;", 1),
                ("# ssl_certificate ...; ssl_certificate_key ...;", certificate, 1),
                ("proxy_pass http://127.0.0.1:8000;", f"proxy_pass http://127.0.0.1:{backend};", 1),
            ],
        )
        nginx = _run_nginx(folder, server, [site])
        try:
            yield f"https://localhost:{site}", Proxy(folder, tls)
        finally:
            nginx.stop()


def test_one_process_behind_the_proxy(one: tuple[str, Proxy]) -> None:
    site, proxy = one
    with proxy.http() as http:
        assert http.get(f"{site}/").status_code == 200
        made = http.post(f"{site}/api/online/tables", json={"seats": BOTS3, **UNTIMED})
        assert made.status_code == 201, made.text
        table = made.json()["table"]
        cookie = _join(http, site, table)
        page = http.get(f"{site}/online/{table}?seat=0", headers={"Cookie": cookie})
        assert page.status_code == 200
    socket_url = f"wss://localhost:{site.rsplit(':', 1)[1]}/ws/online/{table}"
    end = asyncio.run(_play_through(socket_url, cookie, site, proxy.tls))
    assert end["hand"]["result"] is not None and end["status"] == "finished"
    # the proxy passes the Host the browser asked for: another site's page is refused
    assert asyncio.run(_refused(socket_url, cookie, "https://evil.example", proxy.tls)) == 403
    assert asyncio.run(_refused(socket_url, cookie, "https://localhost:1", proxy.tls)) == 403


@dataclass
class Site:
    club: str
    nodes: tuple[str, str]
    proxy: Proxy
    servers: tuple[subprocess.Popen[str], subprocess.Popen[str]]


@pytest.fixture(scope="module")
def several(postgres: PostgresServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    folder = tmp_path_factory.mktemp("nginx-several")
    certificate, tls = _certified(folder)
    db = postgres.new_database()
    club, own1, own2 = _free_port(), _free_port(), _free_port()
    node1, node2 = f"https://localhost:{own1}", f"https://localhost:{own2}"
    with (
        running_server(folder / "a", "--db", db, "--node-url", node1, **ENV) as (a, proc_a),
        running_server(folder / "b", "--db", db, "--node-url", node2, **ENV) as (b, proc_b),
    ):
        port_a, port_b = (u.rstrip("/").rsplit(":", 1)[1] for u in (a, b))
        server = _fill(
            _blocks()["several"],
            [
                ("listen 443 ssl;", f"listen 127.0.0.1:{club} ssl;", 1),
                ("listen 8441 ssl;", f"listen 127.0.0.1:{own1} ssl;", 1),
                ("listen 8442 ssl;", f"listen 127.0.0.1:{own2} ssl;", 1),
                ("($server_port = 8441)", f"($server_port = {own1})", 1),
                ("($server_port = 8442)", f"($server_port = {own2})", 1),
                ("# ssl_certificate ...; ssl_certificate_key ...;", certificate, 1),
                ("127.0.0.1:8001", f"127.0.0.1:{port_a}", 3),
                ("127.0.0.1:8002", f"127.0.0.1:{port_b}", 3),
            ],
        )
        nginx = _run_nginx(folder, server, [club, own1, own2])
        try:
            yield Site(
                f"https://localhost:{club}", (node1, node2), Proxy(folder, tls), (proc_a, proc_b)
            )
        finally:
            nginx.stop()


def test_a_table_is_reached_and_played_through_the_clubs_address(several: Site) -> None:
    with several.proxy.http() as http:
        for _ in range(4):  # the posts go to either process ($request_id); 5 a client at most
            made = http.post(f"{several.club}/api/online/tables", json={"seats": BOTS3, **UNTIMED})
            assert made.status_code == 201, made.text
            table = made.json()["table"]
            # through the club's address: the owner answers, or says where it is
            api = http.get(f"{several.club}/api/online/tables/{table}")
            if api.status_code == 421:
                owner = api.headers["location"]
                assert owner in several.nodes
                api = http.get(f"{owner}/api/online/tables/{table}")
            else:
                owner = None
            assert api.status_code == 200 and api.json()["table"] == table
            page = http.get(f"{several.club}/online/{table}", follow_redirects=True)
            assert page.status_code == 200
            where = str(page.url).rsplit("/online/", 1)[0]
            assert where == (owner or several.club)
        cookie = _join(http, where, table)
    port = where.rsplit(":", 1)[1]
    end = asyncio.run(
        _play_through(f"wss://localhost:{port}/ws/online/{table}", cookie, where, several.proxy.tls)
    )
    assert end["hand"]["result"] is not None and end["status"] == "finished"


def test_a_nodes_address_goes_to_the_other_process_when_it_is_down(several: Site) -> None:
    with several.proxy.http() as http:
        for node in several.nodes:
            assert http.get(f"{node}/").status_code == 200
        first = several.servers[0]
        first.terminate()
        first.wait(timeout=15)
        # node 1's address is served by the backup (process b) now
        assert http.get(f"{several.nodes[0]}/").status_code == 200
        assert http.get(f"{several.club}/").status_code == 200
