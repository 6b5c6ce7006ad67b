"""The gunicorn settings `make run` serves with (deploy/ uses them too).

HOST and PORT come from the environment (make passes them); WEB_CONCURRENCY sets the
number of workers (default 2) and GUNICORN_THREADS the threads of each (default 4:
gthread workers; 1: sync workers). Threads keep the phones' connections open between
their polls of the live board; measured against sync workers (2 and 4) and 3 x 2
threads in docs/benchmarks.md, 2 x 4 served the polls and the scoring fastest.
"""

import gc
import os

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
worker_class = "gthread" if threads > 1 else "sync"
accesslog = "-"
# The app checks the length of URLs itself, so that an over-long one gets a 414 in the
# app's words (JSON under /api/) rather than gunicorn's own page.
limit_request_line = 0


def post_worker_init(worker):
    """The app and its libraries live as long as the worker: leave them out of the
    garbage collector's rounds, which then only look at what requests make."""
    gc.freeze()
