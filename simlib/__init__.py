"""simlib: Monte Carlo playthroughs of tabletop games and the tables a designer tunes with."""
