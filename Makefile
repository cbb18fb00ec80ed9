# The two commands of the README: `make demo` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PEER := .bench-peer
PEER_STAMP := $(PEER)/.installed
# The second environment: the latest pyspark 3.5 (requirements/spark35.txt), for what pyproject promises.
VENV35 := .venv-spark35
STAMP35 := $(VENV35)/.installed
# The third: Delta Lake and Iceberg (requirements/formats.txt): a pyspark both formats are built for (4.1) with the
# newest dbt-core that installs here (1.12). The formats' jars: jars/pom.xml, copied by `make jars` into .jars/.
VENVF := .venv-formats
STAMPF := $(VENVF)/.installed
JARS_STAMP := .jars/.copied
# Each leg writes its JUnit XML (every test's time) under .pytest-tmp/junit/, and --durations prints its slowest tests.
PYTEST = -m pytest --durations=15 --junitxml=.pytest-tmp/junit/$@.xml
# The parts of the dbt suite that run on every engine: the ANSI probe, the daily pipeline (SQL macro and Python
# models, method: session) and the SQL macro = core matrix.
DBT_ENGINE := tests/integration/test_engine.py
DBT_PIPELINE := tests/integration/test_dbt_pipeline.py
DBT_MATRIX := tests/integration/test_sql_matches_core.py
# The run ledger (spec §13) and restated inputs (spec §14) in Delta Lake and Iceberg; the chunked first run runs on
# Spark 3.5.
DBT_FORMAT_LEDGER := tests/integration/test_format_ledger.py
DBT_FORMAT_RESTATED := tests/integration/test_format_restated.py
DBT_CHUNKED := tests/integration/test_ledger.py::test_a_chunked_first_run_equals_the_one_shot_table
# dbt's unit tests of the package's models (the window decided in SQL over the given rows).
DBT_UNIT := tests/integration/test_unit_tests.py
# the open state's fallbacks (spec §18) through dbt: parquet in test-spark4-dbt, the formats in test-matrix (the state's
# writes on Delta and Iceberg: every daily pipeline reads and writes it, test_dbt_pipeline.py)
DBT_OPEN_STATE := tests/integration/test_open_state.py

.PHONY: help demo check generate test test-fast test-core test-install test-matrix test-faults test-coverage pictures java \
	integration-deps test-spark4-dbt test-spark4-thrift test-spark4-core \
	test-cluster test-spark4-cluster test-spark4-adapter test-spark4-adapter-without test-spark4-ansi-dbt \
	test-spark35 test-formats test-formats-extra test-delta-spark41 test-iceberg-spark41 \
	test-delta-spark35 test-thrift-delta jars clean-state bench bench-quick bench-peer thrift-server thrift-server-stop

help: ## These targets, one line each
	@grep -E '^[a-z0-9.-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | expand -t 20

demo: $(STAMP) ## The worked example as a dbt pipeline on the embedded Spark (the README's first command)
	$(BIN)/python scripts/demo.py

# The axes and their values: engine (pyspark 4.3 with parquet, 4.1 with Delta and Iceberg, 3.5), ANSI on and off
# (tests/conftest.py: INC_JOIN_ANSI; unset, Spark 4's core is on and dbt-spark's statements off), table format
# (INC_JOIN_TABLE_FORMAT), connection (method: session, Thrift Server, Spark Connect, a standalone cluster) and
# dbt's adapter suite. `make test` runs each value at least once, combined pairwise:
#   leg                 engine  ANSI (core / dbt)  format    connection
#   spark4-core         4.3     on                 parquet   session (Spark's interpreted evaluation, below)
#   spark4-dbt          4.3     - / off            parquet   session (kills drawn; interpreted, below)
#   spark35             3.5     off / off          parquet   session (the core, the SQL macro = core matrix)
#   delta-spark41       4.1     - / off            delta     session (kills drawn; no daily pipeline)
#   iceberg-spark41     4.1     - / off            iceberg   session (kills drawn)
#   delta-spark35       3.5     - / on             delta     session
#   thrift-delta        4.1     - / off            delta     Thrift Server and Spark Connect
#   spark4-cluster      4.3     - / off            parquet   standalone cluster (an executor killed)
#   spark4-adapter      4.3     - / off            parquet   dbt's adapter suite
# ANSI on reaches dbt's statements in delta-spark35 and the core's in spark4-core; spark4-ansi-dbt (the SQL macro = core
# matrix with ANSI on) is in `make test-matrix`. A test whose subject does not depend on an axis carries a marker that
# runs it on one value of that axis (one_engine, parquet_only, one_format), and a test whose steps other tests run is
# marked matrix or release (pyproject.toml); `make test-matrix` runs everything on every value.
# The property tests draw 8 examples each on Spark 4, 4 on Spark 3.5 (hypothesis profiles, tests/conftest.py).
# spark4-core and spark4-dbt run Spark's interpreted evaluation (INC_JOIN_CODEGEN=interpreted, harness/local_spark.py):
# the same rows for less CPU on their many small queries (7 % and 5 % less time); every other leg, and test-matrix,
# compiles as a user's Spark does.

SPARK4 = INC_JOIN_EXPECT_SPARK=4 $(BIN)/python $(PYTEST)
SPARK4_ANSI = INC_JOIN_EXPECT_SPARK=4 INC_JOIN_ANSI=true $(BIN)/python $(PYTEST) --hypothesis-profile=fast
SPARK35 = INC_JOIN_EXPECT_SPARK=3.5 INC_JOIN_ANSI=false $(VENV35)/bin/python $(PYTEST) --hypothesis-profile=engine
SPARK35_ANSI = INC_JOIN_EXPECT_SPARK=3.5 INC_JOIN_ANSI=true $(VENV35)/bin/python $(PYTEST)
SPARK41_FORMATS = INC_JOIN_EXPECT_SPARK=4.1 $(VENVF)/bin/python $(PYTEST) --hypothesis-profile=fast
# Every leg has its own pytest temporary directory, Spark state and dbt target/log paths (harness/local_dbt.py), so
# legs can run at the same time; they share only the project's package link, made once by integration-deps.
BASETEMP = --basetemp=.pytest-tmp/$@
TMPDIR_READY := mkdir -p .pytest-tmp/junit &&

# `make test` runs its legs two at a time (a test process keeps about one of the 2 cores busy: Python, dbt and
# Spark's driver take turns with the executors), longest first: make starts the next leg as soon as one ends, so
# the two cores stay busy until the last short legs (TEST_LEGS' order: the legs' times in the last runs' JUnit XML,
# .pytest-tmp/junit/; delta-spark41 before the short fixed legs, as the Delta kill, when drawn, doubles it).
# --output-sync prints each leg's output in one piece when it ends. The environments and the
# jars are fetched before the legs.
TEST_LEGS := test-spark4-dbt test-spark4-core test-iceberg-spark41 test-delta-spark35 test-spark35 \
	test-delta-spark41 test-thrift-delta test-spark4-cluster test-spark4-adapter check test-install
# One seed for every leg, so the fault tests that draw among themselves across legs (tests/conftest.py) run one test.
FAULT_SEED_OR_NEW = $${INC_JOIN_FAULT_SEED:-$$($(BIN)/python -c 'import random; print(random.randrange(10**6))')}
test: java ## check and every leg, two at a time (make test-matrix: every combination)
	$(MAKE) --no-print-directory -j4 $(STAMP) $(STAMP35) $(STAMPF) $(JARS_STAMP)
	$(MAKE) --no-print-directory $(PEER_STAMP) integration-deps
	INC_JOIN_FAULT_SEED=$(FAULT_SEED_OR_NEW) $(MAKE) --no-print-directory -j2 --output-sync=target $(TEST_LEGS)

# The integration project's package link (dbt_packages/dbt_inc_join -> ..), made once before the legs start.
integration-deps: $(STAMP)
	cd integration_tests && ../$(BIN)/dbt deps --project-dir .

test-spark4: test-spark4-dbt test-spark4-thrift test-spark4-core ## The whole suite on Spark 4 (pyspark 4.3), parquet

test-spark4-dbt: $(STAMP)
	$(TMPDIR_READY) INC_JOIN_CODEGEN=interpreted $(SPARK4) $(BASETEMP) tests/integration --ignore=$(DBT_FORMAT_LEDGER) \
		--ignore=$(DBT_FORMAT_RESTATED) --ignore=$(DBT_MATRIX) --deselect $(DBT_CHUNKED)

# The core suite and the README's examples; the benchmark's quick mode (marker bench) is `make bench-quick`'s.
test-spark4-core: $(STAMP) $(PEER_STAMP)
	$(TMPDIR_READY) INC_JOIN_CODEGEN=interpreted $(SPARK4) --hypothesis-profile=fast $(BASETEMP) -m "not bench" tests \
		--ignore=tests/integration --ignore=tests/thrift --ignore=tests/cluster --ignore=tests/adapter --ignore=tests/formats --ignore=tests/packaging

test-spark4-thrift: $(STAMP) $(JARS_STAMP)
	$(TMPDIR_READY) $(SPARK4) $(BASETEMP) tests/thrift

test-spark4-ansi-dbt: $(STAMP)
	$(TMPDIR_READY) $(SPARK4_ANSI) $(BASETEMP) $(DBT_ENGINE) $(DBT_MATRIX)

# Spark 3.5, ANSI off, in one process: the core suite, the ANSI probe, the SQL macro = core matrix, the chunked run.
test-spark35: $(STAMP35) ## Spark 3.5, ANSI off: the core suite and the SQL macro = core matrix
	$(TMPDIR_READY) $(SPARK35) $(BASETEMP) tests/core $(DBT_ENGINE) $(DBT_MATRIX) $(DBT_CHUNKED)

# A standalone master, two workers and a Thrift Server on them (docs/cluster.md), with faults while runs write:
# `make test-cluster` all of them, `make test` (test-spark4-cluster) the executor killed mid-run.
CLUSTER_EXECUTOR := tests/cluster/test_cluster_faults.py::test_an_executor_killed_while_a_run_writes_is_replaced_and_the_run_succeeds
test-cluster: $(STAMP) $(JARS_STAMP) ## The run ledger's faults on a multi-process Spark cluster (tests/cluster)
	$(TMPDIR_READY) $(SPARK4) $(BASETEMP) tests/cluster

test-spark4-cluster: $(STAMP) $(JARS_STAMP)
	$(TMPDIR_READY) $(SPARK4) $(BASETEMP) $(CLUSTER_EXECUTOR)

# dbt's own adapter suite (dbt-tests-adapter, tests/adapter) in projects with this package as the README installs it.
# The control run without the package (test-spark4-adapter-without) runs when dbt or dbt-spark is upgraded.
test-spark4-adapter: $(STAMP) ## dbt's adapter suite with the package installed (tests/adapter)
	$(TMPDIR_READY) INC_JOIN_ADAPTER_PACKAGE=with $(SPARK4) --basetemp=.pytest-tmp/$@-with tests/adapter

test-spark4-adapter-without: $(STAMP) ## the adapter suite's control run, without the package
	$(TMPDIR_READY) INC_JOIN_ADAPTER_PACKAGE=without $(SPARK4) --basetemp=.pytest-tmp/$@ tests/adapter

# The table formats (spec §16): what a run reads of Delta or Iceberg inputs (tests/formats), the daily dbt pipeline,
# the kills of a run and restated inputs with every table in Delta Lake or Iceberg (INC_JOIN_TABLE_FORMAT;
# harness/table_formats.py gives the session the jars of `make jars`); dbt's unit tests and the open state's fallbacks
# (parquet_only) in `make test-matrix`. Delta and Iceberg on Spark 4.1 with dbt-core 1.12 (.venv-formats), Delta on
# Spark 3.5 with dbt-core 1.11 (.venv-spark35).
FORMAT_TESTS := tests/formats $(DBT_PIPELINE) $(DBT_UNIT)
FORMAT_TESTS_41 := $(FORMAT_TESTS) $(DBT_FORMAT_LEDGER) $(DBT_FORMAT_RESTATED) $(DBT_OPEN_STATE)

test-formats: test-delta-spark41 test-iceberg-spark41 test-delta-spark35 test-thrift-delta ## Delta Lake and Iceberg legs

# Delta's daily pipeline runs on Spark 3.5 (test-delta-spark35); on 4.1 the format's own tests, the ledger's kills and
# restated inputs write Delta 4.4 tables with SQL and Python models (pairwise: each format on one engine at least).
test-delta-spark41: $(STAMPF) $(JARS_STAMP)
	$(TMPDIR_READY) INC_JOIN_TABLE_FORMAT=delta $(SPARK41_FORMATS) $(BASETEMP) tests/formats $(DBT_FORMAT_LEDGER) \
		$(DBT_FORMAT_RESTATED)

# Iceberg leaves the race of two `merge` runs (ledger_replace, marker matrix) to test-formats-extra: Iceberg's own
# validation refuses the later commit there; the race of two insert_overwrite runs, which the package's check refuses,
# is one of the fault tests `make test` draws from.
CONCURRENT_MERGE := tests/formats/test_concurrent_runs.py::test_two_runs_of_one_window_at_once_one_commits_the_other_fails[ledger_replace]
test-iceberg-spark41: $(STAMPF) $(JARS_STAMP)
	$(TMPDIR_READY) INC_JOIN_TABLE_FORMAT=iceberg $(SPARK41_FORMATS) $(BASETEMP) $(FORMAT_TESTS_41)

test-formats-extra: $(STAMPF) $(JARS_STAMP) ## Two merge runs at once on Iceberg (left out of make test)
	$(TMPDIR_READY) INC_JOIN_MATRIX=1 INC_JOIN_FAULTS=all INC_JOIN_TABLE_FORMAT=iceberg $(SPARK41_FORMATS) $(BASETEMP) \
		"$(CONCURRENT_MERGE)"

# Delta on Spark 3.5 runs with ANSI on: the suite's daily pipeline on Spark 3.5 with ANSI on.
test-delta-spark35: $(STAMP35) $(JARS_STAMP)
	$(TMPDIR_READY) INC_JOIN_TABLE_FORMAT=delta $(SPARK35_ANSI) $(BASETEMP) $(DBT_ENGINE) $(DBT_PIPELINE)

# The cluster path on Delta: tests/thrift with the Thrift Server + Spark Connect given Delta's jars, extension and
# catalog, every table of the project in Delta Lake 4.4, on Spark 4.1 (.venv-formats).
test-thrift-delta: $(STAMPF) $(JARS_STAMP) ## The thrift leg (Thrift Server + Spark Connect) with Delta tables, Spark 4.1
	$(TMPDIR_READY) INC_JOIN_TABLE_FORMAT=delta $(SPARK41_FORMATS) $(BASETEMP) tests/thrift

# Every combination: each engine with ANSI on and off, each format on each engine it supports (Iceberg and Delta on
# 4.1 and 3.5, parquet on 4.3 and 3.5), every test on every leg (INC_JOIN_MATRIX=1: no marker leaves one out),
# every kill point, then the cluster, the thrift legs and the adapter suite. What a release runs: several hours on
# 2 cores.
MATRIX_ENV := INC_JOIN_MATRIX=1 INC_JOIN_FAULTS=all
PARQUET_TESTS := tests --ignore=tests/thrift --ignore=tests/cluster --ignore=tests/adapter --ignore=tests/formats \
	--ignore=$(DBT_FORMAT_LEDGER) --ignore=$(DBT_FORMAT_RESTATED) -m "not bench"
test-matrix: $(STAMP) $(STAMP35) $(STAMPF) $(JARS_STAMP) $(PEER_STAMP) integration-deps ## Every engine x ANSI x format (a release)
	$(TMPDIR_READY) for ansi in true false; do \
		$(MATRIX_ENV) INC_JOIN_ANSI=$$ansi INC_JOIN_EXPECT_SPARK=4 $(BIN)/python $(PYTEST) \
			--basetemp=.pytest-tmp/matrix-4.3-$$ansi $(PARQUET_TESTS) || exit 1; \
		$(MATRIX_ENV) INC_JOIN_ANSI=$$ansi INC_JOIN_EXPECT_SPARK=3.5 $(VENV35)/bin/python $(PYTEST) \
			--basetemp=.pytest-tmp/matrix-3.5-$$ansi $(PARQUET_TESTS) || exit 1; \
		for format in delta iceberg; do \
			$(MATRIX_ENV) INC_JOIN_ANSI=$$ansi INC_JOIN_TABLE_FORMAT=$$format INC_JOIN_EXPECT_SPARK=4.1 \
				$(VENVF)/bin/python $(PYTEST) --basetemp=.pytest-tmp/matrix-4.1-$$format-$$ansi $(FORMAT_TESTS_41) \
				|| exit 1; \
			$(MATRIX_ENV) INC_JOIN_ANSI=$$ansi INC_JOIN_TABLE_FORMAT=$$format INC_JOIN_EXPECT_SPARK=3.5 \
				$(VENV35)/bin/python $(PYTEST) --basetemp=.pytest-tmp/matrix-3.5-$$format-$$ansi $(FORMAT_TESTS) \
				|| exit 1; \
		done; \
	done
	$(MAKE) --no-print-directory test-cluster test-spark4-thrift test-thrift-delta test-spark4-adapter test-formats-extra

# Every kill point of the fault tests (marker fault), on parquet, Delta and Iceberg, the race of two runs on Iceberg,
# and every cluster fault; `make test` draws one test of each group of tests/conftest.py's FAULT_DRAWS and one of its
# moments (the seed is in each leg's header).
test-faults: $(STAMP) $(STAMPF) $(JARS_STAMP) integration-deps ## Every kill point of the fault tests
	$(TMPDIR_READY) INC_JOIN_FAULTS=all $(SPARK4) --basetemp=.pytest-tmp/$@-parquet -m fault tests/integration
	INC_JOIN_FAULTS=all INC_JOIN_TABLE_FORMAT=delta $(SPARK41_FORMATS) --basetemp=.pytest-tmp/$@-delta -m fault \
		$(DBT_FORMAT_LEDGER)
	INC_JOIN_FAULTS=all INC_JOIN_TABLE_FORMAT=iceberg $(SPARK41_FORMATS) --basetemp=.pytest-tmp/$@-iceberg -m fault \
		$(DBT_FORMAT_LEDGER) tests/formats/test_concurrent_runs.py
	$(MAKE) --no-print-directory test-cluster

# make test's legs measured: line coverage of src/dbt_inc_join in every Python process (coverage.py, started by a
# .pth file this writes into each test venv; it does nothing without COVERAGE_PROCESS_START) and the package's
# macros called (harness/coverage_hook.py); scripts/coverage_report.py prints both. Slower than make test.
COVERAGE_DATA := .pytest-tmp/coverage
test-coverage: $(STAMP) $(STAMP35) $(STAMPF) $(JARS_STAMP) $(PEER_STAMP) integration-deps ## make test measured: line coverage of src/, macros called
	rm -rf $(COVERAGE_DATA) && mkdir -p $(COVERAGE_DATA)
	printf '[run]\nsource = dbt_inc_join\nparallel = true\ndata_file = %s/.coverage\n' "$(abspath $(COVERAGE_DATA))" \
		> $(COVERAGE_DATA)/coveragerc
	for venv in $(VENV) $(VENV35) $(VENVF); do \
		echo "import runpy, os; os.environ.get('INC_JOIN_COVERAGE_HOOK') and runpy.run_path(os.environ['INC_JOIN_COVERAGE_HOOK'])" \
			> $$($$venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/inc_join_coverage.pth; \
	done
	INC_JOIN_COVERAGE_HOOK=$(abspath harness/coverage_hook.py) COVERAGE_PROCESS_START=$(abspath $(COVERAGE_DATA))/coveragerc \
		INC_JOIN_MACRO_TRACE=$(abspath $(COVERAGE_DATA))/macros INC_JOIN_FAULT_SEED=$(FAULT_SEED_OR_NEW) \
		$(MAKE) --no-print-directory -j2 --output-sync=target $(TEST_LEGS)
	$(BIN)/python scripts/coverage_report.py $(COVERAGE_DATA)

# The fast tier: every test that needs no Spark job, no dbt invocation and no install (tests/conftest.py's
# --no-spark leaves out the tests whose fixtures include `spark` and those marked `dbt` or `spark`): the shared
# tables, the messages, the macros rendered with jinja2, the pure rules, the benchmark's arithmetic. No JVM starts.
FAST_TESTS := tests/core tests/bench tests/test_readme_examples.py tests/test_docs_examples.py tests/test_fault_draws.py

test-fast: $(STAMP) ## The tests without a Spark job, a dbt invocation or an install (under 30 s)
	$(BIN)/python -m pytest --durations=5 --no-spark --hypothesis-profile=fast -m "not bench" $(FAST_TESTS)

# The install tier: the package built and installed (wheel, path install, the core where dbt is not installed),
# the generated macros, the profiles, the jars command. The README's Delta path from a fresh virtual environment
# (pip's cache, Maven's local repository) is marked release: `make test-matrix`, or INC_JOIN_MATRIX=1 here.
test-install: $(STAMP) $(JARS_STAMP) ## Packaging and install (tests/packaging; the README's Delta path: test-matrix)
	$(TMPDIR_READY) $(BIN)/python $(PYTEST) $(BASETEMP) tests/packaging

test-core: $(STAMP) $(PEER_STAMP) ## The fast loop: the PySpark core without dbt, on Spark 4
	$(BIN)/python -m pytest --hypothesis-profile=fast -m "not bench" tests/core

# Lint, format and types (ruff and mypy, configured in pyproject.toml); part of `make test`.
check: $(STAMP) ## ruff lint and format check, mypy
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The tables both languages share (version, JoinTypes, the run ledger's columns) live once, in
# src/dbt_inc_join/tables/shared_tables.py; the macros read the copy this writes into macros/tables/generated/ (and
# dbt_project.yml's version). tests/packaging/test_generated.py fails when the copy is stale.
generate: $(STAMP) ## Write macros/tables/generated/*.sql and dbt_project.yml's version from src/dbt_inc_join/tables/shared_tables.py
	$(BIN)/python scripts/generate_macros.py

# The README's benchmark (bench/): `make bench` is the full run of the six suites, each a bench/protocol.py Suite
# timed and reported by that one module: the daily run against history length (bench/few.py, about 25 minutes on
# 2 cores; `big`, the same at 200,000 A rows a day, bench/few.py's Big), the many-rows-per-key modes of spec §11 (bench/many.py, 20-40 minutes, most of it its hand-written
# baselines), the run ledger's daily dbt runs with and without record_run (bench/ledger.py, about 12-20 minutes),
# the check of restated inputs and a redo (bench/restated.py, spec §14, about 25 minutes), and inc_join_many
# against chained inc_join calls and one hand-written query (bench/enrich.py, about 21 minutes);
# the data is generated once and cached under bench/.cache/.
# `make bench-quick` is the CI-sized one. Pass options with BENCH_ARGS, e.g.
# `make bench BENCH_ARGS="--days 730 --repeats 7"` or `make bench BENCH_ARGS="--suite ledger"`.
bench: $(STAMP) $(PEER_STAMP) ## The README's benchmark, six suites (BENCH_ARGS for options)
	$(BIN)/python -m bench.run $(BENCH_ARGS)

# bench-quick runs bench.run --quick through tests/bench/test_bench_quick.py (marker bench), which checks its reads
# and rows; with BENCH_ARGS it runs the command alone.
bench-quick: $(STAMP) $(PEER_STAMP) ## The benchmark's CI-sized run, with its checks of reads and rows
	$(if $(BENCH_ARGS),$(BIN)/python -m bench.run --quick $(BENCH_ARGS),$(BIN)/python -m pytest -m bench tests/bench)

# The peer inc-join 0.1.3 in its own directory, on sys.path for the benchmark only (never a dependency).
bench-peer: $(PEER_STAMP) ## Install the peer inc-join 0.1.3 into .bench-peer/

# The README's pictures: lateness histogram with the suggested windows, JoinType counts per day.
pictures: $(STAMP) ## Redraw the README's pictures into docs/images
	$(BIN)/python scripts/pictures.py --out docs/images

# Spark 4 needs Java 17 or newer; say so plainly instead of failing inside the JVM launcher.
java: ## Check that Java 17 or newer is on PATH
	@command -v java >/dev/null 2>&1 || { echo "inc_join: Java 17 or newer is required (java not found on PATH); install e.g. openjdk-17-jre-headless." >&2; exit 1; }
	@v=$$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n1); \
	  [ -n "$$v" ] && [ "$$v" -ge 17 ] || { echo "inc_join: Java 17 or newer is required (found: $$(java -version 2>&1 | head -n1))." >&2; exit 1; }

# The editable install (hatchling) is a path entry for src/ in a .pth file: dbt-core's scan of installed `dbt_*`
# modules finds dbt_inc_join, and the tree gets no build output. The rm: what the former setuptools build left in
# a checkout (a stale src/*.egg-info would be a second copy of the package's metadata on the path).
$(STAMP): pyproject.toml requirements/dev.txt | java
	$(PYTHON) -m venv $(VENV)
	rm -rf build src/*.egg-info
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements/dev.txt
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $(STAMP)

# The same way as .venv, with pyspark 3.5 and its dbt pair instead of requirements/dev.txt.
$(STAMP35): pyproject.toml requirements/spark35.txt | java
	$(PYTHON) -m venv $(VENV35)
	$(VENV35)/bin/pip install --quiet --disable-pip-version-check -r requirements/spark35.txt
	rm -rf build src/*.egg-info
	$(VENV35)/bin/pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $(STAMP35)

# The same way again; dbt-core 1.12's parser package comes only as a wheel here (its source build downloads).
$(STAMPF): pyproject.toml requirements/formats.txt | java
	$(PYTHON) -m venv $(VENVF)
	$(VENVF)/bin/pip install --quiet --disable-pip-version-check --only-binary=dbt-core-experimental-parser \
		-r requirements/formats.txt
	rm -rf build src/*.egg-info
	$(VENVF)/bin/pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $(STAMPF)

# The table formats' jars from Maven Central, one folder per jars/pom.xml profile (<format>-spark<x.y>), fetched
# once as the venvs are by scripts/format_jars.py (the README's command for one format); a Spark session takes them
# through spark.jars (harness/table_formats.py).
# hive-llap: the jar of Hive's that pip's pyspark 4 leaves out and the Thrift Server needs (jars/pom.xml).
JAR_SETS := delta-spark4.1 iceberg-spark4.1 delta-spark3.5 hive-llap derby-network

jars: $(JARS_STAMP) ## Fetch the Delta Lake and Iceberg jars into .jars/ (Maven, jars/pom.xml)

$(JARS_STAMP): jars/pom.xml
	@command -v mvn >/dev/null 2>&1 || { echo "inc_join: Maven (mvn) is required to fetch the Delta and Iceberg jars." >&2; exit 1; }
	rm -rf .jars
	for set in $(JAR_SETS); do $(PYTHON) scripts/format_jars.py --profile $$set >/dev/null || exit 1; done
	touch $(JARS_STAMP)

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

thrift-server: $(STAMP) ## Start a local Spark Thrift Server with Spark Connect (127.0.0.1)
	$(BIN)/python -m scripts.thrift_server start --state-dir $(THRIFT_STATE) --thrift-port $(THRIFT_PORT) --connect-port $(CONNECT_PORT)

thrift-server-stop: ## Stop it
	$(BIN)/python -m scripts.thrift_server stop --state-dir $(THRIFT_STATE)

# Local Spark/dbt state the demo and tests leave behind (all gitignored).
clean-state: ## Remove the local Spark/dbt state the demo and tests leave behind
	rm -rf .spark-state spark-warehouse metastore_db derby.log integration_tests/target integration_tests/logs .pytest-tmp
