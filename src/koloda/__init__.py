"""koloda: play, score and study the card games Bank and Thousand, and referee the yard game banki."""

__version__ = "0.1.0"
