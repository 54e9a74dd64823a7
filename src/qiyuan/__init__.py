"""qiyuan (棋院): rating office and tournament desk of a Chinese board-game federation."""

__version__ = "0.1.0"
