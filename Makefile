# The two commands: `make demo` and `make test`. Everything else here supports them.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test setup clean wordnet

$(STAMP): requirements.txt
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "Exhibition needs Python 3.11 on the PATH as $(PYTHON)."; exit 1; }
	@echo "Installing the pinned packages into $(VENV) (once, a few minutes)"
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	@$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	@touch $(STAMP)

# The judge's synonyms: Debian's WordNet, read once into var/wordnet-nouns.json (the Dockerfile does the
# same); a server only loads that index, never builds it. Installed here when make runs as root (as CI
# does); elsewhere `sudo apt-get install wordnet-base`. Without it the judge works on and says in its
# reasons that synonyms were not checked, and `manage.py check` warns (game.W001).
wordnet:
	@test -f /usr/share/wordnet/index.noun || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
		{ apt-get update -qq && apt-get install -y -qq wordnet-base >/dev/null; } || true; }
	@$(PY) -m game.judging.lexicon

# The demo is a development server on this machine: DEBUG on, the development secret key, 127.0.0.1.
# `make demo HALL=1` serves the phones of a room on this machine's network instead: every interface,
# this machine's LAN addresses allowed, DEBUG off, a secret key of the machine's own (var/secret-key),
# plain HTTP (docs/hall.md). Setup writes those settings to var/local.env, where this checkout's
# manage.py commands find them without make (serving/environment.py, EXHIBITION_LOCAL_ENV).
PORT ?= 8000
ifeq ($(HALL),1)
LOCAL := EXHIBITION_HALL=1 DEBUG=0
BIND := 0.0.0.0
else
LOCAL := EXHIBITION_HALL=0 DEBUG=1
BIND := 127.0.0.1
endif

setup: $(STAMP) wordnet
	@$(PY) -m serving.environment --local $(LOCAL)
	@$(PY) manage.py migrate --noinput -v0
	@$(PY) manage.py collectstatic --noinput -v0

demo: setup
	@$(PY) manage.py demo_setup --base-url http://127.0.0.1:$(PORT)
	@$(PY) manage.py runserver --noreload $(BIND):$(PORT)

# The suite runs on the embedded default (SQLite); the tests marked `postgres` run again on the
# PostgreSQL that production uses (they skip on a laptop without it, and fail under CI=true).
PG_TEST_URL ?= postgres://postgres@127.0.0.1:5432/exhibition
# `wordnet` again: it rebuilds the judge's index only when the index's version or WordNet changed.
test: $(STAMP) wordnet
	$(PY) -m pytest -m "not postgres" $(PYTEST_ARGS)
	DATABASE_URL=$(PG_TEST_URL) $(PY) -m pytest -m postgres $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles var .pytest_cache .hypothesis
