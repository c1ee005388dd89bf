"""The event report: figures over a list of matches' logs (figures.py, no Django), and their page and file."""
