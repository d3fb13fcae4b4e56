"""python -m lejepa_id.cli: the lejepa-id command."""

from lejepa_id.cli.main import main

raise SystemExit(main())
