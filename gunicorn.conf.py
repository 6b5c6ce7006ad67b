"""The gunicorn settings `make run` serves with (deploy/ uses them too).

HOST and PORT come from the environment (make passes them); WEB_CONCURRENCY sets the
number of workers (default 2) and GUNICORN_THREADS the threads of each (default 1:
sync workers; more: gthread workers). Measured with bench/load.py (docs/benchmarks.md):
two sync workers served this mix of short reads, polls and saves better than four, or
than gthread workers (2 x 4, 3 x 2), whose threads share one interpreter lock.
"""

import gc
import os

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
worker_class = "gthread" if threads > 1 else "sync"
accesslog = "-"
# The app checks the length of URLs itself, so that an over-long one gets a 414 in the
# app's words (JSON under /api/) rather than gunicorn's own page.
limit_request_line = 0


def post_worker_init(worker):
    """The app and its libraries live as long as the worker: leave them out of the
    garbage collector's rounds, which then only look at what requests make."""
    gc.freeze()
