"""Loaded by pytest before Django (pytest.ini: -p tests.environment): the environment of a test run.

The settings refuse to start without a SECRET_KEY unless DEBUG is on, and turn HTTPS on unless
DEBUG is on. Tests run with DEBUG off, as production does, with a key of their own, and speak plain
HTTP to the servers they start on 127.0.0.1, without the checkout's local file. Servers the tests
start inherit this environment.
"""
import os

os.environ.setdefault("SECRET_KEY", "tests-only-secret-key-" + "k" * 40)
os.environ.setdefault("HTTPS", "off")
# Tests state their environment: the checkout's local file (var/local.env, `make setup`) is not part of it.
os.environ.setdefault("EXHIBITION_LOCAL_ENV", os.devnull)


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Say how many tests skipped; under CI=true that number must be zero (.ci/run provides every
    service and tool a test needs, so a skip there means a test did not test what CI claims)."""
    skipped = sum(1 for report in terminalreporter.stats.get("skipped", []) if report.when in ("setup", "call"))
    terminalreporter.write_line(f"Skipped tests: {skipped}", red=bool(skipped and _in_ci()))
    if skipped and _in_ci():
        terminalreporter.write_line("CI=true and tests skipped: the run fails (see the reasons above, -ra).", red=True)


def pytest_sessionfinish(session, exitstatus):
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None or not _in_ci():
        return
    if any(report.when in ("setup", "call") for report in reporter.stats.get("skipped", [])) and session.exitstatus == 0:
        session.exitstatus = 1


def pytest_runtest_setup(item):
    """A test marked `wordnet` needs the judge's WordNet index: without it, it skips with the fix named
    (and so fails the run under CI=true, above)."""
    if item.get_closest_marker("wordnet") is not None:
        from game.judging import lexicon

        if not lexicon.available():
            import pytest

            pytest.skip(f"needs the judge's WordNet index {lexicon.INDEX_PATH}: install Debian's wordnet-base, "
                        f"then run `make wordnet`")
