"""The live socket side in each web process: consumers, the frames they accept (protocol), fan-out of
the conductor's broadcasts to sockets, catching up after a gap, seat tokens and presence reports."""
