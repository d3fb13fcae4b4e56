"""python -m lejepa_id.cli: the lejepa-id command."""

from lejepa_id.cli.main import run_as_script

raise SystemExit(run_as_script())
