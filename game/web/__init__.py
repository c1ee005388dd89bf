"""The web pages: views and forms for hosts, moderators, players and the archive, and their URLs."""
