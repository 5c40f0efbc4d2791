# The two commands of the README's quick start:
#   make play   sets up the virtual environment and starts meadhall (the offline table without a token)
#   make test   sets up the virtual environment, lints, type-checks, and runs the whole test suite
PY ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

.PHONY: play test lint typecheck bench catalogs clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -e '.[test]'
	touch $(STAMP)

play: $(STAMP)
	$(VENV)/bin/meadhall

lint: $(STAMP)
	$(VENV)/bin/ruff check .

typecheck: $(STAMP)
	$(VENV)/bin/mypy

test: lint typecheck
	$(VENV)/bin/pytest -q

bench: $(STAMP)
	$(VENV)/bin/python bench/engine.py

catalogs: $(STAMP)
	$(VENV)/bin/python -m bot.i18n.catalogs extract
	$(VENV)/bin/python -m bot.i18n.catalogs update
	$(VENV)/bin/python -m bot.i18n.catalogs compile

clean:
	rm -rf $(VENV)
