"""A Spark Thrift Server with Spark Connect on 127.0.0.1, started from the pip pyspark jars.

pip's pyspark has no ``sbin/start-thriftserver.sh``, but its jars contain the Thrift Server
(spark-hive-thriftserver) and Spark Connect (spark-connect), so ``bin/spark-submit --class
org.apache.spark.sql.hive.thriftserver.HiveThriftServer2 ... spark-internal`` starts one. The server gets its
own warehouse, Derby metastore, Hive scratch directories and log in ``state_dir``, and two free ports: one
for thrift (dbt-spark ``method: thrift``) and one for Spark Connect (Python models). Everything binds to
127.0.0.1.

Run by hand (for a look with beeline or dbt): ``python -m tests.thrift.server <state dir>``.
"""
from __future__ import annotations

import atexit
import os
import signal
import tempfile
import socket
import subprocess
import time
import zipfile
from pathlib import Path
from typing import Dict, List, Optional

HOST = "127.0.0.1"
THRIFT_SERVER_CLASS = "org.apache.spark.sql.hive.thriftserver.HiveThriftServer2"
CONNECT_PLUGIN_CLASS = "org.apache.spark.sql.connect.SparkConnectPlugin"

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
            raise RuntimeError(f"pyspark at {home} has no {cls} (looked in jars/{pattern}); this pyspark build cannot "
                               "run a Spark Thrift Server with Spark Connect.")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def port_open(port: int, host: str = HOST) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(0.5)
        return s.connect_ex((host, port)) == 0


class ThriftServer:
    """One Spark Thrift Server (+ Spark Connect) process; ``start()`` waits until both ports answer."""

    def __init__(self, state_dir: Path, *, driver_memory: str = "1g", cores: int = 2) -> None:
        self.state = Path(state_dir).resolve()
        self.home = pyspark_home()
        self.driver_memory, self.cores = driver_memory, cores
        self.thrift_port = self.connect_port = 0
        self.process: Optional[subprocess.Popen] = None
        self.log_path = self.state / "server.log"
        self.started_in: Optional[float] = None

    @property
    def connect_url(self) -> str:
        return f"sc://{HOST}:{self.connect_port}"

    def command(self) -> List[str]:
        state = self.state
        conf: Dict[str, str] = {
            "spark.plugins": CONNECT_PLUGIN_CLASS,
            "spark.connect.grpc.binding.address": HOST,
            "spark.connect.grpc.binding.port": str(self.connect_port),
            "spark.driver.host": HOST,
            "spark.driver.bindAddress": HOST,
            "spark.ui.enabled": "false",
            "spark.sql.shuffle.partitions": "2",
            "spark.default.parallelism": "2",
            "spark.sql.session.timeZone": "UTC",
            "spark.sql.warehouse.dir": str(state / "warehouse"),
            "spark.hadoop.javax.jdo.option.ConnectionURL":
                f"jdbc:derby:;databaseName={state / 'metastore_db'};create=true",
            # C1 only: on short test runs the C2 compiler costs twice the server's CPU time and never pays back
            "spark.driver.extraJavaOptions": f"-Dderby.system.home={state} -Duser.timezone=UTC "
                                             "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:ReservedCodeCacheSize=256m",
            "spark.local.dir": str(state / "tmp"),
        }
        hiveconf = {
            "hive.server2.thrift.bind.host": HOST,
            "hive.server2.thrift.port": str(self.thrift_port),
            "hive.exec.scratchdir": str(state / "hive-scratch"),
            "hive.exec.local.scratchdir": str(state / "hive-local"),
            "hive.downloaded.resources.dir": str(state / "hive-resources") + "/${hive.session.id}",
            "hive.server2.logging.operation.log.location": str(state / "operation-logs"),
        }
        command = [str(self.home / "bin" / "spark-submit"), "--class", THRIFT_SERVER_CLASS,
                   "--master", f"local[{self.cores}]", "--name", "inc_join_thrift",
                   "--driver-memory", self.driver_memory]
        for key, value in conf.items():
            command += ["--conf", f"{key}={value}"]
        for key, value in hiveconf.items():
            command += ["--hiveconf", f"{key}={value}"]
        return command + ["spark-internal"]

    def environment(self) -> Dict[str, str]:
        conf_dir = self.state / "conf"  # our log4j2.properties; no spark-defaults.conf of the machine
        conf_dir.mkdir(parents=True, exist_ok=True)
        (conf_dir / "log4j2.properties").write_text(LOG4J2)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("SPARK_", "PYSPARK_"))}
        env.update(SPARK_HOME=str(self.home), SPARK_CONF_DIR=str(conf_dir), SPARK_LOCAL_IP=HOST,
                   SPARK_LOG_DIR=str(self.state), TZ="UTC")
        return env

    def start(self, timeout: float = 180.0) -> "ThriftServer":
        return self.launch().wait(timeout)

    def launch(self) -> "ThriftServer":
        """Start the process and return at once; ``wait()`` blocks until it serves."""
        check_jars(self.home)
        for name in ("tmp", "hive-scratch", "hive-local", "hive-resources", "operation-logs"):
            # Hive creates them when a session opens, and fails when two sessions race to do so
            (self.state / name).mkdir(parents=True, exist_ok=True)
        self.thrift_port, self.connect_port = free_port(), free_port()
        while self.connect_port == self.thrift_port:
            self.connect_port = free_port()
        self._launched = time.monotonic()
        atexit.register(self.stop)  # no orphaned JVM if the caller dies without stopping it
        with open(self.log_path, "wb") as log:
            # a process group of its own: stop() ends spark-submit's JVM and nothing else
            self.process = subprocess.Popen(self.command(), stdout=log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, env=self.environment(), cwd=self.state,
                                            start_new_session=True)
        return self

    def wait(self, timeout: float = 180.0) -> "ThriftServer":
        began = self._launched
        while not (port_open(self.thrift_port) and port_open(self.connect_port)):
            if self.process.poll() is not None:
                raise RuntimeError(f"the Spark Thrift Server exited with code {self.process.returncode} while "
                                   f"starting; last lines of {self.log_path}:\n{self.log_tail()}")
            if time.monotonic() - began > timeout:
                self.stop()
                raise RuntimeError(f"the Spark Thrift Server did not open 127.0.0.1:{self.thrift_port} (thrift) and "
                                   f":{self.connect_port} (Spark Connect) within {timeout:.0f} s; last lines of "
                                   f"{self.log_path}:\n{self.log_tail()}")
            time.sleep(0.25)
        self.started_in = time.monotonic() - began
        return self

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def stop(self, timeout: float = 30.0) -> None:
        """SIGTERM to the server's process group (the JVM shuts down its services), SIGKILL if it hangs."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)
        except ProcessLookupError:
            pass


def listening_addresses(port: int) -> List[str]:
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
    words = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))
    if len(words) == 4:
        return socket.inet_ntop(socket.AF_INET, words)
    text = socket.inet_ntop(socket.AF_INET6, words)
    return text[len("::ffff:"):] if text.startswith("::ffff:") else text


if __name__ == "__main__":  # a server for a look by hand; Ctrl-C (or SIGTERM to this process) stops it
    import sys

    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt))
    state = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="inc-join-thrift-"))
    server = ThriftServer(state).start()
    print(f"thrift 127.0.0.1:{server.thrift_port}, Spark Connect {server.connect_url}, started in "
          f"{server.started_in:.1f} s, log {server.log_path}", flush=True)
    try:
        server.process.wait()
    except KeyboardInterrupt:
        server.stop()
