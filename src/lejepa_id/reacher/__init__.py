"""Pixels and planning: the DeepMind Control Suite Reacher experiment (docs/model.md, section 8).

Modules: ``render`` (headless MuJoCo frames of given joint angles), ``controller`` (a
goal-directed reacher for trajectory data), ``datasets`` (sharded uint8 frame datasets),
``training`` (cnn encoder with the LeJEPA objective), ``evaluation`` (identifiability
metrics on pixels), ``planning`` (latent straight-line planning and the LQR check),
``figures`` and ``cli`` (the ``lejepa-id reacher`` command).
"""
