"""Importing knowledge the way people hold Wikipedia: Kiwix ZIM files, MediaWiki XML dumps, JSON lines.

`manage.py import_knowledge` turns any of them into a knowledge file of {"title", "text"} passages
that every built-in bot builds from (bots.datasets.read_passages).
"""
