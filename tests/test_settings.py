"""Safe by default: the settings a server starts with when the operator sets nothing, or everything;
and one table of the environment (serving/environment.py) that every variable is read through.

The server cases start `manage.py check` in a fresh process with exactly the environment named, as an
operator's shell or docker-compose would. The table's cases read it with an environment of their own.
"""
import ast
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from serving import environment
from serving.environment import MIB, BadValue, read, read_all
from tests.servers import ROOT

PRODUCTION = {"SECRET_KEY": "a-production-secret-" + "x7Q" * 15, "ALLOWED_HOSTS": "exhibition.example.org",
              "CSRF_TRUSTED_ORIGINS": "https://exhibition.example.org", "BEHIND_PROXY": "1"}


def check(env: dict, *args: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("SECRET_KEY", "DEBUG", "HTTPS", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "BEHIND_PROXY",
                          "TRUSTED_PROXIES")}
    clean.update(env, DJANGO_SETTINGS_MODULE="exhibition.settings")
    return subprocess.run([sys.executable, "manage.py", "check", *args], cwd=ROOT, env=clean,
                          capture_output=True, text=True, timeout=120)


def test_without_a_secret_key_the_server_refuses_to_start_unless_debug_is_on():
    refused = check({})
    assert refused.returncode != 0 and "Set SECRET_KEY" in refused.stderr
    assert check({"DEBUG": "1"}).returncode == 0


def _debug_shown(env: dict) -> str:
    """settings.DEBUG, as a process of this checkout started with env (and this environment's others) sees it."""
    shown = subprocess.run([sys.executable, "-c", "import django; django.setup(); from django.conf import settings; "
                            "print(settings.DEBUG)"], cwd=ROOT, capture_output=True, text=True, timeout=60,
                           env={**{k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY")},
                                **env, "DJANGO_SETTINGS_MODULE": "exhibition.settings"})
    return shown.stdout.strip() or shown.stderr


def test_the_commands_of_a_demo_checkout_find_its_local_settings_without_make(tmp_path):
    local = tmp_path / "local.env"
    written = subprocess.run([sys.executable, "-m", "serving.environment", "--local", "EXHIBITION_HALL=0", "DEBUG=1"],
                             cwd=ROOT, env={**os.environ, "EXHIBITION_LOCAL_ENV": str(local)}, capture_output=True,
                             text=True, timeout=60)
    assert written.returncode == 0, written.stderr
    assert check({"EXHIBITION_LOCAL_ENV": str(local)}).returncode == 0  # no SECRET_KEY, no DEBUG: the file's
    assert _debug_shown({"EXHIBITION_LOCAL_ENV": str(local)}) == "True"
    assert _debug_shown({"EXHIBITION_LOCAL_ENV": str(local), "DEBUG": "0", "SECRET_KEY": PRODUCTION["SECRET_KEY"]}) == "False"


def test_a_server_with_its_own_key_never_reads_a_stray_local_file(tmp_path):
    local = tmp_path / "local.env"
    local.write_text("DEBUG=1\n")
    assert _debug_shown({"EXHIBITION_LOCAL_ENV": str(local), "SECRET_KEY": PRODUCTION["SECRET_KEY"]}) == "False"
    assert environment.local_values({"EXHIBITION_LOCAL_ENV": str(local), "SECRET_KEY": "k"}) == {}
    assert environment.read("DEBUG", environment.effective({"EXHIBITION_LOCAL_ENV": str(local)})) is True
    assert environment.read("DEBUG", environment.effective({"EXHIBITION_LOCAL_ENV": str(local), "DEBUG": "no"})) is False


@pytest.mark.parametrize("line", ["DEBUG", "SECRET_KEY=abc", "NOT_A_VARIABLE=1"])
def test_a_local_file_line_that_is_not_a_setting_stops_the_process_with_a_sentence(tmp_path, line):
    local = tmp_path / "local.env"
    local.write_text(f"# a comment\n\n{line}\n")
    refused = check({"EXHIBITION_LOCAL_ENV": str(local)})
    assert refused.returncode != 0
    assert f"local.env, line 3: {line!r} is not NAME=value of a variable the file may set" in refused.stderr


def test_debug_is_off_unless_set():
    shown = subprocess.run([sys.executable, "-c", "from django.conf import settings; import django; django.setup(); "
                            "print(settings.DEBUG, settings.SECURE_SSL_REDIRECT, settings.SESSION_COOKIE_SECURE)"],
                           cwd=ROOT, capture_output=True, text=True, timeout=60,
                           env={**{k: v for k, v in os.environ.items() if k not in ("DEBUG", "HTTPS")},
                                "SECRET_KEY": PRODUCTION["SECRET_KEY"], "DJANGO_SETTINGS_MODULE": "exhibition.settings"})
    assert shown.stdout.split() == ["False", "True", "True"], shown.stderr


def test_check_deploy_is_clean_with_the_production_settings_of_the_readme():
    result = check(PRODUCTION, "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_a_trusted_proxy_that_is_not_an_address_stops_the_server_with_a_sentence():
    refused = check({**PRODUCTION, "TRUSTED_PROXIES": "10.0.0.0/8, nginx"})
    assert refused.returncode != 0 and "'nginx' is neither (a network's address must have its host bits zero)" in refused.stderr



def test_every_bad_value_in_the_environment_is_named_together_and_stops_the_server():
    refused = check({"DEBUG": "1", "EXHIBITION_HEARTBEAT_SECONDS": "a minute", "LOG_LEVEL": "chatty"})
    assert refused.returncode != 0
    assert "EXHIBITION_HEARTBEAT_SECONDS must be a number of seconds from 0.1 to 600, not 'a minute'." in refused.stderr
    assert "LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR or CRITICAL, not 'chatty'." in refused.stderr


# One value each kind of the table refuses, and the sentence's end for it. path, list and text take any text.
REFUSED = {
    "flag": ("HTTPS", "maybe", "must be 1, true, yes or on, or 0, false, no or off, not 'maybe'."),
    "int": ("EXHIBITION_MAX_PLAYERS", "sixty", "must be a whole number from 1 to 10,000, not 'sixty'."),
    "number": ("EXHIBITION_JOIN_CONFIRM_SECONDS", "nan", "must be a number of seconds from 0.1 to 600, not 'nan'."),
    "bytes": ("EXHIBITION_BOT_MEMORY_500MIB", "1GB",
              "must be a size in bytes, or in KiB, MiB or GiB (512MiB, 1.5GiB) of at least 1 MiB, not '1GB'."),
    "url": ("REDIS_URL", "localhost:6379", "must be an address starting redis://, rediss:// or unix://, not 'localhost:6379'."),
    "classes": ("EXHIBITION_BOT_KINDS", "mybots.tfidf.TfidfBot, tfidf",
                "must be dotted paths of classes (package.module.ClassName), separated by commas, "
                "not 'mybots.tfidf.TfidfBot, tfidf': 'tfidf' is not one."),
    "networks": ("TRUSTED_PROXIES", "10.0.0.1/8", "must be addresses or networks such as 10.0.0.0/8 or 2001:db8::/48, "
                 "separated by commas, not '10.0.0.1/8': '10.0.0.1/8' is neither (a network's address must have its host "
                 "bits zero)."),
    "choice": ("EXHIBITION_BOT_CGROUP", "sometimes", "must be one of auto or off, not 'sometimes'."),
}
TAKE_ANY_TEXT = {"path", "list", "text"}


def test_every_kind_in_the_table_is_tested_for_what_it_refuses():
    assert {var.kind for var in environment.VARIABLES.values()} == set(REFUSED) | TAKE_ANY_TEXT


@pytest.mark.parametrize("kind", sorted(REFUSED))
def test_a_bad_value_of_each_kind_is_a_sentence_naming_the_variable_the_value_and_what_is_allowed(kind):
    name, value, ending = REFUSED[kind]
    assert environment.VARIABLES[name].kind == kind
    with pytest.raises(BadValue) as refused:
        read(name, {name: value})
    assert str(refused.value) == f"{name} {ending}"


@pytest.mark.parametrize("name, value", [
    ("EXHIBITION_CLOCK_GRAIN_MS", "101"), ("EXHIBITION_PLAYOUT_MS", "-1"), ("EXHIBITION_HEARTBEAT_SECONDS", "0"),
    ("EXHIBITION_JOINS_PER_MINUTE", "0"), ("EXHIBITION_BOT_MEMORY_6GIB", "1KiB"), ("DATABASE_POOL_MAX", "2.5"),
    ("EXHIBITION_SEAT_TOKEN_HOURS", "inf"), ("DATABASE_URL", "mysql://db/exhibition"),
    ("EXHIBITION_PUBLIC_URL", "https://"), ("EXHIBITION_IMPORT_MAX_FILE_BYTES", "0.5"),
])
def test_values_out_of_range_are_refused_with_the_range(name, value):
    with pytest.raises(BadValue, match=rf"^{name} must be .*, not {re.escape(repr(value))}\.$"):
        read(name, {name: value})


@pytest.mark.parametrize("name, text, value", [
    ("DEBUG", " Yes ", True), ("HTTPS", "OFF", False), ("LOG_FORMAT", "JSON", "json"), ("LOG_LEVEL", "warning", "WARNING"),
    ("EXHIBITION_BOT_MEMORY_500MIB", "512MiB", 512 * MIB), ("EXHIBITION_BOT_MEMORY_6GIB", "1.5 GiB", 1536 * MIB),
    ("EXHIBITION_IMPORT_MAX_LINE_BYTES", "4096", 4096), ("EXHIBITION_HEARTBEAT_SECONDS", "2.5", 2.5),
    ("ALLOWED_HOSTS", " quiz.example , [::1],,", ("quiz.example", "[::1]")),
    ("EXHIBITION_BOT_DIR", "/data/bots", Path("/data/bots")), ("SECRET_KEY", "a key ", "a key "),
    ("EXHIBITION_PLAYOUT_MS", "", 25),  # set to nothing: the default
])
def test_values_are_read_as_their_type(name, text, value):
    assert read(name, {name: text}) == value


@pytest.mark.parametrize("env, https", [
    ({}, True), ({"DEBUG": "1"}, False), ({"DEBUG": "1", "HTTPS": "on"}, True), ({"EXHIBITION_HALL": "1"}, False),
    ({"EXHIBITION_HALL": "1", "EXHIBITION_PUBLIC_URL": "https://quiz.example"}, True),
])
def test_https_is_on_unless_debug_and_in_hall_mode_only_for_an_https_public_address(env, https):
    assert read("HTTPS", env) is https


def test_defaults_that_follow_from_other_variables():
    assert read("EXHIBITION_PLAYOUT_SPREAD_MS", {"EXHIBITION_CLOCK_GRAIN_MS": "20"}) == 20
    assert read("EXHIBITION_EMBEDDED_CONDUCTOR", {}) is True
    assert read("EXHIBITION_EMBEDDED_CONDUCTOR", {"REDIS_URL": "redis://redis:6379/0"}) is False
    assert read("BEHIND_PROXY", {}) is False and read("BEHIND_PROXY", {"TRUSTED_PROXIES": "10.0.0.2"}) is True


def test_a_pool_whose_least_is_over_its_most_is_refused():
    with pytest.raises(BadValue, match=r"^DATABASE_POOL_MIN \(5\) must not be over DATABASE_POOL_MAX \(4\)"):
        read_all({"DATABASE_POOL_MIN": "5", "DATABASE_POOL_MAX": "4"})


@pytest.mark.parametrize("heartbeat", [0.1, 1, 15, 29.9, 30, 45, 120, 600])
def test_the_channel_layer_keeps_a_group_member_through_a_lost_heartbeat_whatever_the_heartbeat(heartbeat):
    expiry = environment.group_expiry(heartbeat)
    assert expiry >= 60 and expiry >= 2 * heartbeat
    assert environment.keeps_members(heartbeat, expiry)


def test_a_two_minute_heartbeat_on_redis_keeps_watchers_in_their_group():
    """The configuration that lost words: on Redis with a 120 s heartbeat, the group_expiry was 60 s."""
    shown = subprocess.run([sys.executable, "-c", "import django; django.setup(); from django.conf import settings; "
                            "print(settings.CHANNEL_LAYERS['default']['CONFIG']['group_expiry'])"],
                           cwd=ROOT, capture_output=True, text=True, timeout=60,
                           env={**os.environ, "DEBUG": "1", "REDIS_URL": "redis://127.0.0.1:6379/0",
                                "EXHIBITION_HEARTBEAT_SECONDS": "120", "DJANGO_SETTINGS_MODULE": "exhibition.settings"})
    assert shown.stdout.split() == ["480"], shown.stderr


def test_check_refuses_a_group_expiry_a_heartbeat_could_outlast(settings):
    from game.checks import heartbeat_renews_groups

    assert heartbeat_renews_groups(None) == []
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "serving.redis_layer.ResilientRedisChannelLayer",
                                           "CONFIG": {"hosts": ["redis://127.0.0.1:6379"], "group_expiry": 60}}}
    settings.EXHIBITION_HEARTBEAT_SECONDS = 120
    errors = heartbeat_renews_groups(None)
    assert [e.id for e in errors] == ["game.E001"]
    assert "EXHIBITION_HEARTBEAT_SECONDS is 120 s but the channel layer forgets a group member after 60 s" in errors[0].msg
    settings.EXHIBITION_HEARTBEAT_SECONDS = 29
    assert heartbeat_renews_groups(None) == []


# The table in the docs, as the command the docs name prints it.
DOC = ROOT / "docs" / "production.md"
TABLE = re.compile(r"<!-- environment table, made by `([^`]+)`: edit serving/environment.py, not this table -->\n"
                   r"(.*?)<!-- end of the environment table -->", re.S)


def test_the_docs_table_of_the_environment_is_the_one_the_command_prints():
    found = TABLE.search(DOC.read_text())
    assert found, f"{DOC.name} has no environment table between its two markers"
    printed = subprocess.run(shlex.split(found.group(1)), cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert printed.returncode == 0, printed.stderr
    assert found.group(2) == printed.stdout, f"docs/production.md's table is stale: run {found.group(1)} and paste it"


def test_the_docs_table_names_every_variable():
    table = TABLE.search(DOC.read_text()).group(2)
    assert [row.split("`")[1] for row in table.splitlines()[2:]] == list(environment.VARIABLES)


# Where the environment is read outside the table: Django's own convention, and a child process's environment.
ALLOWED_ENVIRON = {
    ("bots/footprint.py", "_probe"): "the environment of the child interpreter that measures a bot's code",
}
CODE = ("game", "bots", "events", "tournaments", "serving", "exhibition")
TABLE_MODULE = "serving/environment.py"


def environment_reads(tree: ast.AST):
    """(line, function, what) for each os.environ, os.getenv or getattr(settings, name, fallback) in tree;
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", …) is Django's convention and is passed over."""
    found = []

    def visit(node, function):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            function = node.name
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "setdefault" \
                and node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value == "DJANGO_SETTINGS_MODULE":
            return
        if isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv", "environb", "putenv") \
                and isinstance(node.value, ast.Name) and node.value.id == "os":
            found.append((node.lineno, function, f"os.{node.attr}"))
        elif isinstance(node, ast.ImportFrom) and node.module == "os" \
                and {a.name for a in node.names} & {"environ", "getenv", "environb"}:
            found.append((node.lineno, function, "from os import environ"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" \
                and len(node.args) == 3 and "settings" in ast.unparse(node.args[0]):
            found.append((node.lineno, function, f"getattr({ast.unparse(node.args[0])}, …, fallback)"))
        for child in ast.iter_child_nodes(node):
            visit(child, function)

    visit(tree, "<module>")
    return found


def test_the_scan_sees_every_way_of_reading_the_environment_or_a_setting_with_a_fallback():
    tree = ast.parse("import os\nfrom os import getenv\nA = os.environ.get('A')\ndef f():\n    return os.getenv('B')\n"
                     "C = getattr(settings, 'C', 1)\nD = getattr(django_settings, 'D', None)\nE = getattr(settings, 'E')\n"
                     "os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'exhibition.settings')\n")
    assert [(line, what) for line, _, what in environment_reads(tree)] == [
        (2, "from os import environ"), (3, "os.environ"), (5, "os.getenv"), (6, "getattr(settings, …, fallback)"),
        (7, "getattr(django_settings, …, fallback)")]


def test_nothing_but_the_table_reads_the_environment_and_no_setting_is_read_with_a_fallback():
    wrong = []
    for package in CODE:
        for path in sorted((ROOT / package).rglob("*.py")):
            where = str(path.relative_to(ROOT))
            if where == TABLE_MODULE:
                continue
            for line, function, what in environment_reads(ast.parse(path.read_text(), where)):
                if (where, function) not in ALLOWED_ENVIRON:
                    wrong.append(f"{where}:{line} ({function}) {what}")
    assert not wrong, ("Read these through serving/environment.py (django.conf.settings.X, or environment.read where "
                       "Django is not set up), with no fallback:\n" + "\n".join(wrong))


NAMED = re.compile(r"EXHIBITION_[A-Z0-9_]+")
# Read by the tests themselves (tests/redis_dbs.py, tests/browser): not the project's.
TEST_ONLY = {"EXHIBITION_TEST_REDIS", "EXHIBITION_TEST_REDIS_DBS", "EXHIBITION_A11Y_SHOTS"}


def _texts():
    for package in (*CODE, "tests", "bench", "docs", "deploy"):
        for path in sorted((ROOT / package).rglob("*")):
            if path.suffix in (".py", ".md", ".yml", ".conf", ".html", ".js", ".mjs"):
                yield path, path.read_text(errors="replace")
    for name in ("README.md", "Makefile", "Dockerfile", "docker-compose.yml"):
        if (ROOT / name).exists():
            yield ROOT / name, (ROOT / name).read_text()


def test_every_exhibition_variable_named_anywhere_is_in_the_table():
    """Or is a setting the settings make of the table's variables (EXHIBITION_BOT_MEMORY_BUDGETS)."""
    from django.conf import settings

    known = set(environment.VARIABLES) | {name for name in dir(settings) if name.startswith("EXHIBITION_")}
    missing = set()
    for path, text in _texts():
        for name in NAMED.findall(text):
            if name.endswith("_"):  # a family, as in EXHIBITION_BOT_MEMORY_<TIER> or EXHIBITION_IMPORT_…
                ok = any(k.startswith(name) for k in known | TEST_ONLY)
            else:
                ok = name in known or name in TEST_ONLY or (path.is_relative_to(ROOT / "tests") and name.startswith(
                    "EXHIBITION_TEST_"))
            if not ok:
                missing.add(f"{path.relative_to(ROOT)}: {name}")
    assert not missing, "Declare these in serving/environment.py (or name the right variable):\n" + "\n".join(sorted(missing))


def test_every_exhibition_setting_the_code_and_tests_read_is_defined():
    from django.conf import settings

    used = {(path.relative_to(ROOT), name) for path, text in _texts() if path.suffix == ".py"
            for name in re.findall(r"settings\.(EXHIBITION_[A-Z0-9_]+)\b", text)}
    undefined = sorted(f"{path}: {name}" for path, name in used if not hasattr(settings, name))
    assert not undefined, "These settings are not defined by exhibition/settings.py:\n" + "\n".join(undefined)


# Variables that become a setting of another name, or are read where Django is not set up.
NOT_A_SETTING_OF_ITS_NAME = {
    "EXHIBITION_LOGIN_FAILURES": "AXES_FAILURE_LIMIT", "EXHIBITION_LOGIN_COOLOFF_MINUTES": "AXES_COOLOFF_TIME",
    "EXHIBITION_BOT_MEMORY_500MIB": "EXHIBITION_BOT_MEMORY_BUDGETS", "EXHIBITION_BOT_MEMORY_6GIB": "EXHIBITION_BOT_MEMORY_BUDGETS",
    "EXHIBITION_TEST_SQLITE": "DATABASES", "EXHIBITION_WORDNET_DIR": "game.judging.lexicon",
    "EXHIBITION_WORDNET_INDEX": "game.judging.lexicon", "EXHIBITION_BOT_CGROUP": "bots.memory",
    "EXHIBITION_LOCAL_ENV": "serving.environment",
}


def test_every_exhibition_variable_is_the_setting_of_its_name_unless_read_otherwise():
    from django.conf import settings

    missing = [name for name in environment.VARIABLES
               if name.startswith("EXHIBITION_") and name not in NOT_A_SETTING_OF_ITS_NAME and not hasattr(settings, name)]
    assert not missing, f"exhibition/settings.py does not define {missing}"


def test_each_limited_tier_has_its_memory_variable_with_its_budget_as_the_default(settings):
    from bots.tiers import MEMORY_BUDGETS, TIER_LIMITS

    for tier, limit in TIER_LIMITS.items():
        name = f"EXHIBITION_BOT_MEMORY_{tier.upper()}"
        if limit is None:
            assert name not in environment.VARIABLES
        else:
            assert environment.VARIABLES[name].default == MEMORY_BUDGETS[tier]
    assert set(settings.EXHIBITION_BOT_MEMORY_BUDGETS) == set(TIER_LIMITS)


def test_every_environment_docker_compose_gives_a_process_is_allowed_by_the_table():
    import yaml

    # ${NAME:-default} is the default, ${NAME:?message} an operator's value: a secret key will do.
    filled = re.sub(r"\$\{(\w+):([-?])([^}]*)\}", lambda m: m.group(3) if m.group(2) == "-" else "k" * 50,
                    (ROOT / "docker-compose.yml").read_text())
    services = yaml.safe_load(filled)["services"]
    ours = {name: service["environment"] for name, service in services.items()
            if isinstance(service.get("environment"), dict) and "REDIS_URL" in service["environment"]}
    assert {"web-1", "conductor", "bots-500mib"} <= set(ours)
    for name, env in ours.items():
        values = read_all({key: "" if value is None else str(value) for key, value in env.items()})
        assert values["DATABASE_URL"].startswith("postgres://") and values["REDIS_URL"], name
