# The two commands of the README: `make demo` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test pictures java clean-state

demo: $(STAMP)
	$(BIN)/python scripts/demo.py

test: $(STAMP)
	$(BIN)/python -m pytest

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

# Local Spark/dbt state the demo and tests leave behind (all gitignored).
clean-state:
	rm -rf .spark-state spark-warehouse metastore_db derby.log integration_tests/target integration_tests/logs
