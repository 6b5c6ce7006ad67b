"""The yardstick of bench/load.py: a bare Flask app that answers "hello"."""

from flask import Flask

app = Flask(__name__)


@app.get("/")
def hello() -> str:
    return "hello"
