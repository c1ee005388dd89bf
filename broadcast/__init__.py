"""The broadcast: an overlay page per match for a streaming program (OBS) and a read-only live feed of the
hall's frames for machines, with tokens the host creates and revokes (docs/broadcast.md)."""
