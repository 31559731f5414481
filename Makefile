# minitape: two commands on a fresh machine.
#   make lab    open the course notebooks in JupyterLab (creates .venv first if needed)
#   make test   run the whole test suite            (creates .venv first if needed)

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# JupyterLab refuses to start as root (containers, CI) unless told that is intended.
AS_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root)

.PHONY: lab test test-gpu bench browser docs clean

# Students see the course notebooks only: the teacher's copies (solutions/) lie outside the folder it opens.
lab: $(VENV)/.lab-installed
	$(BIN)/jupyter lab $(AS_ROOT) --ServerApp.root_dir=notebooks notebooks/00_tour.ipynb

test: $(VENV)/.dev-installed browser
	$(BIN)/python -m pytest -q

# On a machine with a CUDA GPU: add CuPy, then run the suites on it (tests marked gpu).
test-gpu: $(VENV)/.dev-installed
	$(BIN)/python -m pip install --quiet -e ".[gpu]"
	$(BIN)/python -m pytest -q -m gpu

# The player's browser test drives the system's Chromium; install it from the system's packages.
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  { [ "$$(id -u)" = 0 ] && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } || \
	  echo "note: Chromium could not be installed; the browser test will be skipped"

bench: $(VENV)/.dev-installed
	$(BIN)/python benchmarks/overhead.py
	$(BIN)/python benchmarks/checkpoint.py

$(VENV)/.created:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	touch $@

$(VENV)/.dev-installed: $(VENV)/.created pyproject.toml
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $@

$(VENV)/.lab-installed: $(VENV)/.created pyproject.toml
	$(BIN)/python -m pip install --quiet -e ".[notebooks]"
	touch $@

# A class on one machine: JupyterHub (hub/jupyterhub_config.py; docs/hosting.md) in front of each
# student's JupyterLab. Its proxy, configurable-http-proxy, comes from the npm registry into .venv/chp.
CHP := $(VENV)/chp/node_modules/.bin/configurable-http-proxy
.PHONY: hub hub-proxy bench-hub
test: $(CHP)

hub: $(VENV)/.hub-installed $(CHP) $(LAB_CONFIG)   # LAB_CONFIG: the course's lab settings, as make lab
	mkdir -p $(VENV)/hub-state
	cd $(VENV)/hub-state && $(CURDIR)/$(BIN)/jupyterhub -f $(CURDIR)/hub/jupyterhub_config.py

hub-proxy: $(CHP)

$(CHP):
	@command -v npm >/dev/null 2>&1 || { echo "note: npm not found (install Node.js >= 20); the hub test will be skipped"; exit 0; }; \
	  npm install --prefix $(VENV)/chp --no-fund --no-audit --loglevel=error configurable-http-proxy@5

$(VENV)/.hub-installed: $(VENV)/.created pyproject.toml
	$(BIN)/python -m pip install --quiet -e ".[notebooks,hub]"
	touch $@

# N = 1, 5, 10 and 20 students through the real hub, each running the tour (minutes; docs/hosting.md).
bench-hub: $(VENV)/.hub-installed $(CHP) $(LAB_CONFIG)   # LAB_CONFIG: the course's lab settings, as make lab
	$(BIN)/python benchmarks/hub_capacity.py --students 1 5 10 20

docs: $(VENV)/.dev-installed
	$(BIN)/mkdocs build --strict

clean:
	rm -rf $(VENV) build *.egg-info
