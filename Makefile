# minitape: two commands on a fresh machine.
#   make lab    open the course notebooks in JupyterLab (creates .venv first if needed)
#   make test   run the whole test suite            (creates .venv first if needed)
# For teachers (nbgrader underneath; README, "For teachers"):
#   make release                      the students' notebook, generated from classroom/source (no solutions)
#   make grade SUBMISSIONS=folder     grade folder/<student>.ipynb into classroom/scores.{csv,md} and feedback/

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# JupyterLab refuses to start as root (containers, CI) unless told that is intended.
AS_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root)
# JupyterLab as the course wants it: the notebooks' paired .py files kept out of the file browser (jupytext
# still pairs them), and no "Jupyter news" pop-up over the player.
LAB_CONFIG := $(VENV)/etc/jupyter/jupyter_server_config.json $(VENV)/share/jupyter/lab/settings/overrides.json

.PHONY: lab test test-gpu bench browser docs clean release grade

# Students see the course notebooks only: the assignment's source, with its solutions (classroom/), lies outside.
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

# The graded assignment: nbgrader's course directory, its source notebook, what students get.
COURSE      ?= classroom
ASSIGNMENT  ?= exercises
STUDENT_COPY ?= notebooks/07_exercises.ipynb
SUBMISSIONS ?= submissions
# The students' copy is paired as every course notebook is (notebooks/jupytext.toml): its .py without metadata.
COURSE_NOTEBOOK_METADATA := '{"jupytext": {"cell_metadata_filter": "-all", "notebook_metadata_filter": "-all"}}'
# nbgrader runs `alembic` (its database migrations) by name: the venv's bin must be on PATH.
NBGRADER    := cd $(COURSE) && PATH="$(abspath $(BIN)):$$PATH" nbgrader

# nbgrader generates the release from the source (solutions and hidden tests removed) and records the
# assignment in its gradebook; the students' copy in notebooks/ is that release, with its jupytext twin.
release: $(VENV)/.dev-installed
	$(NBGRADER) generate_assignment $(ASSIGNMENT) --force
	$(BIN)/jupytext --quiet --update-metadata $(COURSE_NOTEBOOK_METADATA) --to ipynb \
	  --output $(STUDENT_COPY) $(COURSE)/release/$(ASSIGNMENT)/$(ASSIGNMENT).ipynb
	$(BIN)/jupytext --quiet --to py:percent $(STUDENT_COPY)

# Each SUBMISSIONS/<student>.ipynb goes where nbgrader looks for it; nbgrader autogrades them (its test
# cells restored from the gradebook), writes each student's feedback, and exports the table of scores.
grade: $(VENV)/.dev-installed $(COURSE)/gradebook.db
	@for path in $(SUBMISSIONS)/*.ipynb; do \
	  [ -f "$$path" ] || { echo "no <student>.ipynb in $(SUBMISSIONS)/: say where, make grade SUBMISSIONS=folder"; exit 1; }; \
	  mkdir -p "$(COURSE)/submitted/$$(basename "$$path" .ipynb)/$(ASSIGNMENT)" && \
	  cp "$$path" "$(COURSE)/submitted/$$(basename "$$path" .ipynb)/$(ASSIGNMENT)/$(ASSIGNMENT).ipynb"; done
	$(NBGRADER) autograde $(ASSIGNMENT) --force
	$(NBGRADER) generate_feedback $(ASSIGNMENT) --force
	$(NBGRADER) export --to scores.csv
	@cat $(COURSE)/scores.md

$(COURSE)/gradebook.db:
	$(MAKE) release

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
