"""Seed a fresh database for the accessibility tests: seed_names.py's matches (every name as long as
the pages allow), and a second live match of the same kind for the keyboard-only test, so that test
starts from a match nobody has touched.

Run as a script with DATABASE_URL pointing at the test's SQLite file, before Daphne starts. Prints
seed_names.py's JSON with the extra match "keyboard" on the last line.
"""
import json

from seed_names import seed  # run as a script: this folder is on sys.path

if __name__ == "__main__":
    info = seed()
    info["matches"]["keyboard"] = seed()["matches"]["live"]
    print(json.dumps(info))
