"""Run records on disk: the result file, the results layout, atomic I/O."""
