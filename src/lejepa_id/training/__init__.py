"""Training: the shared step and loop, the synthetic trainer, seeds and threads."""
