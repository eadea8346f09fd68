"""Many files in one run: the content-hash cache and the process pool, over `files.driver`."""
