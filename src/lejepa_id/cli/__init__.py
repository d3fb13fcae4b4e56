"""The lejepa-id command line."""
