# The two commands of the README: `make demo` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PEER := .bench-peer
PEER_STAMP := $(PEER)/.installed

.PHONY: demo test pictures java clean-state bench bench-quick bench-peer thrift-server thrift-server-stop

demo: $(STAMP)
	$(BIN)/python scripts/demo.py

# The benchmark's quick mode is part of the suite (tests/bench), so the peer overlay must exist first.
test: $(STAMP) $(PEER_STAMP)
	$(BIN)/python -m pytest

# The README's benchmark (bench/): `make bench` is the full run (about 25 minutes on 2 cores; the data is
# generated once and cached under bench/.cache/), `make bench-quick` the CI-sized one. Pass options with
# BENCH_ARGS, e.g. `make bench BENCH_ARGS="--days 730 --repeats 7"`.
bench: $(STAMP) $(PEER_STAMP)
	$(BIN)/python -m bench.run $(BENCH_ARGS)

bench-quick: $(STAMP) $(PEER_STAMP)
	$(BIN)/python -m bench.run --quick $(BENCH_ARGS)

# The peer inc-join 0.1.3 in its own directory, on sys.path for the benchmark only (never a dependency).
bench-peer: $(PEER_STAMP)

# The README's pictures: lateness histogram with the suggested windows, JoinType counts per day.
pictures: $(STAMP)
	$(BIN)/python scripts/pictures.py --out docs/images

# Spark 4 needs Java 17 or newer; say so plainly instead of failing inside the JVM launcher.
java:
	@command -v java >/dev/null 2>&1 || { echo "inc_join: Java 17 or newer is required (java not found on PATH); install e.g. openjdk-17-jre-headless." >&2; exit 1; }
	@v=$$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n1); \
	  [ -n "$$v" ] && [ "$$v" -ge 17 ] || { echo "inc_join: Java 17 or newer is required (found: $$(java -version 2>&1 | head -n1))." >&2; exit 1; }

$(STAMP): pyproject.toml requirements/dev.txt | java
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements/dev.txt
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps -e . --config-settings editable_mode=compat
	touch $(STAMP)

$(PEER_STAMP): requirements/bench.txt | $(STAMP)
	rm -rf $(PEER)
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps --target $(PEER) -r requirements/bench.txt
	touch $(PEER_STAMP)

# A local Spark Thrift Server with Spark Connect from pip's pyspark, on 127.0.0.1 only, its warehouse and Derby
# metastore in THRIFT_STATE (scripts/thrift_server.py; tests/thrift runs the same command). `make thrift-server`
# returns once it serves; `make thrift-server-stop` ends it. dbt: method thrift, host 127.0.0.1, port THRIFT_PORT;
# Python models: Spark Connect at sc://127.0.0.1:CONNECT_PORT.
THRIFT_STATE ?= .thrift-server
THRIFT_PORT ?= 10000
CONNECT_PORT ?= 15002

thrift-server: $(STAMP)
	$(BIN)/python -m scripts.thrift_server start --state-dir $(THRIFT_STATE) --thrift-port $(THRIFT_PORT) --connect-port $(CONNECT_PORT)

thrift-server-stop:
	$(BIN)/python -m scripts.thrift_server stop --state-dir $(THRIFT_STATE)

# Local Spark/dbt state the demo and tests leave behind (all gitignored).
clean-state:
	rm -rf .spark-state spark-warehouse metastore_db derby.log integration_tests/target integration_tests/logs
