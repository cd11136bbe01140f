# Two commands on a fresh machine: `make tables` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
# A shell that sets PYTHONDONTWRITEBYTECODE makes every command (and every CLI subprocess the
# tests start) recompile ~400 modules, about a second each time: let Python cache bytecode.
# pip then skips byte-compiling every installed module (--no-compile, 56 s -> 33 s): the few
# hundred that are ever imported are compiled once, on first import (about 4 s).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: tables test check bench clean venv

# mypy keeps one core busy for about 15 s on a clean clone while the other idles; the tests keep
# both busy, so mypy runs beside them instead of before them and its report follows theirs.
# Either failing fails the target.
define beside_mypy
	@echo "$(BIN)/mypy  (runs beside the tests; its report follows theirs)"
	@$(BIN)/mypy > $(VENV)/mypy-report.txt 2>&1 & m=$$!; echo "$(1)"; $(1); p=$$?; \
	wait $$m; t=$$?; cat $(VENV)/mypy-report.txt; test $$p -eq 0 && test $$t -eq 0
endef

PIP     := $(BIN)/python -m pip install -q --no-compile --disable-pip-version-check
RUNTIME := $(VENV)/.runtime-stamp

# `make tables` needs only the package's own dependencies; the test and bench tools (mypy, dask,
# selenium, peers...) are a third of a fresh machine's install, so they wait for `make test`.
# One pip run either way: the full install stamps both.
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP) -e '.[test,bench]'
	@touch $(RUNTIME) $(STAMP)

$(RUNTIME): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP) -e .
	@touch $(RUNTIME)

venv: $(STAMP)

## build every default artifact into artifacts/ (only stale stages run);
## `make tables STAGES="five seven"` builds just those; then compiles the query kernels
# The build computes the video-poker stages in a second process beside the others, and the query
# kernels start compiling beside both once the tables warm's questions read exist (the build
# writes them first; tests/test_build_lanes.py checks the list): each process leaves a core idle
# for stretches (compiling its kernels, writing files). The last warm then only checks its
# stamp, or asks again what read a table built later.
WARM_READS := eval_tables.h5 seven.h5 rules/short-deck/five.h5 rules/ace-to-five/five.h5
tables: $(RUNTIME)
	@echo "$(BIN)/pokertables build $(STAGES)  (and beside it, once the tables it reads exist: pokertables warm)"
	@$(BIN)/pokertables build $(STAGES) & b=$$!; \
	unbuilt() { for f in $(WARM_READS); do test -e artifacts/$$f || return 0; done; return 1; }; \
	while kill -0 $$b 2>/dev/null && unbuilt; do sleep 0.2; done; \
	if kill -0 $$b 2>/dev/null; then $(BIN)/pokertables warm > $(VENV)/warm-beside.log 2>&1; fi; \
	wait $$b
	$(BIN)/pokertables warm

## lint, type-check, then run the test suite (first brings its own build folder .test-artifacts/
## up to date, hard-linking every stage `make tables` already built with the same key)
test: $(STAMP)
	$(BIN)/ruff check pipeline tests bench
	$(call beside_mypy,$(BIN)/python -m pytest)

## the fast tier: lint, type-check and every test that needs no built artifacts (minutes)
check: $(STAMP)
	$(BIN)/ruff check pipeline tests bench
	$(call beside_mypy,$(BIN)/python -m pytest --no-artifacts)

## speed report against peer libraries -> bench/report.txt
bench: $(STAMP)
	$(BIN)/python bench/run.py

clean:
	rm -rf .test-artifacts
	rm -rf artifacts/*.h5 artifacts/*.png artifacts/parquet artifacts/paytables artifacts/rules artifacts/sweeps artifacts/manifest.json
