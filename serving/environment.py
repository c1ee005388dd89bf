"""Every environment variable Exhibition reads, as one table: its type, default, allowed values, job and readers.

exhibition/settings.py reads the environment through this table and nothing else in the project
does, but for the few modules that must work without Django's settings (`make wordnet` runs
game.judging.lexicon on its own; a Celery worker's parent holds bots.memory), which call read()
here. A value that is not allowed stops the process with a sentence naming the variable, the value
and what it may be (settings.py raises it as ImproperlyConfigured). Set to nothing is the same as
unset: the default.

The module imports nothing from the project and does nothing when imported (it lives in serving/,
the bottom layer, because importing the exhibition package starts the Celery app). docs/production.md
holds the table as `python -m serving.environment --markdown` prints it; a test keeps the two equal.
"""
from __future__ import annotations

import ipaddress
import math
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping
from urllib.parse import urlsplit

PROJECT = Path(__file__).resolve().parent.parent
KIB, MIB, GIB = 1024, 1024**2, 1024**3

# The channel layer forgets a group member that was not renewed for group_expiry seconds, and each web
# process renews its members every heartbeat (game/live/fanout.py). A member must outlive a lost
# renewal, so the layer keeps it four heartbeats; never under a minute, so a process that died is
# forgotten then (at the default 15 s heartbeat) and no sooner. With a fixed 60 s a 120 s heartbeat
# lost every watcher of a match a minute after its socket joined.
GROUP_EXPIRY_FLOOR_S = 60
GROUP_EXPIRY_HEARTBEATS = 4


def group_expiry(heartbeat_s: float) -> int:
    """The channel layer's group_expiry for a heartbeat of heartbeat_s seconds."""
    return max(GROUP_EXPIRY_FLOOR_S, math.ceil(GROUP_EXPIRY_HEARTBEATS * heartbeat_s))


def keeps_members(heartbeat_s: float, expiry_s: float) -> bool:
    """Whether a group member renewed every heartbeat_s survives one lost renewal within expiry_s."""
    return heartbeat_s < expiry_s / 2


class BadValue(ValueError):
    """A variable set to a value it may not have; the message is the sentence for the operator."""


@dataclass(frozen=True)
class Derived:
    """A default that follows from other variables: in words for the docs, and as a function of read()."""

    says: str
    value: Callable[[Callable[[str], Any]], Any]


@dataclass(frozen=True)
class Variable:
    name: str
    kind: str  # flag, int, number, bytes, path, url, list, classes, networks, choice, text (KINDS below)
    default: Any  # the value when unset, typed as read() returns it; a Derived when it follows from others
    help: str  # one line: what it does
    read_by: str  # the processes it matters in
    unit: str = ""  # int and number: what the number counts, plural ("seconds", "ms")
    low: float | None = None  # the smallest allowed value (int, number, bytes)
    high: float | None = None  # the largest
    choices: tuple[str, ...] = ()  # choice: the values, as spelled here; url: the schemes
    shown: str = ""  # the default in words for the docs, where its value would not say it


FLAG_WORDS = {"1": True, "true": True, "yes": True, "on": True, "0": False, "false": False, "no": False, "off": False}
_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*(KiB|MiB|GiB)?", re.IGNORECASE)
_CLASS_PATH = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)+")


def human_size(n: int) -> str:
    """8 GiB, 128 KiB, 1 byte: in the largest unit that holds it whole."""
    for name, size in (("GiB", GIB), ("MiB", MIB), ("KiB", KIB)):
        if n >= size and n % size == 0:
            return f"{n // size:,} {name}"
    return "1 byte" if n == 1 else f"{n:,} bytes"


def _number(value) -> str:
    return f"{int(value):,}" if float(value).is_integer() else f"{value:,}"


def _span(var: Variable, show: Callable[[Any], str]) -> str:
    """' from 1 to 100', ' of at least 1', '' for a variable's bounds."""
    if var.low is not None and var.high is not None:
        return f" from {show(var.low)} to {show(var.high)}"
    if var.low is not None:
        return f" of at least {show(var.low)}"
    return ""


def _either(words) -> str:
    """'a', 'a or b', 'a, b or c'."""
    *first, last = words
    return f"{', '.join(first)} or {last}" if first else last


def _split(text: str) -> tuple[str, ...]:
    return tuple(item for item in (part.strip() for part in text.split(",")) if item)


# What each kind accepts, as the end of "NAME must be …"; and as the docs table's short column.
def allowed(var: Variable) -> str:
    unit = f" of {var.unit}" if var.unit else ""
    if var.kind == "flag":
        return "1, true, yes or on, or 0, false, no or off"
    if var.kind == "int":
        return f"a whole number{unit}" + _span(var, _number)
    if var.kind == "number":
        return f"a number{unit}" + _span(var, _number)
    if var.kind == "bytes":
        return "a size in bytes, or in KiB, MiB or GiB (512MiB, 1.5GiB)" + _span(var, human_size)
    if var.kind == "url":
        return "an address starting " + _either([f"{scheme}://" for scheme in var.choices])
    if var.kind == "classes":
        return "dotted paths of classes (package.module.ClassName), separated by commas"
    if var.kind == "networks":
        return "addresses or networks such as 10.0.0.0/8 or 2001:db8::/48, separated by commas"
    if var.kind == "choice":
        return "one of " + _either(var.choices)
    return "any text"  # path, list, text: anything is a value


def allowed_short(var: Variable) -> str:
    if var.kind == "flag":
        return "on/off"
    if var.kind in ("int", "number"):
        if var.high is not None:
            return f"{_number(var.low)}–{_number(var.high)}" + (f" {var.unit}" if var.unit else "")
        return f"≥ {_number(var.low)}"
    if var.kind == "bytes":
        return f"size ≥ {human_size(int(var.low))}" if var.low > 1 else "size"
    if var.kind in ("url", "choice"):
        return ", ".join(f"`{value}://`" if var.kind == "url" else f"`{value}`" for value in var.choices)
    return {"list": "comma-separated", "classes": "dotted paths, comma-separated",
            "networks": "addresses, networks, comma-separated"}.get(var.kind, var.kind)


class _Refused(Exception):
    """Raised while parsing: the text is not allowed; args[0], when given, says which part of it."""


def _parse(var: Variable, text: str) -> Any:
    """The typed value of text for var; _Refused, ValueError or KeyError when it is not allowed."""
    kind, clean = var.kind, text.strip()
    if kind == "flag":
        return FLAG_WORDS[clean.lower()]
    if kind == "choice":
        return {choice.lower(): choice for choice in var.choices}[clean.lower()]
    if kind == "path":
        return Path(clean)
    if kind == "list":
        return _split(clean)
    if kind == "text":
        return text  # as given: a secret key may end in a space
    if kind == "url":
        parts = urlsplit(clean)
        if parts.scheme not in var.choices or not (parts.netloc or parts.scheme in ("sqlite", "unix")):
            raise _Refused()
        return clean
    if kind == "classes":
        for item in _split(clean):
            if not _CLASS_PATH.fullmatch(item):
                raise _Refused(f"{item!r} is not one")
        return _split(clean)
    if kind == "networks":
        networks = []
        for item in _split(clean):
            try:
                networks.append(ipaddress.ip_network(item))
            except ValueError:
                raise _Refused(f"{item!r} is neither (a network's address must have its host bits zero)") from None
        return tuple(networks)
    if kind == "bytes":
        found = _SIZE.fullmatch(clean)
        if not found or (found.group(2) is None and "." in found.group(1)):
            raise _Refused()
        value = int(float(found.group(1)) * {"kib": KIB, "mib": MIB, "gib": GIB}.get((found.group(2) or "").lower(), 1))
    else:
        value = int(clean) if kind == "int" else float(clean)
        if not math.isfinite(value):
            raise _Refused()
    if (var.low is not None and value < var.low) or (var.high is not None and value > var.high):
        raise _Refused()
    return value


# The checkout's local settings: `make setup` writes what `make demo` runs with (DEBUG=1, or hall mode)
# to var/local.env, so the manage.py commands the docs show find them without make. A value the
# environment sets wins; and a process whose environment sets SECRET_KEY (every server: compose
# requires it) never reads the file, so a stray one cannot turn DEBUG on in production (nor can the
# image carry one: .dockerignore leaves var/ out).
LOCAL_FILE = "EXHIBITION_LOCAL_ENV"
_NOT_LOCAL = (LOCAL_FILE, "SECRET_KEY")  # the file never names itself, and never holds a key


def local_values(environ: Mapping[str, str]) -> dict[str, str]:
    """The NAME=value lines of the local file environ names (var/local.env by default); none when
    environ sets SECRET_KEY or there is no file; BadValue naming the line that is not one."""
    if environ.get("SECRET_KEY", "").strip():
        return {}
    path = read(LOCAL_FILE, environ)
    try:
        text = path.read_text()
    except (FileNotFoundError, IsADirectoryError):
        return {}
    values = {}
    for number, line in enumerate(text.splitlines(), 1):
        name, equals, value = (part.strip() for part in line.partition("="))
        if not name or name.startswith("#"):
            continue
        if not equals or name not in VARIABLES or name in _NOT_LOCAL:
            raise BadValue(f"{path}, line {number}: {line.strip()!r} is not NAME=value of a variable the file may set "
                           f"(any of docs/production.md's but {' and '.join(_NOT_LOCAL)}).")
        values[name] = value
    return values


def effective(environ: Mapping[str, str]) -> dict[str, str]:
    """environ with the local file's values under it: the environment a process of this checkout runs with."""
    return {**local_values(environ), **{name: text for name, text in environ.items() if text.strip()}}


def write_local(path: Path, assignments: list[str]) -> None:
    """Write NAME=value assignments (each checked by read()) as the local file at path."""
    lines = []
    for assignment in assignments:
        name, _, value = assignment.partition("=")
        if name not in VARIABLES or name in _NOT_LOCAL:
            raise BadValue(f"{name} is not a variable the local file may set.")
        read(name, {name: value})
        lines.append(f"{name}={value}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("# This checkout's settings, written by `make setup` (make demo), read by its manage.py commands.\n"
                    "# The environment's values win; a process whose environment sets SECRET_KEY never reads this file.\n"
                    + "\n".join(lines) + "\n")


def read(name: str, environ: Mapping[str, str] | None = None) -> Any:
    """The value of the variable name in environ (this process's environment and the local file by
    default), typed and checked; BadValue with the sentence for the operator when it is not allowed."""
    environ = effective(os.environ) if environ is None else environ
    var = VARIABLES[name]
    text = environ.get(name, "")
    if not text.strip():
        if isinstance(var.default, Derived):
            return var.default.value(lambda other: read(other, environ))
        return var.default
    try:
        return _parse(var, text)
    except (_Refused, ValueError, KeyError) as error:
        detail = f": {error.args[0]}" if isinstance(error, _Refused) and error.args else ""
        raise BadValue(f"{name} must be {allowed(var)}, not {text!r}{detail}.") from None


def read_all(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Every variable's value; BadValue naming every one that is not allowed, one sentence a line."""
    environ = effective(os.environ) if environ is None else environ
    values, problems = {}, []
    for name in VARIABLES:
        try:
            values[name] = read(name, environ)
        except BadValue as error:
            problems.append(str(error))
    if not problems:
        problems = [problem for rule in RULES if (problem := rule(values))]
    if problems:
        raise BadValue("\n".join(problems))
    return values


def _pool_sizes(values: dict) -> str | None:
    low, high = values["DATABASE_POOL_MIN"], values["DATABASE_POOL_MAX"]
    if low > high:
        return (f"DATABASE_POOL_MIN ({low}) must not be over DATABASE_POOL_MAX ({high}): a process keeps at least "
                f"the first and at most the second open.")
    return None


# Rules over several variables, each giving a sentence when broken. (The channel layer's group expiry
# follows from the heartbeat, group_expiry() above, so no heartbeat can outlive it.)
RULES: tuple[Callable[[dict], str | None], ...] = (_pool_sizes,)

EVERY = "every process"
WEB = "web"
IMPORTS = "web, commands"
CONDUCTOR = "conductor"
WORKERS = "bot workers"

def _by_name(*variables: Variable) -> dict[str, Variable]:
    table = {var.name: var for var in variables}
    if len(table) != len(variables):
        raise AssertionError("A variable is declared twice in serving/environment.py.")
    return table


VARIABLES = _by_name(
    # The service: Django, the network, the database, Redis, logs, Celery.
    Variable("DEBUG", "flag", False, "Django's debug pages, and the development secret key when `SECRET_KEY` is unset; "
             "`make demo` sets it. Never on a server others reach", EVERY),
    Variable("SECRET_KEY", "text", "", "signs seat tokens and sessions: unset, only a DEBUG server starts (hall mode "
             "makes a key of the machine's own in var/secret-key)", EVERY, shown="unset"),
    Variable("ALLOWED_HOSTS", "list", ("127.0.0.1", "localhost", "[::1]"), "the host names the site and its websockets "
             "answer to; hall mode adds this machine's LAN addresses and `EXHIBITION_PUBLIC_URL`'s host", WEB),
    Variable("CSRF_TRUSTED_ORIGINS", "list", (), "origins (`https://` + host) whose form posts are trusted; "
             "`EXHIBITION_PUBLIC_URL`'s is added", WEB, shown="none"),
    Variable("HTTPS", "flag", Derived(
        "on unless `DEBUG`; in hall mode, on only when `EXHIBITION_PUBLIC_URL` is https://",
        lambda read: read("EXHIBITION_PUBLIC_URL").startswith("https://") if read("EXHIBITION_HALL") else not read("DEBUG")),
        "redirect plain HTTP to HTTPS, secure cookies, HSTS; off only on a plain-HTTP network you trust", WEB),
    Variable("BEHIND_PROXY", "flag", Derived("on when `TRUSTED_PROXIES` is set", lambda read: bool(read("TRUSTED_PROXIES"))),
             "behind a proxy (compose's nginx): believe its X-Forwarded-Proto, and take the client's address from "
             "X-Forwarded-For, `PROXY_HOPS` entries from the right", WEB),
    Variable("PROXY_HOPS", "int", 1, "with `BEHIND_PROXY` on: how many proxies stand in front of the web processes, "
             "each appending the address it saw to X-Forwarded-For (serving/client_address.py); entries further left "
             "are the client's own words and never believed", WEB, low=1, high=10),
    Variable("TRUSTED_PROXIES", "networks", (), "with `BEHIND_PROXY` on: X-Forwarded-For is read only from a peer in "
             "these (the nearest proxy); unset, from any peer, so let nothing but the proxy reach the web processes",
             WEB, shown="any peer"),
    Variable("SECURE_HSTS_SECONDS", "int", 31_536_000, "with `HTTPS` on: how long a browser keeps to HTTPS once told",
             WEB, unit="seconds", low=0),
    Variable("SECURE_HSTS_INCLUDE_SUBDOMAINS", "flag", True, "with `HTTPS` on: HSTS covers the subdomains too", WEB),
    Variable("SECURE_HSTS_PRELOAD", "flag", False, "with `HTTPS` on: ask to be on the browsers' HSTS preload list "
             "(hard to undo: the operator's decision)", WEB),
    Variable("DATABASE_URL", "url", f"sqlite:///{PROJECT / 'db.sqlite3'}", "the event log and everything stored; "
             "PostgreSQL in production", EVERY, choices=("postgres", "postgresql", "sqlite"),
             shown="SQLite, db.sqlite3 in the project folder"),
    Variable("DATABASE_POOL_MIN", "int", 1, "on PostgreSQL: connections each process keeps open at least", EVERY,
             low=0, high=1000),
    Variable("DATABASE_POOL_MAX", "int", 10, "on PostgreSQL: connections each process opens at most; keep the sum over "
             "all processes under PostgreSQL's max_connections", EVERY, low=1, high=1000),
    Variable("DATABASE_POOL_TIMEOUT", "number", 20, "on PostgreSQL: how long a request waits for a connection before "
             "it is answered 503 busy", EVERY, unit="seconds", low=0.1, high=600),
    Variable("REDIS_URL", "url", "", "channel layer, Celery broker and cache shared by the processes; unset, one "
             "process runs everything (the embedded default)", EVERY, choices=("redis", "rediss", "unix"),
             shown="unset"),
    Variable("LOG_FORMAT", "choice", "text", "`json`: one JSON object a log line, for a log collector; `text` for a "
             "terminal", EVERY, choices=("text", "json")),
    Variable("LOG_LEVEL", "choice", "INFO", "the least severe log records written", EVERY,
             choices=("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")),
    Variable("CELERY_WORKER_MAX_MEMORY_PER_CHILD", "int", None, "a worker's pool process is replaced after an act "
             "once its peak resident size passed this", WORKERS, unit="KiB", low=1,
             shown="the process's share of its tier (docs/bots.md)"),
    Variable("CELERY_BROKER_KEY_PREFIX", "text", "", "a prefix of the broker's Redis keys, so deployments (or test "
             "runs) sharing one Redis keep their queues apart", f"{CONDUCTOR}, {WORKERS}", shown="none"),
    Variable("CI", "flag", False, "set by CI services: `make wordnet` fails without WordNet instead of going on, and "
             "a skipped test fails the run", "make wordnet, tests"),

    # Exhibition's own.
    Variable("EXHIBITION_HALL", "flag", False, "hall mode (`make demo HALL=1`): phones on this machine's network play "
             "(docs/hall.md)", WEB),
    Variable("EXHIBITION_PUBLIC_URL", "url", "", "the address the screens hand out for joining, such as "
             "http://192.168.1.23:8000; its host is allowed and trusted for forms", WEB,
             choices=("http", "https"), shown="unset"),
    Variable("EXHIBITION_JOINS_PER_MINUTE", "int", 10, "joins a minute from one client address", WEB, low=1),
    Variable("EXHIBITION_MAX_PLAYERS", "int", 60, "human players a match", WEB, low=1, high=10_000),
    Variable("EXHIBITION_JOIN_CONFIRM_SECONDS", "number", 8, "how long a join waits for the conductor to store the "
             "seat before the phone is told to try again", WEB, unit="seconds", low=0.1, high=600),
    Variable("EXHIBITION_SEAT_TOKEN_HOURS", "number", 12, "a player's seat token stops working this long after the "
             "join", WEB, unit="hours", low=0.01, high=24 * 366),
    Variable("EXHIBITION_HALL_RETURN_SECONDS", "number", 30, "an event's hall screen goes back to the leaderboard "
             "this long after a match ends", WEB, unit="seconds", low=0, high=3600),
    Variable("EXHIBITION_HEARTBEAT_SECONDS", "number", 15, "every socket hears a heartbeat this often (a page behind "
             f"catches up) and each web process reports who is connected; the channel layer keeps a member "
             f"{GROUP_EXPIRY_HEARTBEATS} heartbeats, at least {GROUP_EXPIRY_FLOOR_S} s", WEB,
             unit="seconds", low=0.1, high=600),
    Variable("EXHIBITION_CLOCK_GRAIN_MS", "int", 50, "a new match's words and deadlines fall on multiples of this "
             "(its rule clock_grid_ms), so the matches due at one instant share a wake-up; 0: each at its own ms",
             f"{WEB}, {CONDUCTOR}", unit="ms", low=0, high=100),
    Variable("EXHIBITION_PLAYOUT_MS", "int", 25, "every screen gets an event this long after its stamp, and a bot's "
             "query leaves then: one beat whatever the load; 0: at once", f"{WEB}, {CONDUCTOR}", unit="ms",
             low=0, high=1000),
    Variable("EXHIBITION_PLAYOUT_SPREAD_MS", "int", Derived("`EXHIBITION_CLOCK_GRAIN_MS`",
                                                            lambda read: read("EXHIBITION_CLOCK_GRAIN_MS")),
             "each match's delay is longer by a phase of its own under this, so the matches due at one instant are "
             "written spread out; 0: no phase", f"{WEB}, {CONDUCTOR}", unit="ms", low=0, high=1000),
    Variable("EXHIBITION_LOGIN_FAILURES", "int", 5, "wrong passwords for one username from one address before that "
             "pair is locked out of every sign-in form", WEB, low=1, high=1000),
    Variable("EXHIBITION_LOGIN_COOLOFF_MINUTES", "int", 15, "how long that lock holds after the last wrong password "
             "(a try refused meanwhile tests nothing and does not count)", WEB, unit="minutes", low=1, high=7 * 24 * 60),
    Variable("EXHIBITION_LOGIN_USERNAME_FAILURES", "int", 10, "wrong passwords for one username from any addresses "
             "within `EXHIBITION_LOGIN_USERNAME_SECONDS` before that username is refused from everywhere for the rest "
             "of that stretch", WEB, low=1, high=10_000),
    Variable("EXHIBITION_LOGIN_USERNAME_SECONDS", "int", 60, "the stretch the username-wide count covers: the longest "
             "a stranger's wrong passwords can lock a host out at one go", WEB, unit="seconds", low=1, high=3600),
    Variable("EXHIBITION_EMBEDDED_CONDUCTOR", "flag", Derived("on when `REDIS_URL` is unset",
                                                              lambda read: not read("REDIS_URL")),
             "the web process runs the conductor itself, on a thread of its own", WEB),
    Variable("EXHIBITION_SNIPPETS_URL", "url", "", "a search service for phase 3's snippets (GET url?q=…&k=…); "
             "unset, the passages imported with `manage.py import_passages`", CONDUCTOR,
             choices=("http", "https"), shown="unset"),
    Variable("EXHIBITION_SNIPPETS_CORPUS", "text", "", "search only the imported passages of this corpus "
             "(`import_passages --corpus`)", CONDUCTOR, shown="every corpus"),
    Variable("EXHIBITION_SNIPPETS_SECONDS", "number", 2.0, "how long a phase waits for its search (run beside the "
             "match's writes); past it the phase goes on without snippets and every screen says the search timed out",
             CONDUCTOR, unit="seconds", low=0.1, high=60),
    Variable("EXHIBITION_WORDNET_DIR", "path", Path("/usr/share/wordnet"), "Debian's WordNet (wordnet-base), which "
             "`make wordnet` reads into the judge's index", "make wordnet"),
    Variable("EXHIBITION_WORDNET_INDEX", "path", PROJECT / "var" / "wordnet-nouns.json", "the judge's WordNet index: "
             "`make wordnet` writes it, the judge loads it", f"make wordnet, {CONDUCTOR}"),
    Variable("EXHIBITION_SPEECH_DIR", "path", PROJECT / "var" / "speech", "the cache of questions read aloud: every "
             "process serving a match must see it", f"{WEB}, {CONDUCTOR}"),
    Variable(LOCAL_FILE, "path", PROJECT / "var" / "local.env", "this checkout's settings as `make setup` wrote them "
             "(`DEBUG=1`, or hall mode), found by its commands: under the environment's, and never read "
             f"when `SECRET_KEY` is set; {os.devnull}: none", EVERY),
    Variable("EXHIBITION_DATA_DIR", "path", PROJECT.parent / "shared" / "data", "the shared public question sets",
             "tests, benchmarks"),
    Variable("EXHIBITION_TEST_SQLITE", "path", PROJECT / "var" / "test.sqlite3", "the test database's file when the "
             "tests run on SQLite", "tests"),

    # Bots.
    Variable("EXHIBITION_BOT_DIR", "path", PROJECT / "var" / "bots", "where built bots keep their artefacts: every "
             "process that loads bots must see it", EVERY),
    Variable("EXHIBITION_BOT_KINDS", "classes", (), "your own bot classes, loaded in every process (docs/bots.md, "
             "\"Your own bot class\")", EVERY, shown="none"),
    Variable("EXHIBITION_BOT_RECHECK_S", "number", 1, "a loaded bot's artefacts are measured again at most this often "
             "(0: before every act)", f"{WORKERS}, {WEB}", unit="seconds", low=0, high=3600),
    Variable("EXHIBITION_BOT_MEMORY_500MIB", "bytes", 1 * GIB, "what the 500mib tier's bots may add to a worker "
             "process, held during every act (docs/bots.md)", WORKERS, low=MIB),
    Variable("EXHIBITION_BOT_MEMORY_6GIB", "bytes", 8 * GIB, "what the 6gib tier's bots may add to a worker process, "
             "held during every act", WORKERS, low=MIB),
    Variable("EXHIBITION_BOT_CGROUP", "choice", "auto", "`off`: a worker never makes cgroups of its own, even where "
             "its cgroup is delegated to it", WORKERS, choices=("auto", "off")),

    # Reports and the limits of every import (intake/limits.py, docs/judging.md).
    Variable("EXHIBITION_REPORT_MAX_MATCHES", "int", 200, "matches one event report is made from at most", IMPORTS,
             unit="matches", low=1),
    Variable("EXHIBITION_MAX_BODY_BYTES", "bytes", MIB, "a request body to any page but the import page, refused "
             "(413) before it is read (serving/request_bodies.py)", WEB, low=KIB),
    Variable("EXHIBITION_IMPORT_MAX_FILE_BYTES", "bytes", 32 * MIB, "a question file as it arrives (an upload, or the "
             "path given to a command), packed or not", IMPORTS, low=1),
    Variable("EXHIBITION_IMPORT_MAX_UNPACKED_BYTES", "bytes", 32 * MIB, "a question file once unpacked: the parsers "
             "hold this much text at once", IMPORTS, low=1),
    Variable("EXHIBITION_IMPORT_MAX_UNPACKING_RATIO", "int", 100, "unpacked bytes per packed byte, after the first MiB, "
             "of a stream with no total cap (passage corpora, match archives, dumps)", IMPORTS, low=1),
    Variable("EXHIBITION_IMPORT_MAX_JSON_DEPTH", "int", 32, "JSON nesting, found before parsing", IMPORTS,
             unit="levels", low=1),
    Variable("EXHIBITION_IMPORT_MAX_LINE_BYTES", "bytes", 128 * KIB, "a question file's JSONL or CSV line, or one "
             "entry of its JSON list", IMPORTS, low=1),
    Variable("EXHIBITION_IMPORT_MAX_RECORD_BYTES", "bytes", 8 * MIB, "one record of a stream: a passage, an article, "
             "a match-archive line", IMPORTS, low=1),
    Variable("EXHIBITION_IMPORT_MAX_CSV_FIELD_CHARS", "int", 128 * KIB, "one CSV field", IMPORTS,
             unit="characters", low=1),
    Variable("EXHIBITION_IMPORT_MAX_TEXT_CHARS", "int", 2000, "a question's text", IMPORTS, unit="characters", low=1),
    Variable("EXHIBITION_IMPORT_MAX_ANSWER_CHARS", "int", 500, "an answer line", IMPORTS, unit="characters", low=1),
    Variable("EXHIBITION_IMPORT_MAX_QUESTION_BYTES", "bytes", 4 * KIB, "a question as JSON, as the moderator's socket "
             "receives it", IMPORTS, low=1),
    Variable("EXHIBITION_IMPORT_MAX_QUESTIONS", "int", 10_000, "questions in one file", IMPORTS, unit="questions",
             low=1),
    Variable("EXHIBITION_IMPORT_MAX_DOCX_MEMBERS", "int", 500, "files inside a .docx packet", IMPORTS, unit="files",
             low=1),
    Variable("EXHIBITION_IMPORT_MAX_DOCX_MEMBER_BYTES", "bytes", 16 * MIB, "one file inside a .docx packet, unpacked",
             IMPORTS, low=1),
    Variable("EXHIBITION_IMPORT_MAX_DOCX_DEPTH", "int", 64, "XML nesting in a .docx packet", IMPORTS, unit="levels",
             low=1),
    Variable("EXHIBITION_IMPORT_MAX_DOCX_PARAGRAPHS", "int", 50_000, "paragraphs in a .docx packet", IMPORTS,
             unit="paragraphs", low=1),
    Variable("EXHIBITION_IMPORT_MAX_BOT_DATA_BYTES", "bytes", 8 * GIB, "a bot's data file (`build_bot --data`, "
             "`--questions`), as given and unpacked", "commands", low=1),
    Variable("EXHIBITION_IMPORT_MAX_BOT_DOCUMENT_BYTES", "bytes", 64 * MIB, "a bot's QANTA JSON document, parsed "
             "whole", "commands", low=1),
    Variable("EXHIBITION_IMPORT_MAX_TRAINING_QUESTIONS", "int", 200_000, "a bot's training questions or "
             "question-answer pairs", "commands", unit="questions", low=1),
    Variable("EXHIBITION_IMPORT_MAX_PASSAGES", "int", 10_000_000, "a bot's knowledge passages", "commands",
             unit="passages", low=1),
)


def shown_default(var: Variable) -> str:
    """The default as the docs table says it, the same on every machine."""
    value = var.default
    if var.shown:
        return var.shown
    if isinstance(value, Derived):
        return value.says
    if var.kind == "flag":
        return "on" if value else "off"
    if var.kind == "bytes":
        return human_size(value)
    if var.kind in ("int", "number"):
        unit = var.unit.removesuffix("s") if value == 1 and var.unit != "ms" else var.unit
        return _number(value) + (f" {unit}" if unit else "")
    if isinstance(value, Path):
        for base, named in ((PROJECT, ""), (PROJECT.parent, "../")):
            if value.is_relative_to(base):
                return f"`{named}{value.relative_to(base)}`"
        return f"`{value}`"
    if isinstance(value, tuple):
        return ", ".join(f"`{item}`" for item in value)
    return f"`{value}`"


def markdown() -> str:
    """The docs table: one row a variable, in the table's order."""
    rows = ["| variable | default | allowed | what it does | read by |", "|---|---|---|---|---|"]
    for var in VARIABLES.values():
        cells = (f"`{var.name}`", shown_default(var), allowed_short(var), var.help, var.read_by)
        rows.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(rows) + "\n"


USAGE = ("Usage: python -m serving.environment --markdown  (prints the table docs/production.md holds)\n"
         "       python -m serving.environment --local NAME=value ...  (writes the local file, as `make setup` does)")

if __name__ == "__main__":
    if sys.argv[1:] == ["--markdown"]:
        sys.stdout.write(markdown())
    elif sys.argv[1:2] == ["--local"]:
        try:
            write_local(read(LOCAL_FILE), sys.argv[2:])
        except BadValue as error:
            sys.exit(str(error))
    else:
        sys.exit(USAGE)
