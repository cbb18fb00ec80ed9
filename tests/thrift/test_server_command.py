"""The shipped Spark Thrift Server command (python -m scripts.thrift_server, make thrift-server): the suite's
server was started with it (conftest.py) and is stopped with it at the end; here its status, and the clear
refusals before any JVM starts (a second server on the same state directory, a busy port, bad options)."""

from __future__ import annotations

import subprocess

import pytest

from .server import HOST, ROOT, server_command

pytestmark = pytest.mark.thrift


def test_status_names_the_running_server(thrift_server):
    answer = server_command("status", "--state-dir", str(thrift_server.state))
    assert answer.returncode == 0, answer.stderr
    assert answer.stdout.strip() == (
        f"Spark Thrift Server (pid {thrift_server.pid}) on {HOST}:{thrift_server.thrift_port} for dbt-spark method: "
        f"thrift; Spark Connect at sc://{HOST}:{thrift_server.connect_port} for Python models; state and log in "
        f"{thrift_server.state}"
    )
    assert (
        "started in" in thrift_server.start_output
        and "python -m scripts.thrift_server stop" in thrift_server.start_output
    )


def test_a_second_start_from_the_same_state_dir_is_refused(thrift_server):
    answer = server_command(
        "start", "--state-dir", str(thrift_server.state), "--thrift-port", "0", "--connect-port", "0"
    )
    assert answer.returncode == 1
    assert answer.stderr == (
        f"inc_join: a Spark Thrift Server is already running from --state-dir {thrift_server.state} (pid "
        f"{thrift_server.pid}, thrift {HOST}:{thrift_server.thrift_port}, Spark Connect {thrift_server.connect_url}); "
        f"stop it first: python -m scripts.thrift_server stop --state-dir {thrift_server.state}\n"
    )
    assert server_command("status", "--state-dir", str(thrift_server.state)).returncode == 0  # untouched


def test_a_busy_port_is_refused_before_a_server_starts(thrift_server, tmp_path):
    port = thrift_server.thrift_port
    answer = server_command(
        "start", "--state-dir", str(tmp_path / "other"), "--thrift-port", str(port), "--connect-port", "0"
    )
    assert answer.returncode == 1
    assert answer.stderr == (
        f"inc_join: --thrift-port {port} is already in use on {HOST}; stop what listens there "
        "or pass another port (--thrift-port 0 picks a free one).\n"
    )
    assert not (tmp_path / "other" / "server.json").exists()


def test_a_port_whose_closed_connections_wait_is_free():
    """A server just stopped leaves its closed connections in TIME_WAIT on its port: a new server binds it (as the
    JVM's do, with SO_REUSEADDR), so the check does not refuse a restart on the same port."""
    import socket

    from scripts.thrift_server import port_free

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the JVM's servers listen
        listener.bind((HOST, 0))
        listener.listen()
        port = listener.getsockname()[1]
        client = socket.create_connection((HOST, port))
        accepted, _ = listener.accept()
        assert not port_free(port)  # listening
        accepted.close()  # the server's side closes first: its end of the connection waits (TIME_WAIT)
        client.close()
    assert port_free(port)


@pytest.mark.parametrize(
    "options, message",
    [
        (
            ["--thrift-port", "abc"],
            "argument --thrift-port: must be a port number from 1 to 65535, or 0 for a free one "
            "(got 'abc') (see: python -m scripts.thrift_server start --help)",
        ),
        (
            ["--connect-port", "70000"],
            "argument --connect-port: must be a port number from 1 to 65535, or 0 for a free "
            "one (got '70000') (see: python -m scripts.thrift_server start --help)",
        ),
        (
            ["--conf", "spark.jars"],
            "argument --conf: must be a Spark setting KEY=VALUE, e.g. spark.jars=/path/a.jar (got 'spark.jars') "
            "(see: python -m scripts.thrift_server start --help)",
        ),
        (
            ["--thrift-port", "10123", "--connect-port", "10123"],
            "--thrift-port and --connect-port must differ (both 10123).",
        ),
    ],
)
def test_bad_options_are_one_message(tmp_path, options, message):
    answer = server_command("start", "--state-dir", str(tmp_path), *options)
    assert answer.returncode in (1, 2)
    assert answer.stderr == f"inc_join: {message}\n"
    assert not (tmp_path / "server.json").exists()


def test_a_state_dir_that_is_a_file_is_refused(tmp_path):
    (tmp_path / "file").write_text("")
    answer = server_command("start", "--state-dir", str(tmp_path / "file"))
    assert answer.returncode == 1
    assert (
        answer.stderr == f"inc_join: --state-dir {tmp_path / 'file'} is a file; pass a directory (created if "
        "missing).\n"
    )


def test_stop_and_status_without_a_server(tmp_path):
    stop = server_command("stop", "--state-dir", str(tmp_path))
    assert stop.returncode == 0
    assert stop.stdout == f"no Spark Thrift Server is running from {tmp_path}; nothing to stop\n"
    assert server_command("status", "--state-dir", str(tmp_path)).returncode == 3


def test_the_make_targets_run_this_command():
    dry = subprocess.run(
        ["make", "-n", "thrift-server", "thrift-server-stop", "THRIFT_STATE=some/state"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert dry.returncode == 0, dry.stderr
    lines = [line.split("python ", 1)[1] for line in dry.stdout.splitlines() if "scripts.thrift_server" in line]
    assert lines == [
        "-m scripts.thrift_server start --state-dir some/state --thrift-port 10000 --connect-port 15002",
        "-m scripts.thrift_server stop --state-dir some/state",
    ]


def test_a_stale_state_file_never_signals_another_process(tmp_path):
    """server.json naming a live process that is not this state directory's Thrift Server (a reused pid): status
    says nothing runs, stop signals nothing, and start may go ahead."""
    import json
    import os
    import sys
    import time

    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        (tmp_path / "server.json").write_text(json.dumps({"pid": other.pid, "thrift_port": 1, "connect_port": 2}))
        assert server_command("status", "--state-dir", str(tmp_path)).returncode == 3
        stop = server_command("stop", "--state-dir", str(tmp_path))
        assert stop.returncode == 0 and "nothing to stop" in stop.stdout
        time.sleep(0.5)
        assert other.poll() is None  # still running, untouched
    finally:
        other.kill()
        other.wait()
    assert os.path.exists(tmp_path / "server.json")  # not ours to judge beyond "not a server": left as found


def test_conf_options_join_the_command_and_spark_jars_the_driver_class_path(tmp_path):
    """--conf KEY=VALUE wins over the command's own value; the local jars of spark.jars also go on the driver's class
    path, after a given one (the Delta leg, make test-thrift-delta, shows a server needs them there)."""
    from pathlib import Path

    from scripts.thrift_server import ThriftServer

    server = ThriftServer(
        tmp_path,
        conf={
            "spark.jars": "/j/a.jar,file:/j/b.jar,https://host/c.jar",
            "spark.driver.extraClassPath": "/j/llap.jar",
            "spark.sql.shuffle.partitions": "1",
        },
    )
    command = server.command(Path("/spark"))
    settings = [command[i + 1] for i, word in enumerate(command) if word == "--conf"]
    keys = [setting.split("=", 1)[0] for setting in settings]
    assert len(keys) == len(set(keys))
    conf = dict(setting.split("=", 1) for setting in settings)
    assert conf["spark.jars"] == "/j/a.jar,file:/j/b.jar,https://host/c.jar"
    assert conf["spark.driver.extraClassPath"] == "/j/llap.jar:/j/a.jar:/j/b.jar"
    assert conf["spark.sql.shuffle.partitions"] == "1"
    assert ThriftServer(tmp_path).command(Path("/spark")).count("spark.sql.shuffle.partitions=2") == 1
