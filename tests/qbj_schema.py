"""The published QBJ JSON Schema (from the shared data folder, never copied here) for the tests that
check our QBJ files: a missing schema skips with the reason, and fails under CI=true."""
import json
from pathlib import Path

from django.conf import settings

from tests.conftest import need_service


def qbj_validator():
    from jsonschema import Draft202012Validator

    path = Path(settings.EXHIBITION_DATA_DIR) / "qbj" / "qbj.schema.json"
    need_service(path.is_file(), f"the QBJ JSON Schema is not at {path} (set EXHIBITION_DATA_DIR)")
    schema = json.loads(path.read_text())
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def errors_of(validator, document) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(document)]
