"""Structured logs: with LOG_FORMAT=json every log record is one JSON object on one line.

Log collectors (Docker's json-file driver, Loki, CloudWatch, journald) read such lines as fields,
so an operator can filter by process, logger or level, and follow one match's lines across the web
processes and conductors. Plain text stays the default for a terminal.
"""
from __future__ import annotations

import json
import logging
import os
import socket
from datetime import datetime, timezone

HOST = socket.gethostname()


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, timezone.utc).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "host": HOST,
            "pid": os.getpid(),
            "thread": record.threadName,
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)
