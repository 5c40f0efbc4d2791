# The two commands of the README's quick start:
#   make play   sets up the virtual environment and starts meadhall (the offline table without a token)
#   make test   sets up the virtual environment, lints, type-checks, and runs the whole test suite
# Installs are locked (issue 22): requirements/lock.txt pins every package make play and make test
# install, with hashes (pip --require-hashes); requirements/runtime.txt is its runtime part.
# pyproject.toml keeps the compatible ranges for people who install meadhall as a package.
PY ?= python3
VENV := .venv
LOCK := requirements/lock.txt
RUNTIME := requirements/runtime.txt
RUN_STAMP := $(VENV)/.runtime-installed
TEST_STAMP := $(VENV)/.test-installed
PIP_LOCKED := $(VENV)/bin/pip install --quiet --require-hashes
UV_COMPILE := $(VENV)/bin/uv pip compile --quiet --universal --generate-hashes --python-version 3.11

.PHONY: play test lint typecheck bench catalogs lock test-latest clean

$(VENV)/bin/python:
	$(PY) -m venv $(VENV)

# meadhall itself: the locked runtime packages, then the checkout (editable, built offline).
$(RUN_STAMP): $(RUNTIME) pyproject.toml | $(VENV)/bin/python
	$(PIP_LOCKED) -r $(RUNTIME)
	$(VENV)/bin/pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

# and everything the tests, the linter and the type checker need.
$(TEST_STAMP): $(LOCK) $(RUN_STAMP)
	$(PIP_LOCKED) -r $(LOCK)
	touch $@

play: $(RUN_STAMP)
	$(VENV)/bin/meadhall

lint: $(TEST_STAMP)
	$(VENV)/bin/ruff check .

typecheck: $(TEST_STAMP)
	$(VENV)/bin/mypy

# -n auto: one pytest-xdist worker per core; each worker has its own PostgreSQL, ports and files.
test: lint typecheck
	$(VENV)/bin/pytest -q -n auto

# Resolve the lock files again from pyproject's ranges (newest releases they allow), with hashes for
# every platform and Python >= 3.11; commit the result after `make test` passes on it.
lock: $(TEST_STAMP)
	$(UV_COMPILE) --upgrade pyproject.toml requirements/build.in requirements/tools.in --extra test -o $(LOCK)
	$(UV_COMPILE) pyproject.toml requirements/build.in -c $(LOCK) -o $(RUNTIME)

# The suite against the newest releases the ranges allow (not the lock), in a venv of its own:
# an upgrade is a deliberate, tested commit (make lock, then make test).
test-latest:
	rm -rf .venv-latest
	$(PY) -m venv .venv-latest
	.venv-latest/bin/pip install --quiet --upgrade --upgrade-strategy eager -e '.[test]'
	.venv-latest/bin/ruff check .
	.venv-latest/bin/mypy
	.venv-latest/bin/pytest -q -n auto -p no:cacheprovider

bench: $(TEST_STAMP)
	$(VENV)/bin/python bench/engine.py

catalogs: $(TEST_STAMP)
	$(VENV)/bin/python -m bot.i18n.catalogs extract
	$(VENV)/bin/python -m bot.i18n.catalogs update
	$(VENV)/bin/python -m bot.i18n.catalogs compile

clean:
	rm -rf $(VENV) .venv-latest
