"""The gunicorn settings `make run` serves with (deploy/ uses them too).

HOST and PORT come from the environment (make passes them); WEB_CONCURRENCY sets
the number of workers.
"""

import os

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_class = "sync"
accesslog = "-"
# The app checks the length of URLs itself, so that an over-long one gets a 414 in the
# app's words (JSON under /api/) rather than gunicorn's own page.
limit_request_line = 0
