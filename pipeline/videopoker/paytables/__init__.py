"""A video-poker game as data: which cards are wild, the paytable model and its TOML loader, and
how deals and holds are written as text."""
