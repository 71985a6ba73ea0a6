"""The records a suite script appends to its results.jsonl, one JSON object per line, for the
table scripts beside it."""
import json
import os


def records(folder):
    """Every record of FOLDER/results.jsonl, in the order written."""
    with open(os.path.join(folder, "results.jsonl")) as f:
        return [json.loads(line) for line in f if line.strip()]
