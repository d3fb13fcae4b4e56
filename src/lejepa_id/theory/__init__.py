"""Closed-form predictions: spectral theory of the alignment optimum, LQR."""
