"""Intake: reading the files people hand us within limits (question files, bot data, corpora, logs).

The bottom of the project, under both the question importers (game/importers/) and the bots: a file's
size is checked before a byte is read, every byte comes through one unpacking stream with a running
count, lines and JSON values are measured before they are parsed, and going over a limit stops the
read with a sentence naming the limit, the place in the file and the setting that moves it.
"""
