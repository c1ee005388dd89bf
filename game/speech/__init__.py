"""Reading questions aloud in the hall: espeak-ng speech made on the server, with each word's time in it."""
