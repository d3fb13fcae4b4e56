"""python -m lejepa_id: the lejepa-id command."""

import sys

from lejepa_id.cli.main import main

try:
    code = main()
except KeyboardInterrupt:
    # A Ctrl-C that lands after main() has handled its own (between its return and the
    # exit) still ends as an interrupted command, not a signal death.
    print("lejepa-id: interrupted", file=sys.stderr)
    code = 130
raise SystemExit(code)
