"""espeak-ng for the speech tests: skipped on a laptop without it, a failure under CI=true."""
import ctypes.util
import shutil

import pytest

from tests.conftest import need_service


def espeak_ready() -> bool:
    return bool(shutil.which("espeak-ng")) and bool(ctypes.util.find_library("espeak-ng"))


@pytest.fixture
def espeak():
    need_service(espeak_ready(), "espeak-ng (and libespeak-ng1) is not installed: apt-get install espeak-ng")


@pytest.fixture
def speech_dir(tmp_path, settings):
    settings.EXHIBITION_SPEECH_DIR = tmp_path / "speech"
    return settings.EXHIBITION_SPEECH_DIR
