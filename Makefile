# minitape: two commands on a fresh machine.
#   make lab    open the course notebooks in JupyterLab (creates .venv first if needed)
#   make test   run the whole test suite            (creates .venv first if needed)

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# JupyterLab refuses to start as root (containers, CI) unless told that is intended.
AS_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root)
# JupyterLab as the course wants it: the notebooks' paired .py files kept out of the file browser (jupytext
# still pairs them), and no "Jupyter news" pop-up over the player.
LAB_CONFIG := $(VENV)/etc/jupyter/jupyter_server_config.json $(VENV)/share/jupyter/lab/settings/overrides.json

.PHONY: lab test test-gpu bench browser docs clean

# Students see the course notebooks only: the teacher's copies (solutions/) lie outside the folder it opens.
lab: $(VENV)/.lab-installed $(LAB_CONFIG)
	$(BIN)/jupyter lab $(AS_ROOT) --ServerApp.root_dir=notebooks notebooks/00_tour.ipynb

# JupyterLab's settings for the course (jupyter/), installed into the venv.
$(VENV)/etc/jupyter/jupyter_server_config.json: jupyter/jupyter_server_config.json
	install -D -m 644 $< $@
$(VENV)/share/jupyter/lab/settings/overrides.json: jupyter/overrides.json
	install -D -m 644 $< $@

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

docs: $(VENV)/.dev-installed
	$(BIN)/mkdocs build --strict

clean:
	rm -rf $(VENV) build *.egg-info
