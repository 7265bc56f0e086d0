"""koloda: play, score and study the card games Bank and Thousand, and referee the yard game banki."""

__version__ = "0.2.0.dev0"
