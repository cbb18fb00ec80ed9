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
# --durations: the slowest tests of each leg in its log, to keep the suite's time in view
PYTEST := -m pytest --durations=15
# The parts of the dbt suite that run on every engine: the ANSI probe, the daily pipeline (SQL macro and Python
# models, method: session) and the SQL macro = core matrix.
DBT_ENGINE := tests/integration/test_engine.py
DBT_PIPELINE := tests/integration/test_dbt_pipeline.py
DBT_MATRIX := tests/integration/test_sql_matches_core.py
# The run ledger (spec §13): its daily runs with threads = 4 and its fault chain are a leg of their own on Spark 4;
# the chunked first run runs on Spark 3.5 too.
DBT_LEDGER := tests/integration/test_ledger.py
DBT_RESTATED := tests/integration/test_restated.py
DBT_FORMAT_LEDGER := tests/integration/test_format_ledger.py
DBT_FORMAT_RESTATED := tests/integration/test_format_restated.py
DBT_CHUNKED := "tests/integration/test_ledger.py::test_a_chunked_first_run_equals_the_one_shot_table"
# dbt's unit tests of the package's models (the window decided in SQL over the given rows), on both engines.
DBT_UNIT := tests/integration/test_unit_tests.py
# The core suite on the other engines, less what does not depend on the engine: the side-by-side comparison with
# the original library (compatibility mode; its SQL runs on every engine through the SQL = core matrix), the
# pictures, the checks of tables and log text, and the twins compared as text (no Spark job).
ENGINE_CORE := tests/core --ignore=tests/core/test_compat_mode.py --ignore=tests/core/test_pictures.py \
	--ignore=tests/core/test_join_type_table.py --ignore=tests/core/test_run_log_line.py \
	--ignore=tests/core/test_twins.py --ignore=tests/core/test_changed_files.py

.PHONY: help demo check generate test test-fast test-core test-spark4 test-spark4-ansi test-spark35 test-spark35-ansi pictures java \
	integration-deps test-lane-1 test-lane-2 test-spark4-dbt test-spark4-thrift test-spark4-ledger test-spark4-core test-cluster \
	test-spark4-cluster test-spark4-adapter test-spark4-adapter-without \
	test-spark4-ansi-dbt test-spark4-ansi-core test-spark35-dbt test-spark35-core test-spark35-ansi-dbt \
	test-spark35-ansi-core test-formats test-formats-extra test-delta-spark41 test-iceberg-spark41 test-delta-spark35 test-thrift-delta jars clean-state bench bench-quick bench-peer thrift-server thrift-server-stop

help: ## These targets, one line each
	@grep -E '^[a-z0-9.-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | expand -t 20

demo: $(STAMP) ## The worked example as a dbt pipeline on the embedded Spark (the README's first command)
	$(BIN)/python scripts/demo.py

# The engine matrix (tests/conftest.py reads INC_JOIN_ANSI and INC_JOIN_EXPECT_SPARK):
#   Spark 4 (pyspark 4.3)   everything; core with Spark 4's ANSI on, dbt with dbt-spark's ANSI off
#   Spark 4, ANSI on        the SQL macro = core matrix with dbt statements under ANSI
#   Spark 3.5, ANSI off     the core suite, the SQL macro = core matrix
#   Spark 3.5, ANSI on      the daily dbt pipeline (SQL and Python models)
# The core's logic runs with ANSI on (Spark 4) and on Spark 3.5 with ANSI off: each axis once.
# The engine runs use smaller hypothesis profiles (tests/conftest.py): the properties are engine-independent logic,
# drawn 16 examples each on Spark 4; the Spark 3.5 core leg draws 4 each (`engine`; the tests on fixed rows run
# there in full).

SPARK4 := INC_JOIN_EXPECT_SPARK=4 $(BIN)/python $(PYTEST)
SPARK4_ANSI := INC_JOIN_EXPECT_SPARK=4 INC_JOIN_ANSI=true $(BIN)/python $(PYTEST) --hypothesis-profile=fast
SPARK35 := INC_JOIN_EXPECT_SPARK=3.5 INC_JOIN_ANSI=false $(VENV35)/bin/python $(PYTEST) --hypothesis-profile=engine
SPARK35_ANSI := INC_JOIN_EXPECT_SPARK=3.5 INC_JOIN_ANSI=true $(VENV35)/bin/python $(PYTEST)
# Each engine run is split into legs, one pytest process each: `-dbt` (tests/integration/, the integration dbt
# project driven in the test process), `-core` (the rest), and on Spark 4 `-thrift` (tests/thrift/). Every leg
# has its own pytest temporary directory, Spark state and dbt target/log paths (harness/local_dbt.py), so legs
# can run at the same time; they share only the project's package link, made once by integration-deps.
BASETEMP = --basetemp=.pytest-tmp/$@
TMPDIR_READY := mkdir -p .pytest-tmp &&

# `make test` runs two lanes at once, each its legs one after the other: a test process keeps about one of the
# 2 cores busy (Python, dbt and Spark's driver take turns with the executors), and the lanes take about as long
# as each other. --output-sync prints each leg's output in one piece when it ends. The three environments and the
# jars are fetched at once before the lanes (pip and Maven wait on their index and disk as much as on a core).
test: java ## check and every engine run, in two lanes at once (about 36-40 min on 2 cores)
	$(MAKE) --no-print-directory -j4 $(STAMP) $(STAMP35) $(STAMPF) $(JARS_STAMP)
	$(MAKE) --no-print-directory $(PEER_STAMP) integration-deps
	$(MAKE) --no-print-directory -j2 --output-sync=recurse test-lane-1 test-lane-2

# The integration project's package link (dbt_packages/dbt_inc_join -> ..), made once before the lanes start.
integration-deps: $(STAMP)
	cd integration_tests && ../$(BIN)/dbt deps --project-dir .

# The thrift leg on pyspark 4.3 with parquet tables (test-spark4-thrift) is left out of `make test` for its time:
# the same tests run in test-thrift-delta (Thrift Server and Spark Connect, pyspark 4.1, Delta), and the cluster leg
# runs pyspark 4.3's Thrift Server with a parquet SQL model; `make test-spark4` and `make test-spark4-thrift` run it.
test-lane-1: # lint and types, the Spark 4 dbt leg, the Spark 4 ANSI core leg, the run ledger's leg (with the restated inputs), the Spark 3.5 dbt and ANSI core legs, Delta on 4.1
	$(MAKE) --no-print-directory check
	$(MAKE) --no-print-directory test-spark4-dbt
	$(MAKE) --no-print-directory test-spark4-ansi-core
	$(MAKE) --no-print-directory test-spark4-ledger
	$(MAKE) --no-print-directory test-spark35-dbt
	$(MAKE) --no-print-directory test-spark35-ansi-core
	$(MAKE) --no-print-directory test-delta-spark41

test-lane-2: # the cluster, the Spark 3.5 core leg, the Spark 4 ANSI dbt leg, the Spark 4 core leg, dbt's adapter suite, Iceberg on 4.1, Delta on 3.5, thrift on Delta
	$(MAKE) --no-print-directory test-spark4-cluster
	$(MAKE) --no-print-directory test-spark35-core
	$(MAKE) --no-print-directory test-spark4-ansi-dbt
	$(MAKE) --no-print-directory test-spark4-core
	$(MAKE) --no-print-directory test-spark4-adapter
	$(MAKE) --no-print-directory test-iceberg-spark41
	$(MAKE) --no-print-directory test-delta-spark35
	$(MAKE) --no-print-directory test-thrift-delta

test-spark4: test-spark4-dbt test-spark4-thrift test-spark4-ledger test-spark4-core ## The whole suite on Spark 4 (pyspark 4.3), as configured by default
test-spark4-ansi: test-spark4-ansi-dbt test-spark4-ansi-core ## Spark 4, ANSI on for dbt too: the SQL macro = core matrix
test-spark35: test-spark35-dbt test-spark35-core ## Spark 3.5, ANSI off: the core suite and the SQL macro = core matrix
test-spark35-ansi: test-spark35-ansi-dbt test-spark35-ansi-core ## Spark 3.5, ANSI on: the engine checks and the daily dbt pipeline

test-spark4-dbt: $(STAMP)
	$(TMPDIR_READY) $(SPARK4) $(BASETEMP) tests/integration --ignore=$(DBT_LEDGER) --ignore=$(DBT_RESTATED) --ignore=$(DBT_FORMAT_LEDGER) \
		--ignore=$(DBT_FORMAT_RESTATED)

test-spark4-ledger: $(STAMP)
	$(TMPDIR_READY) $(SPARK4) $(BASETEMP) $(DBT_LEDGER) $(DBT_RESTATED) -k "not chunked"

# The benchmark's quick mode is part of the suite (tests/bench), so the peer overlay must exist first.
test-spark4-core: $(STAMP) $(PEER_STAMP)
	$(TMPDIR_READY) $(SPARK4) $(BASETEMP) tests --ignore=tests/integration --ignore=tests/thrift --ignore=tests/cluster \
		--ignore=tests/adapter --ignore=tests/formats

test-spark4-thrift: $(STAMP) $(JARS_STAMP)
	$(TMPDIR_READY) $(SPARK4) $(BASETEMP) tests/thrift

test-spark4-ansi-dbt: $(STAMP)
	$(TMPDIR_READY) $(SPARK4_ANSI) $(BASETEMP) $(DBT_ENGINE) $(DBT_MATRIX)

test-spark4-ansi-core: $(STAMP)
	$(TMPDIR_READY) $(SPARK4_ANSI) $(BASETEMP) tests/core/test_engine.py

# dbt's unit tests run on pyspark 4.3 (test-spark4-dbt) and on both formats with 4.1, not here (about a minute of
# make test, issue 42's budget): a unit test's statement is a run's join with its window bounds as scalar subqueries
# over the fixtures (macros/orchestration/_fixtures.sql), plain SQL that Spark 3.5 runs as 4.x does
test-spark35-dbt: $(STAMP35)
	$(TMPDIR_READY) $(SPARK35) $(BASETEMP) $(DBT_ENGINE) $(DBT_MATRIX) $(DBT_CHUNKED)

# The Spark 3.5 core leg also leaves out the pure rules, which run no Spark job (the same Python on every engine):
# the run ledger's (test_ledger.py) and sizing's on a given histogram (test_sizing_histogram.py and
# test_sizing_nearest.py, hypothesis with 200-400 examples each: about 30 s); test_sizing_spark.py keeps the
# histograms Spark computes on every engine.
PURE_RULES := --ignore=tests/core/test_ledger.py --ignore=tests/core/test_sizing_histogram.py \
	--ignore=tests/core/test_sizing_nearest.py

# On Spark 3.5 the one-row-per-A matrix of join_cond keeps partner = first and the grouped plan of how = full (last
# and the aggregate take first's plan with another order or fold; Spark 4 runs the whole matrix): about 2 min of it.
# ... and the hypothesis properties of one inc_join (test_properties.py) and of restated inputs
# (test_restated_property.py) run on Spark 4 only, 16 examples each: with the 4 examples the 3.5 leg could afford they
# added little to its tests on fixed rows, which cover the same features (about 4 of its minutes in `make test`).
# test_many's tiling property stays (inc_join_many's only property on 3.5).
SPARK35_PROPERTIES := --ignore=tests/core/test_properties.py --ignore=tests/core/test_restated_property.py
# ... and on Spark 3.5 the tests whose statements are logic over SQL that other tests there run too (about 2 min): the
# spec's worked example as daily runs (test_spec_example.py: the SQL macro = core matrix runs the same plans on 3.5),
# sizing's histograms compared with every pair (the hand-made histories keep sizing's SQL on 3.5), and
# many_rows_per_key='auto' tiling and choosing per input (a run choosing from its own slices keeps auto's samples)
SPARK35_SAME_SQL := --ignore=tests/core/test_spec_example.py
SPARK35_K := -k "not (one_row_of_each_a_row and (last or aggregate or many-inner)) \
	and not histograms_from_counts_equal_every_pair and not auto_tiles_like_one_run \
	and not each_input_of_inc_join_many_chooses and not takes_the_plain_plan_on_a_short_read_range"

test-spark35-core: $(STAMP35)
	$(TMPDIR_READY) $(SPARK35) $(BASETEMP) $(ENGINE_CORE) $(PURE_RULES) $(SPARK35_PROPERTIES) $(SPARK35_SAME_SQL) \
		$(SPARK35_K)

test-spark35-ansi-dbt: $(STAMP35)
	$(TMPDIR_READY) $(SPARK35_ANSI) $(BASETEMP) $(DBT_ENGINE) $(DBT_PIPELINE)

test-spark35-ansi-core: $(STAMP35)
	$(TMPDIR_READY) $(SPARK35_ANSI) $(BASETEMP) tests/core/test_engine.py

# A standalone master, two workers and a Thrift Server on them (docs/cluster.md), with faults while runs write:
# `make test-cluster` all of them, `make test` (test-spark4-cluster) the executor killed mid-run.
test-cluster: $(STAMP) $(JARS_STAMP) ## The run ledger's faults on a multi-process Spark cluster (tests/cluster, about 3 min)
	$(TMPDIR_READY) $(SPARK4) $(BASETEMP) tests/cluster

test-spark4-cluster: $(STAMP) $(JARS_STAMP)
	$(TMPDIR_READY) $(SPARK4) $(BASETEMP) tests/cluster -k executor

# dbt's own adapter suite (dbt-tests-adapter, tests/adapter) in projects with this package as the README installs it:
# every test passes, the Python model tests too. The control run without the package (the same outcome per test,
# the Python model tests failing: dbt-spark has no Python-model helper for method: session) is
# test-spark4-adapter-without, run when dbt or dbt-spark is upgraded; `make test` leaves it out for its time.
test-spark4-adapter: $(STAMP) ## dbt's adapter suite with the package installed (tests/adapter, about 2 min)
	$(TMPDIR_READY) INC_JOIN_ADAPTER_PACKAGE=with $(SPARK4) --basetemp=.pytest-tmp/$@-with tests/adapter

test-spark4-adapter-without: $(STAMP) ## the adapter suite's control run, without the package (about 2 min)
	$(TMPDIR_READY) INC_JOIN_ADAPTER_PACKAGE=without $(SPARK4) --basetemp=.pytest-tmp/$@ tests/adapter

# The table formats (spec §16): what a run reads of Delta or Iceberg inputs (tests/formats), the daily dbt pipeline
# (SQL and Python models) and dbt's unit tests with every table in Delta Lake or Iceberg (INC_JOIN_TABLE_FORMAT; harness/table_formats.py gives the session the jars of `make
# jars`, the format's extension and catalog). Delta and Iceberg on Spark 4.1 with dbt-core 1.12 (.venv-formats),
# Delta on Spark 3.5 with dbt-core 1.11 (.venv-spark35). Two concurrent runs (tests/formats/test_concurrent_runs.py,
# two dbt processes on a Derby network metastore of pyspark 4.1's Derby version) run in the Spark 4.1 legs only.
FORMAT_TESTS := tests/formats $(DBT_PIPELINE) $(DBT_UNIT)
# the pipeline's tests that do not depend on the tables' format (a view, dbt's --empty, a second microbatch model's
# four hourly batches; the daily microbatch models run in every leg) run in the parquet legs only, and so do those
# of the models a format leg does not build (how = inner, one row per A: tests/integration/pipeline.py, PARQUET_ONLY)
FORMAT_SKIPPED := hourly_microbatch or currently_waiting or empty_flag or inner or one_row_per_a
# spec §14's fingerprints of the read ranges, restated by the format's own DELETE, UPDATE and MERGE
# (test_format_restated.py's first test), run on Iceberg: the fingerprints are the same SQL on either format, and
# the log test after it, which runs on both, names those statements from Delta's and Iceberg's logs and checks the
# input versions a run records (about 2.5 of the Delta leg's minutes); and the generic tests on the daily tables,
# which run on Iceberg 4.1, Delta 3.5 and parquet (SQL over the tables, the same on either format)
DELTA_41_K := -k "not ($(FORMAT_SKIPPED) or by_the_format_s_statements or generic_tests_hold)"
# Iceberg leaves the race of two `merge` runs (ledger_replace) to test-formats-extra: there Iceberg's own validation
# refuses the later commit; the race of two insert_overwrite runs, which the package's check refuses, stays. Two dbt
# processes on a Derby network metastore (test_shared_metastore: the README's parquet profile) run in the Delta leg.
ICEBERG_41_K := -k "not ($(FORMAT_SKIPPED) or ledger_replace or shared_metastore)"
# on Spark 4.1 also the run ledger's kills and commit metadata on the format, and restated inputs (Delta 3.5: the
# pipeline, issue 42)
FORMAT_TESTS_41 := $(FORMAT_TESTS) $(DBT_FORMAT_LEDGER) $(DBT_FORMAT_RESTATED)
SPARK41_FORMATS := INC_JOIN_EXPECT_SPARK=4.1 $(VENVF)/bin/python $(PYTEST) --hypothesis-profile=fast

test-formats: test-delta-spark41 test-iceberg-spark41 test-delta-spark35 test-thrift-delta ## Delta Lake and Iceberg: the daily pipeline and unit tests per format, the thrift leg on Delta

test-delta-spark41: $(STAMPF) $(JARS_STAMP)
	$(TMPDIR_READY) INC_JOIN_TABLE_FORMAT=delta $(SPARK41_FORMATS) $(BASETEMP) $(FORMAT_TESTS_41) $(DELTA_41_K)

test-iceberg-spark41: $(STAMPF) $(JARS_STAMP)
	$(TMPDIR_READY) INC_JOIN_TABLE_FORMAT=iceberg $(SPARK41_FORMATS) $(BASETEMP) $(FORMAT_TESTS_41) $(ICEBERG_41_K)

test-formats-extra: $(STAMPF) $(JARS_STAMP) ## The format tests make test leaves out for its time: two merge runs at once on Iceberg
	$(TMPDIR_READY) INC_JOIN_TABLE_FORMAT=iceberg $(SPARK41_FORMATS) $(BASETEMP) tests/formats/test_concurrent_runs.py \
		-k ledger_replace

# Delta on Spark 3.5 runs with ANSI on: it is also the suite's daily pipeline on Spark 3.5 with ANSI on (the parquet
# one, test-spark35-ansi-dbt, is left out of `make test` for the suite's time; each axis stays covered once). It
# builds neither the Python model of several inputs nor the hourly model (tests/integration/pipeline.py), so their
# tests are left out too.
DELTA_35_K := -k "not ($(FORMAT_SKIPPED) or hourly_pipeline or model_of_several_inputs)"
test-delta-spark35: $(STAMP35) $(JARS_STAMP)
	$(TMPDIR_READY) INC_JOIN_TABLE_FORMAT=delta $(SPARK35_ANSI) $(BASETEMP) $(DBT_ENGINE) \
		$(DBT_PIPELINE) $(DELTA_35_K)

# The cluster path on Delta (issue 42, item 6): tests/thrift with the Thrift Server + Spark Connect given Delta's
# jars, extension and catalog (tests/thrift/server.py, from harness/table_formats.py) and every table of the
# project in Delta Lake 4.4, on Spark 4.1 (.venv-formats).
test-thrift-delta: $(STAMPF) $(JARS_STAMP) ## The thrift leg (Thrift Server + Spark Connect) with Delta tables, Spark 4.1
	$(TMPDIR_READY) INC_JOIN_TABLE_FORMAT=delta $(SPARK41_FORMATS) $(BASETEMP) tests/thrift

# The fast tier: every test that needs no Spark job and no dbt invocation (tests/conftest.py's --no-spark leaves
# out the tests whose fixtures include `spark` and those marked `dbt`): the shared tables, the messages, the
# macros rendered with jinja2, the run ledger's and sizing's pure rules, the packaging checks. No JVM starts.
FAST_TESTS := tests/core tests/packaging tests/test_contributing_map.py tests/test_readme_examples.py \
	tests/test_docs_examples.py

test-fast: $(STAMP) ## The tests without a Spark job or a dbt invocation (under a minute)
	$(BIN)/python $(PYTEST) --no-spark $(FAST_TESTS)

test-core: $(STAMP) $(PEER_STAMP) ## The fast loop: the PySpark core without dbt, on Spark 4 (about 7 min)
	$(BIN)/python $(PYTEST) --hypothesis-profile=fast tests/core

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

bench-quick: $(STAMP) $(PEER_STAMP) ## The benchmark's CI-sized run
	$(BIN)/python -m bench.run --quick $(BENCH_ARGS)

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
# once as the venvs are; a Spark session takes them through spark.jars (harness/table_formats.py). Only the
# formats' own artifacts: Spark, Hadoop, Parquet and Scala come with pyspark.
# hive-llap: the jar of Hive's that pip's pyspark 4 leaves out and the Thrift Server needs (jars/pom.xml).
JAR_SETS := delta-spark4.1 iceberg-spark4.1 delta-spark3.5 hive-llap derby-network

jars: $(JARS_STAMP) ## Fetch the Delta Lake and Iceberg jars into .jars/ (Maven, jars/pom.xml)

$(JARS_STAMP): jars/pom.xml
	@command -v mvn >/dev/null 2>&1 || { echo "inc_join: Maven (mvn) is required to fetch the Delta and Iceberg jars." >&2; exit 1; }
	rm -rf .jars
	for set in $(JAR_SETS); do \
		mvn --quiet --batch-mode -Dstyle.color=never -f jars/pom.xml -P $$set dependency:copy-dependencies \
			-DincludeGroupIds=io.delta,org.apache.iceberg,org.apache.hive,org.apache.derby \
			-DoutputDirectory=$(CURDIR)/.jars/$$set || exit 1; \
	done
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
