"""A Spark standalone cluster from pip's pyspark, on 127.0.0.1 only: one master and N workers, each a JVM of its own.

    python -m scripts.spark_cluster start [--state-dir .spark-cluster] [--workers 2] [--cores 1] [--memory 1g]
    python -m scripts.spark_cluster stop [--state-dir .spark-cluster]

``start`` returns once every worker has registered with the master and prints the master's URL
(``spark://127.0.0.1:<port>``); ``cluster.json`` in the state directory says the same, with the processes.
A Thrift Server runs its executors on it with ``python -m scripts.thrift_server start --master <url>``
(docs/cluster.md). The workers' executors are separate JVMs, so a test can kill one while a run is in flight.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from scripts.thrift_server import HOST, ServerError, free_port, pid_alive, port_open, pyspark_home

STATE_FILE = "cluster.json"
MASTER_CLASS = "org.apache.spark.deploy.master.Master"
WORKER_CLASS = "org.apache.spark.deploy.worker.Worker"
REGISTERED = "Successfully registered with master"


def _environment(home: Path, state: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SPARK_", "PYSPARK_"))}
    env.update(SPARK_HOME=str(home), SPARK_LOCAL_IP=HOST, SPARK_LOG_DIR=str(state), SPARK_WORKER_DIR=str(state))
    return env


def _launch(home: Path, state: Path, name: str, arguments: list[str]) -> int:
    """One daemon JVM (spark-class in the foreground, in a session of its own), its output in <name>.log."""
    with open(state / f"{name}.log", "wb") as log:
        process = subprocess.Popen(
            [str(home / "bin" / "spark-class"), *arguments],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=_environment(home, state),
            cwd=state,
            start_new_session=True,
        )
    return process.pid


def start(state: Path, workers: int, cores: int, memory: str, timeout: float = 120.0) -> dict:
    state = state.resolve()
    running = json.loads((state / STATE_FILE).read_text())["pids"] if (state / STATE_FILE).exists() else []
    if any(pid_alive(pid) for pid in running):
        raise ServerError(f"a cluster is already running from --state-dir {state}; stop it first.")
    state.mkdir(parents=True, exist_ok=True)
    home = pyspark_home()
    port = free_port()
    master_url = f"spark://{HOST}:{port}"
    pids = [_launch(home, state, "master", [MASTER_CLASS, "--host", HOST, "--port", str(port), "--webui-port", "0"])]
    began = time.monotonic()
    while not port_open(port):
        if time.monotonic() - began > timeout or not pid_alive(pids[0]):
            stop_pids(pids)
            raise ServerError(f"the Spark master did not open {master_url}; see {state / 'master.log'}")
        time.sleep(0.25)
    for index in range(workers):
        work_dir = state / f"worker-{index}"
        work_dir.mkdir(exist_ok=True)
        arguments = [WORKER_CLASS, "--host", HOST, "--cores", str(cores), "--memory", memory]
        arguments += ["--webui-port", "0", "--work-dir", str(work_dir), master_url]
        pids.append(_launch(home, state, f"worker-{index}", arguments))
    info = {"master_url": master_url, "pids": pids, "workers": workers, "state": str(state)}
    (state / STATE_FILE).write_text(json.dumps(info, indent=2) + "\n")
    while not all(REGISTERED in (state / f"worker-{i}.log").read_text(errors="replace") for i in range(workers)):
        if time.monotonic() - began > timeout or not all(pid_alive(p) for p in pids):
            stop(state)
            raise ServerError(f"the workers did not register with {master_url} in {timeout:.0f} s; see {state}")
        time.sleep(0.25)
    return info


def stop_pids(pids: list[int]) -> None:
    for pid in pids:
        if pid_alive(pid):
            os.killpg(pid, signal.SIGTERM)  # the JVM and its executors (same process group)
    deadline = time.monotonic() + 20
    while any(pid_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.2)
    for pid in pids:
        if pid_alive(pid):
            os.killpg(pid, signal.SIGKILL)


def stop(state: Path) -> None:
    path = state.resolve() / STATE_FILE
    if not path.exists():
        return
    stop_pids(json.loads(path.read_text())["pids"])
    path.unlink()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.spark_cluster", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name in ("start", "stop"):
        sub = commands.add_parser(name)
        sub.add_argument("--state-dir", type=Path, default=Path(".spark-cluster"))
        if name == "start":
            sub.add_argument("--workers", type=int, default=2, help="worker JVMs (default 2)")
            sub.add_argument("--cores", type=int, default=1, help="cores per worker (default 1)")
            sub.add_argument("--memory", default="1g", help="memory per worker (default 1g)")
    args = parser.parse_args(argv)
    try:
        if args.command == "start":
            print(start(args.state_dir, args.workers, args.cores, args.memory)["master_url"])
        else:
            stop(args.state_dir)
    except ServerError as error:
        print(f"inc_join: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
