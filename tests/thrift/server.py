"""The test suite's Spark Thrift Server, started and stopped with the shipped command.

``python -m scripts.thrift_server start|stop`` (scripts/thrift_server.py, also ``make thrift-server``) is the
command the README documents; the tests run exactly that, as a user would, so the documented command is the tested
one: a Thrift Server with Spark Connect from the pip pyspark jars, on 127.0.0.1 only, with its own warehouse and
Derby metastore in a temporary state directory, on two free ports. In a format leg (INC_JOIN_TABLE_FORMAT, e.g.
``make test-thrift-delta``) the server also gets the format's jars, extension and session catalog, as
``--conf`` options from harness/table_formats.py, the settings the embedded session of the other legs gets.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

from harness.table_formats import JARS, format_settings, table_format
from scripts.thrift_server import HOST, STATE_FILE, free_port, pyspark_home

ROOT = Path(__file__).resolve().parents[2]


def server_command(*args: str, timeout: float = 300.0) -> subprocess.CompletedProcess:
    """One run of the shipped command, from the repository root."""
    return subprocess.run(
        [sys.executable, "-m", "scripts.thrift_server", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


class ThriftServer:
    """``launch()`` runs ``start`` in the background (it returns once the server serves), ``wait()`` waits for it,
    ``stop()`` runs ``stop``."""

    def __init__(self, state_dir: Path, master: str | None = None) -> None:
        self.state = Path(state_dir).resolve()
        self.master = master
        self.thrift_port = free_port()
        self.connect_port = free_port()
        while self.connect_port == self.thrift_port:
            self.connect_port = free_port()
        self.log_path = self.state / "server.log"
        self.started_in: float | None = None
        self.start_output = ""
        self.pid: int | None = None
        self._start: subprocess.Popen | None = None

    @property
    def connect_url(self) -> str:
        return f"sc://{HOST}:{self.connect_port}"

    def start_arguments(self) -> list[str]:
        return (
            [
                "start",
                "--state-dir",
                str(self.state),
                "--thrift-port",
                str(self.thrift_port),
                "--connect-port",
                str(self.connect_port),
            ]
            + (["--master", self.master] if self.master else [])
            + hive_llap_options()
            + format_options()
        )

    def launch(self) -> ThriftServer:
        self._began = time.monotonic()
        self._start = subprocess.Popen(
            [sys.executable, "-m", "scripts.thrift_server", *self.start_arguments()],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        return self

    def wait(self, timeout: float = 300.0) -> ThriftServer:
        out, err = self._start.communicate(timeout=timeout)
        self.start_output = out + err
        if self._start.returncode != 0:
            raise RuntimeError(
                f"python -m scripts.thrift_server {' '.join(self.start_arguments())} failed "
                f"(exit code {self._start.returncode}):\n{self.start_output}"
            )
        self.started_in = time.monotonic() - self._began
        self.pid = int(json.loads((self.state / STATE_FILE).read_text())["pid"])
        return self

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def stop(self) -> subprocess.CompletedProcess:
        if self._start is not None and self._start.poll() is None:  # still starting: let it finish first
            self._start.communicate(timeout=300)
        return server_command("stop", "--state-dir", str(self.state))


def hive_llap_options() -> list[str]:
    """pip's pyspark 4 leaves out Hive's hive-llap-common (SPARK-51029). The Thrift Server's Hive session code
    initialises Hive's function registry on some session closes, which then fails with NoClassDefFoundError
    LlapSigner$Signable, and dbt reports the model whose connection it closed as failed (seen on pyspark 4.1.4).
    The jar of `make jars` (jars/pom.xml, profile hive-llap) on the server's class path, where pyspark lacks it."""
    if list((pyspark_home() / "jars").glob("hive-llap-common-*.jar")):
        return []
    jars = sorted((JARS / "hive-llap").glob("hive-llap-common-*.jar"))
    if not jars:
        raise FileNotFoundError(f"No hive-llap-common jar in {JARS / 'hive-llap'}: run `make jars` first.")
    return ["--conf", "spark.driver.extraClassPath=" + ":".join(str(jar) for jar in jars)]


def format_options() -> list[str]:
    """``--conf KEY=VALUE`` for the run's table format (none for parquet)."""
    options = []
    for key, value in format_settings(table_format()).items():
        options += ["--conf", f"{key}={value}"]
    return options


def listening_addresses(port: int) -> list[str]:
    """The local addresses a TCP port listens on, from /proc/net/tcp{,6} (Linux); [] when unknown."""
    found = []
    for name in ("tcp", "tcp6"):
        path = Path("/proc/net") / name
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            fields = line.split()
            address, hex_port = fields[1].rsplit(":", 1)
            if fields[3] == "0A" and int(hex_port, 16) == port:  # 0A: LISTEN
                found.append(_decode_address(address))
    return found


def _decode_address(hex_address: str) -> str:
    raw = bytes.fromhex(hex_address)
    # /proc stores each 32-bit word in host (little-endian) order
    words = b"".join(raw[i : i + 4][::-1] for i in range(0, len(raw), 4))
    if len(words) == 4:
        return socket.inet_ntop(socket.AF_INET, words)
    text = socket.inet_ntop(socket.AF_INET6, words)
    return text[len("::ffff:") :] if text.startswith("::ffff:") else text
