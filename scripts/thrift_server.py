"""A local Spark Thrift Server with Spark Connect, from pip's pyspark, on 127.0.0.1 only.

pip's pyspark has no ``sbin/start-thriftserver.sh``, but its jars hold the Thrift Server (spark-hive-thriftserver)
and Spark Connect (spark-connect), so ``bin/spark-submit --class
org.apache.spark.sql.hive.thriftserver.HiveThriftServer2 ... spark-internal`` starts one. This module builds that
command completely: thrift and Spark Connect bound to 127.0.0.1, and the server's own warehouse, Derby
metastore, Hive scratch directories, Spark local dir and log, all under one state directory.

    python -m scripts.thrift_server start [--state-dir .thrift-server] [--thrift-port 10000] [--connect-port 15002]
    python -m scripts.thrift_server status [--state-dir .thrift-server]
    python -m scripts.thrift_server stop [--state-dir .thrift-server]
    python -m scripts.thrift_server run ...      (in the foreground; Ctrl-C stops it)

``--conf KEY=VALUE`` (repeatable) adds a Spark setting to the server's, for example a table format's jars,
extension and session catalog (docs/table-formats.md); it wins over this module's own value of the same key.

(``make thrift-server`` / ``make thrift-server-stop`` run the same.) ``start`` returns once both ports answer and
leaves the server running in the background; ``stop`` ends it. A port of 0 picks a free one. The state directory
keeps the tables between restarts; ``server.json`` in it says where the running server listens. dbt connects
with ``method: thrift`` (host 127.0.0.1, the thrift port), Python models through Spark Connect
(``sc://127.0.0.1:<connect port>``). tests/thrift runs its server through this command.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import zipfile
from collections.abc import Sequence
from pathlib import Path

HOST = "127.0.0.1"
THRIFT_SERVER_CLASS = "org.apache.spark.sql.hive.thriftserver.HiveThriftServer2"
CONNECT_PLUGIN_CLASS = "org.apache.spark.sql.connect.SparkConnectPlugin"
DEFAULT_STATE_DIR = ".thrift-server"
DEFAULT_THRIFT_PORT = 10000
DEFAULT_CONNECT_PORT = 15002
STATE_FILE = "server.json"

# WARN and up, except the lines that say the services started; Hive's per-statement config warnings off.
LOG4J2 = """\
rootLogger.level = warn
rootLogger.appenderRef.console.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{HH:mm:ss.SSS} %p %c{1}: %m%n%ex
logger.thrift.name = org.apache.spark.sql.hive.thriftserver.HiveThriftServer2
logger.thrift.level = info
logger.thriftcli.name = org.apache.hive.service.cli.thrift.ThriftCLIService
logger.thriftcli.level = info
logger.connect.name = org.apache.spark.sql.connect.service.SparkConnectService
logger.connect.level = info
logger.hiveconf.name = org.apache.hadoop.hive.conf.HiveConf
logger.hiveconf.level = error
logger.dag.name = org.apache.spark.scheduler.DAGScheduler
logger.dag.level = error
"""


class ServerError(Exception):
    """A problem the command reports as one ``inc_join: ...`` line (bad option, busy port, failed start)."""


def pyspark_home() -> Path:
    """The pip pyspark install (its bin/ and jars/), found through the package, never a fixed path."""
    import pyspark

    return Path(pyspark.__file__).resolve().parent


def check_jars(home: Path) -> None:
    """The Thrift Server and Spark Connect classes must be in the jars, else say which jar is missing."""
    wanted = {THRIFT_SERVER_CLASS: "spark-hive-thriftserver_*.jar", CONNECT_PLUGIN_CLASS: "spark-connect_*.jar"}
    for cls, pattern in wanted.items():
        entry = cls.replace(".", "/") + ".class"
        jars = sorted((home / "jars").glob(pattern))
        if not any(entry in zipfile.ZipFile(jar).namelist() for jar in jars):
            raise ServerError(
                f"pyspark at {home} has no {cls} (looked in jars/{pattern}); this pyspark build "
                "cannot run a Spark Thrift Server with Spark Connect."
            )


def local_class_path(jars: str) -> str:
    """The local files of a comma-separated spark.jars value as a JVM class path."""
    paths = [jar.strip().removeprefix("file:") for jar in jars.split(",")]
    return os.pathsep.join(path for path in paths if path and "://" not in path)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def port_open(port: int, host: str = HOST) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(0.5)
        return s.connect_ex((host, port)) == 0


def port_free(port: int) -> bool:
    """Whether the server could bind 127.0.0.1:port (nothing listens there). As the JVM's servers do, the probe
    binds with SO_REUSEADDR: the closed connections of a server just stopped (TIME_WAIT) do not hold the port."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((HOST, port))
        except OSError:
            return False
    return True


def pid_alive(pid: int) -> bool:
    """The process exists and is not a zombie (an orphaned server is reaped by whoever adopted it)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("State:"):
                return "Z" not in line.split()[1]
    except OSError:
        pass
    return True


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


class ThriftServer:
    """One Spark Thrift Server (+ Spark Connect) process whose state lives in ``state_dir``.

    ``launch()`` starts it and returns at once, ``wait()`` blocks until both ports answer, ``stop()`` ends it.
    ``ThriftServer.attach(state_dir)`` finds a server started earlier (by another process) from its server.json."""

    def __init__(
        self,
        state_dir: Path,
        *,
        thrift_port: int = DEFAULT_THRIFT_PORT,
        connect_port: int = DEFAULT_CONNECT_PORT,
        driver_memory: str = "1g",
        cores: int = 2,
        master: str | None = None,
        conf: dict[str, str] | None = None,
    ) -> None:
        self.state = Path(state_dir).resolve()
        self.thrift_port, self.connect_port = thrift_port, connect_port
        self.driver_memory, self.cores = driver_memory, cores
        # None: local[cores] in the server's JVM; spark://...: executors on a standalone cluster's workers
        self.master = master
        # more Spark settings (--conf KEY=VALUE), e.g. Delta Lake's jars, extension and spark_catalog
        self.conf = dict(conf or {})
        self.pid: int | None = None
        self.process: subprocess.Popen | None = None
        self.log_path = self.state / "server.log"
        self.started_in: float | None = None
        self._launched = 0.0

    @property
    def connect_url(self) -> str:
        return f"sc://{HOST}:{self.connect_port}"

    @property
    def state_file(self) -> Path:
        return self.state / STATE_FILE

    def command(self, home: Path) -> list[str]:
        state = self.state
        conf: dict[str, str] = {
            "spark.plugins": CONNECT_PLUGIN_CLASS,
            "spark.connect.grpc.binding.address": HOST,
            "spark.connect.grpc.binding.port": str(self.connect_port),
            "spark.driver.host": HOST,
            "spark.driver.bindAddress": HOST,
            "spark.ui.enabled": "false",
            "spark.sql.shuffle.partitions": str(self.cores),
            "spark.default.parallelism": str(self.cores),
            "spark.sql.session.timeZone": "UTC",
            "spark.sql.warehouse.dir": str(state / "warehouse"),
            "spark.hadoop.javax.jdo.option.ConnectionURL": (
                f"jdbc:derby:;databaseName={state / 'metastore_db'};create=true"
            ),
            # C1 only: on short runs the C2 compiler costs twice the server's CPU time and never pays back
            "spark.driver.extraJavaOptions": f"-Dderby.system.home={state} -Duser.timezone=UTC "
            "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:ReservedCodeCacheSize=256m",
            "spark.local.dir": str(state / "tmp"),
        }
        if self.master:
            conf["spark.executor.memory"] = "512m"
            conf["spark.executor.extraJavaOptions"] = "-Duser.timezone=UTC -XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
        conf.update(self.conf)
        if "spark.jars" in self.conf:
            # The Thrift Server runs each statement with its session's jar class loader, which does not see the
            # jars of spark.jars: `USING delta` then fails with DATA_SOURCE_NOT_FOUND (pyspark 4.1.4, Delta 4.4).
            # On the driver's own class path every thread finds them; spark.jars still ships them to executors.
            paths = [self.conf.get("spark.driver.extraClassPath", ""), local_class_path(self.conf["spark.jars"])]
            conf["spark.driver.extraClassPath"] = os.pathsep.join(path for path in paths if path)
        hiveconf = {
            "hive.server2.thrift.bind.host": HOST,
            "hive.server2.thrift.port": str(self.thrift_port),
            "hive.exec.scratchdir": str(state / "hive-scratch"),
            "hive.exec.local.scratchdir": str(state / "hive-local"),
            "hive.downloaded.resources.dir": str(state / "hive-resources") + "/${hive.session.id}",
            "hive.server2.logging.operation.log.location": str(state / "operation-logs"),
        }
        command = [
            str(home / "bin" / "spark-submit"),
            "--class",
            THRIFT_SERVER_CLASS,
            "--master",
            self.master or f"local[{self.cores}]",
            "--name",
            "inc_join_thrift",
            "--driver-memory",
            self.driver_memory,
        ]
        for key, value in conf.items():
            command += ["--conf", f"{key}={value}"]
        for key, value in hiveconf.items():
            command += ["--hiveconf", f"{key}={value}"]
        return command + ["spark-internal"]

    def environment(self, home: Path) -> dict[str, str]:
        conf_dir = self.state / "conf"  # our log4j2.properties; no spark-defaults.conf of the machine
        conf_dir.mkdir(parents=True, exist_ok=True)
        (conf_dir / "log4j2.properties").write_text(LOG4J2)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("SPARK_", "PYSPARK_"))}
        env.update(
            SPARK_HOME=str(home),
            SPARK_CONF_DIR=str(conf_dir),
            SPARK_LOCAL_IP=HOST,
            SPARK_LOG_DIR=str(self.state),
            TZ="UTC",
        )
        return env

    def check(self) -> None:
        """Everything that can be checked before a JVM starts: state directory, ports, no server running."""
        if self.state.exists() and not self.state.is_dir():
            raise ServerError(f"--state-dir {self.state} is a file; pass a directory (created if missing).")
        running = ThriftServer.attach(self.state)
        if running is not None:
            raise ServerError(
                f"a Spark Thrift Server is already running from --state-dir {self.state} (pid "
                f"{running.pid}, thrift {HOST}:{running.thrift_port}, Spark Connect "
                f"{running.connect_url}); stop it first: python -m scripts.thrift_server stop "
                f"--state-dir {self.state}"
            )
        for option, port in (("--thrift-port", self.thrift_port), ("--connect-port", self.connect_port)):
            if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
                raise ServerError(
                    f"{option} must be a port number from 1 to 65535, or 0 for a free one (got {port!r})."
                )
        if self.thrift_port and self.thrift_port == self.connect_port:
            raise ServerError(f"--thrift-port and --connect-port must differ (both {self.thrift_port}).")
        for option, port in (("--thrift-port", self.thrift_port), ("--connect-port", self.connect_port)):
            if port and not port_free(port):
                raise ServerError(
                    f"{option} {port} is already in use on {HOST}; stop what listens there or pass "
                    f"another port ({option} 0 picks a free one)."
                )

    def launch(self) -> ThriftServer:
        """Start the server process (in a session of its own) and return at once; ``wait()`` blocks until it
        serves. The process outlives this Python process; ``stop()`` (or the ``stop`` command) ends it."""
        self.check()
        home = pyspark_home()
        check_jars(home)
        for name in ("tmp", "hive-scratch", "hive-local", "hive-resources", "operation-logs"):
            # Hive creates them when a session opens, and fails when two sessions race to do so
            (self.state / name).mkdir(parents=True, exist_ok=True)
        if self.thrift_port == 0:
            self.thrift_port = free_port()
        while self.connect_port in (0, self.thrift_port):
            self.connect_port = free_port()
        self._launched = time.monotonic()
        with open(self.log_path, "wb") as log:
            # a process group of its own: stop() ends spark-submit's JVM and nothing else
            self.process = subprocess.Popen(
                self.command(home),
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env=self.environment(home),
                cwd=self.state,
                start_new_session=True,
            )
        self.pid = self.process.pid
        self.state_file.write_text(
            json.dumps(
                {
                    "pid": self.pid,
                    "host": HOST,
                    "thrift_port": self.thrift_port,
                    "connect_port": self.connect_port,
                    "connect_url": self.connect_url,
                    "log": str(self.log_path),
                },
                indent=2,
            )
            + "\n"
        )
        return self

    def alive(self) -> bool:
        if self.process is not None:
            return self.process.poll() is None
        return self.pid is not None and pid_alive(self.pid)

    def wait(self, timeout: float = 180.0) -> ThriftServer:
        while not (port_open(self.thrift_port) and port_open(self.connect_port)):
            if not self.alive():
                code = self.process.returncode if self.process is not None else "unknown"
                self._forget()
                raise ServerError(
                    f"the Spark Thrift Server exited with code {code} while starting; last lines of "
                    f"{self.log_path}:\n{self.log_tail()}"
                )
            if time.monotonic() - self._launched > timeout:
                self.stop()
                raise ServerError(
                    f"the Spark Thrift Server did not open {HOST}:{self.thrift_port} (thrift) and "
                    f":{self.connect_port} (Spark Connect) within {timeout:.0f} s; last lines of "
                    f"{self.log_path}:\n{self.log_tail()}"
                )
            time.sleep(0.25)
        self.started_in = time.monotonic() - self._launched
        return self

    def start(self, timeout: float = 180.0) -> ThriftServer:
        return self.launch().wait(timeout)

    @classmethod
    def attach(cls, state_dir: Path) -> ThriftServer | None:
        """The server started from ``state_dir`` if it still runs (its server.json, a live process that is a
        Thrift Server of this state directory), else None."""
        state = Path(state_dir).resolve()
        try:
            info = json.loads((state / STATE_FILE).read_text())
            pid = int(info["pid"])
        except (OSError, ValueError, KeyError, TypeError):
            return None
        if not pid_alive(pid):
            return None
        cmdline = _cmdline(pid)
        if cmdline and (THRIFT_SERVER_CLASS not in cmdline or str(state) not in cmdline):
            return None  # the pid now belongs to another process: never signal it
        server = cls(state, thrift_port=int(info["thrift_port"]), connect_port=int(info["connect_port"]))
        server.pid = pid
        return server

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def stop(self, timeout: float = 30.0) -> bool:
        """SIGTERM to the server's process group (the JVM shuts its services down), SIGKILL if it hangs.
        Returns whether a running server was stopped."""
        pid, process = self.pid, self.process
        if pid is None or not self.alive():
            self._forget()
            return False
        try:
            os.killpg(pid, signal.SIGTERM)
        except ProcessLookupError:
            self._forget()
            return False
        if not self._ended(timeout):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
            self._ended(10)
        if process is not None:
            process.wait(10)
        self._forget()
        return True

    def _ended(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.alive():
                return True
            time.sleep(0.2)
        return not self.alive()

    def _forget(self) -> None:
        self.pid, self.process = None, None
        self.state_file.unlink(missing_ok=True)


class _Parser(argparse.ArgumentParser):
    """argparse, with its errors as one ``inc_join: ...`` line like every other bad input."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"inc_join: {message} (see: {self.prog} --help)\n")


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"must be a port number from 1 to 65535, or 0 for a free one (got {text!r})")
    return port


def _setting(text: str) -> tuple[str, str]:
    key, equals, value = text.partition("=")
    if not equals or not key.strip() or key != key.strip():
        raise argparse.ArgumentTypeError(
            f"must be a Spark setting KEY=VALUE, e.g. spark.jars=/path/a.jar (got {text!r})"
        )
    return key, value


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python -m scripts.thrift_server",
        description="A local Spark Thrift Server with Spark Connect (127.0.0.1 only).",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    for name, text in (
        ("start", "start in the background; return once both ports answer"),
        ("run", "run in the foreground; Ctrl-C stops it"),
        ("status", "say whether a server runs from the state directory, and where it listens"),
        ("stop", "stop the server started from the state directory"),
    ):
        sub = commands.add_parser(name, help=text)
        sub.add_argument(
            "--state-dir",
            default=DEFAULT_STATE_DIR,
            help=f"warehouse, Derby metastore, log and server.json (default {DEFAULT_STATE_DIR})",
        )
        if name in ("start", "run"):
            sub.add_argument(
                "--thrift-port",
                type=_port,
                default=DEFAULT_THRIFT_PORT,
                help=f"thrift port for dbt-spark method: thrift (default {DEFAULT_THRIFT_PORT}; 0: free)",
            )
            sub.add_argument(
                "--connect-port",
                type=_port,
                default=DEFAULT_CONNECT_PORT,
                help=f"Spark Connect port for Python models (default {DEFAULT_CONNECT_PORT}; 0: free)",
            )
            sub.add_argument("--driver-memory", default="1g", help="the server JVM's memory (default 1g)")
            sub.add_argument("--cores", type=int, default=2, help="local cores (default 2)")
            sub.add_argument(
                "--master",
                default=None,
                help="a standalone master's URL (spark://127.0.0.1:<port>, python -m scripts.spark_cluster "
                "start) for executors on its workers; default local[--cores] in the server's JVM",
            )
            sub.add_argument("--timeout", type=float, default=180.0, help="seconds to wait for the ports (180)")
            sub.add_argument(
                "--conf",
                type=_setting,
                action="append",
                default=[],
                metavar="KEY=VALUE",
                help="one more Spark setting for the server (repeatable), e.g. a table format's spark.jars, "
                "spark.sql.extensions and spark.sql.catalog.spark_catalog",
            )
    return parser


def _describe(server: ThriftServer) -> str:
    return (
        f"Spark Thrift Server (pid {server.pid}) on {HOST}:{server.thrift_port} for dbt-spark method: thrift; "
        f"Spark Connect at {server.connect_url} for Python models; state and log in {server.state}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    state = Path(args.state_dir)
    try:
        if args.command in ("start", "run"):
            server = ThriftServer(
                state,
                thrift_port=args.thrift_port,
                connect_port=args.connect_port,
                driver_memory=args.driver_memory,
                cores=args.cores,
                master=args.master,
                conf=dict(args.conf),
            )
            server.start(args.timeout)
            print(_describe(server) + f"; started in {server.started_in:.1f} s", flush=True)
            if args.command == "start":
                print(f"stop it with: python -m scripts.thrift_server stop --state-dir {args.state_dir}", flush=True)
                return 0
            signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt))
            try:
                server.process.wait()
            except KeyboardInterrupt:
                server.stop()
            return 0
        server = ThriftServer.attach(state)
        if args.command == "status":
            print(_describe(server) if server else f"no Spark Thrift Server is running from {state.resolve()}")
            return 0 if server else 3
        if server is None or not server.stop():
            print(f"no Spark Thrift Server is running from {state.resolve()}; nothing to stop")
        else:
            print(f"stopped the Spark Thrift Server of {state.resolve()}")
        return 0
    except ServerError as error:
        print(f"inc_join: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
