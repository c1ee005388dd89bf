"""Settings read from the environment.

With nothing set, Exhibition runs as the embedded default: SQLite, the in-memory channel layer and
an in-process bot worker. Production sets DATABASE_URL (PostgreSQL) and REDIS_URL (channel layer
and Celery broker). Every variable is read, typed and checked by the table in serving/environment.py
(its type, default, allowed values and job; docs/production.md shows it): a value it does not allow
stops the process here with a sentence saying what to set.
"""
from datetime import timedelta

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from serving import environment, hall

BASE_DIR = environment.PROJECT

try:
    env = environment.read_all()  # lower case: not a setting itself
except environment.BadValue as exc:
    raise ImproperlyConfigured(str(exc)) from None

# Safe by default: DEBUG is off unless set (make demo sets it), and without a SECRET_KEY only a DEBUG
# server starts. The key signs seat tokens: a known key lets anyone forge one and play another's seat.
DEBUG = env["DEBUG"]

# Hall mode (EXHIBITION_HALL=1, `make demo HALL=1`): phones on the hall's network play. The server
# answers at this machine's LAN addresses (read from its interfaces, serving/hall.py) and at
# EXHIBITION_PUBLIC_URL's host when set; the big screen hands out that URL and its QR code.
EXHIBITION_HALL = env["EXHIBITION_HALL"]
EXHIBITION_PUBLIC_URL = hall.check_public_url(env["EXHIBITION_PUBLIC_URL"])  # the table checked it; this drops a final /

SECRET_KEY = env["SECRET_KEY"]
if not SECRET_KEY and EXHIBITION_HALL:
    # Everyone on the hall's network could forge seat tokens with the development key: never use it there.
    SECRET_KEY = hall.machine_secret(BASE_DIR / "var" / "secret-key")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "Set SECRET_KEY to a long random string (python -c 'import secrets; print(secrets.token_urlsafe(50))'), "
            "or set DEBUG=1 on a development machine. Without it anyone could forge a player's seat token."
        )
    SECRET_KEY = "exhibition-development-only-key-never-use-it-on-a-server-0123456789"
ALLOWED_HOSTS = list(env["ALLOWED_HOSTS"])
CSRF_TRUSTED_ORIGINS = list(env["CSRF_TRUSTED_ORIGINS"])
# The websocket Origin check (channels' AllowedHostsOriginValidator) reads ALLOWED_HOSTS too.
ALLOWED_HOSTS += [h for h in hall.allowed_hosts(hall.lan_addresses() if EXHIBITION_HALL else [], EXHIBITION_PUBLIC_URL)
                  if h not in ALLOWED_HOSTS]
if EXHIBITION_PUBLIC_URL:
    CSRF_TRUSTED_ORIGINS.append(hall.public_origin(EXHIBITION_PUBLIC_URL))

# HTTPS (on unless DEBUG): redirect plain HTTP, secure cookies, and HSTS. Set HTTPS=off only on a
# plain-HTTP network you trust (a hall's own Wi-Fi): hall mode is that case, so there it is off
# unless EXHIBITION_PUBLIC_URL is an https:// address. Behind a proxy set BEHIND_PROXY=1: the proxy's
# X-Forwarded-Proto is then believed, and the client's address is the X-Forwarded-For entry PROXY_HOPS
# from the right (one a proxy; TRUSTED_PROXIES, when set, names the peers whose header is read):
# serving/client_address.py says how it is read. (HTTPS's and BEHIND_PROXY's defaults follow from the
# other variables in the table.)
HTTPS = env["HTTPS"]
BEHIND_PROXY = env["BEHIND_PROXY"]
PROXY_HOPS = env["PROXY_HOPS"]
TRUSTED_PROXIES = env["TRUSTED_PROXIES"]
if HTTPS:
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env["SECURE_HSTS_SECONDS"]
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env["SECURE_HSTS_INCLUDE_SUBDOMAINS"]
    SECURE_HSTS_PRELOAD = env["SECURE_HSTS_PRELOAD"]
if BEHIND_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Submitting a domain to the browsers' HSTS preload list is the operator's decision (it is hard to
# undo), so `check --deploy` does not ask for it; every other deployment check passes.
SILENCED_SYSTEM_CHECKS = ["security.W021"]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "axes",
    "game",
    "bots",
    "events",
    "tournaments",
    "broadcast",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",  # last: turns a locked-out sign-in into the lockout page
]

ROOT_URLCONF = "exhibition.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]
WSGI_APPLICATION = None
ASGI_APPLICATION = "exhibition.asgi.application"

DATABASES = {
    "default": dj_database_url.parse(env["DATABASE_URL"], conn_max_age=0)
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The conductor and the web views write from different threads; wait instead of failing. The
    # conductor commits every event before it is sent (a word is never shown that was not stored):
    # in SQLite's write-ahead log with synchronous=NORMAL a commit costs no disk flush (the profiler
    # found the flushes of the default journal the largest part of the embedded conductor's time),
    # and a crash of the process still loses nothing committed; only a power cut may lose the last
    # moments, as with any flush-on-checkpoint database.
    # Transactions take the write lock when they begin (IMMEDIATE), so two writers (the conductor and a
    # view, or two conductors) queue for it for up to `timeout` instead of one failing at once with
    # "database is locked" when its read turns into a write.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        timeout=20, transaction_mode="IMMEDIATE", init_command="PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;")
    # The test database is a file too, not SQLite's shared in-memory cache: there two threads (a test and
    # the embedded conductor, which now also hears each socket's presence) fail at once with "table is
    # locked" instead of waiting as they do on every real database.
    DATABASES["default"].setdefault("TEST", {}).setdefault(
        "NAME", str(env["EXHIBITION_TEST_SQLITE"]))

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A bounded pool of connections per process (Django's psycopg pool): a request, a consumer's read or
    # the conductor borrows one for as long as it works and gives it back, so a storm of joins waits for
    # a connection (up to DATABASE_POOL_TIMEOUT seconds, then "busy, try again") instead of opening one
    # per request thread until PostgreSQL refuses ("too many clients"). Size it so that every process's
    # DATABASE_POOL_MAX together stays under PostgreSQL's max_connections (docs/production.md: "Database connections").
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env["DATABASE_POOL_MIN"],
        "max_size": env["DATABASE_POOL_MAX"],
        "timeout": env["DATABASE_POOL_TIMEOUT"],
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env["REDIS_URL"]
# Every socket hears a heartbeat {server_time, seq} this often (seconds): a page behind the log's last
# seq catches up, and each web process reports who is connected to the moderator's roster.
EXHIBITION_HEARTBEAT_SECONDS = env["EXHIBITION_HEARTBEAT_SECONDS"]
if REDIS_URL:
    # Time-outs, retries and the pool are explained in serving/redis_layer.py. Group members are
    # renewed every heartbeat, so they are kept four heartbeats and at least a minute
    # (serving/environment.py group_expiry): a member outlives a lost renewal, and one left behind by
    # a dead process ages out after a minute (at the default heartbeat) instead of a day.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "serving.redis_layer.ResilientRedisChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "capacity": 1500, "expiry": 30,
                       "group_expiry": environment.group_expiry(EXHIBITION_HEARTBEAT_SECONDS)},
        }
    }
else:
    # In memory, shared by the web loop and the embedded conductor's own thread (serving/local_layer.py).
    CHANNEL_LAYERS = {"default": {"BACKEND": "serving.local_layer.LocalChannelLayer", "CONFIG": {"capacity": 1500}}}

# The cache keeps join rate limits; with Redis every web process shares it.
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL,
                          "KEY_PREFIX": "exhibition"}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# Joining a match: at most this many joins a minute from one address, and this many players a match.
EXHIBITION_JOINS_PER_MINUTE = env["EXHIBITION_JOINS_PER_MINUTE"]
EXHIBITION_MAX_PLAYERS = env["EXHIBITION_MAX_PLAYERS"]
# How long a join waits for the conductor to store it before the phone is told to try again.
EXHIBITION_JOIN_CONFIRM_SECONDS = env["EXHIBITION_JOIN_CONFIRM_SECONDS"]
# An event's hall screen goes back to the leaderboard this long after a match ends (events/hall_screen.py).
EXHIBITION_HALL_RETURN_SECONDS = env["EXHIBITION_HALL_RETURN_SECONDS"]
# The clock grid of a new match (its rule clock_grid_ms, game/engine/rules.py on_grid): its words and
# deadlines fall on multiples of this many ms, so the matches due at one instant share one wake-up,
# transaction and send (docs/benchmarks.md, What each lever is worth); 0 keeps each at its own ms.
# 50 divides a word's time and its pauses at 100, 120, 150, 200 and 300 words a minute, so those
# speeds keep an even beat.
EXHIBITION_CLOCK_GRAIN_MS = env["EXHIBITION_CLOCK_GRAIN_MS"]
# Every reader gets an event this many ms after its stamp: each web process writes a match's frames
# then (or at once if that moment has passed), and a bot's query leaves then. The words thus reach
# every screen on the clock's beat whatever the load of the moment, and no bot sees a word before
# the screens do (docs/benchmarks.md, What each lever is worth); 0 writes and asks at once.
EXHIBITION_PLAYOUT_MS = env["EXHIBITION_PLAYOUT_MS"]
# Each match's delay is longer by a phase of its own, from 0 to under this many ms (a checksum of its
# code), so the matches whose words fall due at one instant of the grid are written spread over the
# step to the next instead of in one stretch (game/conductor/groups.py playout_ms; docs/benchmarks.md,
# What each lever is worth); 0: no phase. By default the grid's step.
EXHIBITION_PLAYOUT_SPREAD_MS = env["EXHIBITION_PLAYOUT_SPREAD_MS"]
# A player's seat token stops working this many hours after the join (an event day); joining again makes a new one.
EXHIBITION_SEAT_TOKEN_HOURS = env["EXHIBITION_SEAT_TOKEN_HOURS"]
# How long a phase waits for its search (run beside the match's writes) before it goes on without snippets.
EXHIBITION_SNIPPETS_SECONDS = env["EXHIBITION_SNIPPETS_SECONDS"]

# Celery: Redis broker in production; with no REDIS_URL the bots run in-process.
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_IGNORE_RESULT = True
# A bot worker's pool process is replaced after an act once its peak resident size passed this (KiB);
# unset (None), bots/memory.py sets it to the process's share of its tier (docs/bots.md, "Memory, held during every act").
CELERY_WORKER_MAX_MEMORY_PER_CHILD = env["CELERY_WORKER_MAX_MEMORY_PER_CHILD"]
# Deployments (or test runs) sharing one Redis keep their queues apart with a key prefix.
CELERY_BROKER_TRANSPORT_OPTIONS = ({"global_keyprefix": env["CELERY_BROKER_KEY_PREFIX"]}
                                   if env["CELERY_BROKER_KEY_PREFIX"] else {})

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
# Serve straight from static/ when collectstatic has not run (tests, a Daphne started by hand).
WHITENOISE_USE_FINDERS = True

LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"

# Login throttling (django-axes) on every sign-in form, ours and the admin's, in two locks
# (serving/login_lockout.py, docs/production.md "Login throttling"). After EXHIBITION_LOGIN_FAILURES wrong
# passwords for one username from one client address, that pair is refused for
# EXHIBITION_LOGIN_COOLOFF_MINUTES after the last of them; not the username alone, which would let anyone
# lock the host out from everywhere, nor the address alone, which a whole hall may share. And after
# EXHIBITION_LOGIN_USERNAME_FAILURES for one username from any addresses within
# EXHIBITION_LOGIN_USERNAME_SECONDS, the username is refused everywhere for the rest of that short stretch:
# a guesser with many addresses is slowed, a stranger locks a host out for a minute at most. A refused try
# tests no password and counts for neither (so a host refused while a stranger guesses does not lock
# their own address). The address is the one the join limit uses (serving/client_address.py).
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_VERBOSE = False  # no banner at every start: each manage.py command's stderr would open with it
AXES_HANDLER = "serving.login_lockout.LoginLockout"
AXES_FAILURE_LIMIT = env["EXHIBITION_LOGIN_FAILURES"]
AXES_COOLOFF_TIME = timedelta(minutes=env["EXHIBITION_LOGIN_COOLOFF_MINUTES"])
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "serving.client_address.client_address"
EXHIBITION_LOGIN_USERNAME_FAILURES = env["EXHIBITION_LOGIN_USERNAME_FAILURES"]
EXHIBITION_LOGIN_USERNAME_SECONDS = env["EXHIBITION_LOGIN_USERNAME_SECONDS"]
AXES_LOCKOUT_CALLABLE = "serving.login_lockout.lockout_page"

# Where the shared public question sets live (tests and benchmarks read them from here).
EXHIBITION_DATA_DIR = env["EXHIBITION_DATA_DIR"]
# Where built bots keep their artefacts.
EXHIBITION_BOT_DIR = env["EXHIBITION_BOT_DIR"]
# Where the questions read aloud are cached (game/speech/): every process serving a match must see it.
EXHIBITION_SPEECH_DIR = env["EXHIBITION_SPEECH_DIR"]
# Operators' own bot classes, as dotted paths (package.module.ClassName), comma-separated: each joins the
# built-in kinds under its `kind` in every process (bots.kinds.plug_in; README "Your own bot class").
EXHIBITION_BOT_KINDS = list(env["EXHIBITION_BOT_KINDS"])
# A loaded bot's artefact folder is walked again (size and fingerprint) at most this often (bots.registry).
EXHIBITION_BOT_RECHECK_S = env["EXHIBITION_BOT_RECHECK_S"]
# What a loaded bot may add to a worker process's resident memory, by tier (None: no limit; bots.memory).
EXHIBITION_BOT_MEMORY_BUDGETS = {"500mib": env["EXHIBITION_BOT_MEMORY_500MIB"], "6gib": env["EXHIBITION_BOT_MEMORY_6GIB"],
                                 "unlimited": None}
# With no REDIS_URL the web process runs the conductor itself (game/conductor/embedded.py).
EXHIBITION_EMBEDDED_CONDUCTOR = env["EXHIBITION_EMBEDDED_CONDUCTOR"]
# Phase 3's search snippets (game/snippets.py): a search service, else the imported passages (of one corpus).
EXHIBITION_SNIPPETS_URL = env["EXHIBITION_SNIPPETS_URL"]
EXHIBITION_SNIPPETS_CORPUS = env["EXHIBITION_SNIPPETS_CORPUS"]
# The limits every import checks before the work (intake/limits.py) and the matches one event
# report may hold (game/report/match_logs.py): each the setting of its variable's name.
globals().update({name: value for name, value in env.items()
                  if name.startswith("EXHIBITION_IMPORT_MAX_") or name == "EXHIBITION_REPORT_MAX_MATCHES"})
# A request body to any page but the import page, refused before it is read (serving/request_bodies.py).
EXHIBITION_MAX_BODY_BYTES = env["EXHIBITION_MAX_BODY_BYTES"]

# LOG_FORMAT=json: one JSON object a line (serving/logs.py), for log collectors; plain text otherwise.
LOG_FORMAT = env["LOG_FORMAT"]
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "serving.logs.JsonFormatter"},
                   "text": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT}},
    "root": {"handlers": ["console"], "level": env["LOG_LEVEL"]},
    "loggers": {"daphne": {"level": "WARNING"}, "django.channels.server": {"level": "WARNING"}},
}
