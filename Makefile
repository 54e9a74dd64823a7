# Two commands do all the set-up on a fresh machine (Python 3.11 with pip):
#   make demo   – build the demo federation on SQLite and publish its lists
#   make test   – the whole test suite (SQLite, then PostgreSQL; browser tests in Chromium)
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: venv demo test test-fast test-slow bench serve screenshots clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/qiyuan demo

test: $(STAMP)
	bash scripts/system-deps.sh
	bash scripts/test.sh

# The pure core only, no services: quick feedback while developing.
test-fast: $(STAMP)
	$(PY) -m pytest -q -m "not slow and not browser and not postgres" -p no:cacheprovider

# Long sweeps (large property runs), not part of `make test`.
test-slow: $(STAMP)
	$(PY) -m pytest -q -m slow

bench: $(STAMP)
	bash bench/run_all.sh

serve: $(STAMP)
	$(VENV)/bin/qiyuan serve

# The portal's screenshots in docs/img/ (both languages, 1280 px and a 375 px phone), from the browser tests.
screenshots: $(STAMP)
	QIYUAN_SCREENSHOTS=docs/img $(PY) -m pytest -q -p no:cacheprovider tests/web/test_screens.py

clean:
	rm -rf $(VENV) var .pytest_cache .hypothesis
