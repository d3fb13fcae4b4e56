"""Encoders f: observations -> codes, stacked over runs."""
