"""Configuration: run settings, their ranges, experiment files."""
