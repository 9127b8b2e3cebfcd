# One entry point for building, checking and benchmarking cardtable.
# `make test` installs everything into .venv and runs the whole check suite.

VENV ?= .venv
PY := $(VENV)/bin/python
BIN := $(VENV)/bin

.PHONY: help install dev dev-release lint lint-rust lint-python test test-rust test-python \
        bench-smoke bench bench-python clean

help:  ## List the targets
	@grep -E '^[a-z-]+:.*##' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

$(BIN)/activate:
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# The editable install builds the extension: redo it only when Rust or the
# package metadata changed (Python edits are live). Ray comes too, so that
# the Ray tests (tests/test_ray.py) run in CI, and Stable-Baselines3 with
# sb3-contrib (and so PyTorch), for the MaskablePPO example and its tests.
STAMP := $(VENV)/.cardtable-installed
RUST_SOURCES := $(shell find rust -name '*.rs' -o -name Cargo.toml) Cargo.toml Cargo.lock pyproject.toml

$(STAMP): $(BIN)/activate $(RUST_SOURCES)
	rm -f python/cardtable/*.so
	$(PY) -m pip install --quiet -e '.[test,lint,ray,sb3]'
	touch $@

install: $(STAMP)  ## Install the package (editable) with test and lint tools, Ray and SB3 into .venv

dev: install  ## Rebuild the extension after Rust changes (debug)

dev-release: install  ## Rebuild the extension in release mode (for benchmarks)
	rm -f python/cardtable/*.so $(STAMP)
	$(PY) -m pip install --quiet maturin
	$(BIN)/maturin develop --release

lint-rust:  ## rustfmt and clippy (warnings are errors)
	@echo "== $@ starts at $$(date +%T)"
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets --locked -- -D warnings
	# The stable-ABI build (--features abi3) keeps compiling.
	cargo clippy -p cardtable-py --all-targets --locked --features abi3 -- -D warnings

lint-python: install  ## ruff, ruff format, mypy (strict) and stubtest
	@echo "== $@ starts at $$(date +%T)"
	$(BIN)/ruff check python tests benches/python docs/gen_options.py docs/gen_screenshot.py
	$(BIN)/ruff format --check python tests benches/python docs/gen_options.py docs/gen_screenshot.py
	$(BIN)/mypy
	$(PY) -m mypy.stubtest cardtable._core --allowlist .mypy-stubtest-allowlist

lint: lint-rust lint-python  ## All linters

test-rust:  ## Rust unit and integration tests (no Python needed)
	@echo "== $@ starts at $$(date +%T)"
	cargo test --locked

# One worker per core: many tests wait on a pilot, a subprocess or a
# pool, so two workers on two cores take a third of the serial time.
test-python: install  ## The Python API and CLI tests
	@echo "== $@ starts at $$(date +%T)"
	$(BIN)/pytest -q -n auto

# The criterion benches are compiled by lint-rust's clippy --all-targets;
# building them again in the bench profile (fat LTO) would only repeat that.
bench-smoke: install  ## Run each Python bench once
	@echo "== $@ starts at $$(date +%T)"
	$(BIN)/pytest -q benches/python --benchmark-disable -p no:cacheprovider

test: lint test-rust test-python bench-smoke  ## Everything CI runs

bench:  ## Criterion benches (release)
	cargo bench -p cardtable-benches

bench-python: dev-release  ## pytest-benchmark against the baselines (release build)
	$(PY) -m pip install --quiet open_spiel || echo "OpenSpiel unavailable: its baseline benches will skip"
	$(PY) -m pip install --quiet rlcard || echo "RLCard unavailable: its baseline benches will skip"
	mkdir -p .benchmarks
	$(BIN)/pytest benches/python --benchmark-enable --benchmark-json=.benchmarks/latest.json
	$(PY) benches/python/ratios.py .benchmarks/latest.json

clean:  ## Remove build outputs
	cargo clean
	rm -rf python/cardtable/*.so .pytest_cache .benchmarks $(STAMP)
