"""After the match: the stored log read back (replay, match archive import/export), the box score and
the CSV exports."""
