#!/usr/bin/env python3
"""A specs service that fails: forwards GET requests to BACKEND, answering a seeded fraction
of them with HTTP 500 instead (docs/BENCHMARKS.md, "import from a failing server").

    scripts/fault-proxy.py http://127.0.0.1:18080 18081 0.2

A POST prints how many requests it has seen and failed.
"""
import random
import sys
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

backend, port, rate = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
choice = random.Random(7)
lock = threading.Lock()
counts = {"requests": 0, "failures": 0}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *arguments):
        pass

    def do_GET(self):
        with lock:
            counts["requests"] += 1
            fail = choice.random() < rate
            if fail:
                counts["failures"] += 1
        if fail:
            self.send_response(500)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = urllib.request.urlopen(backend + self.path).read()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        self.send_response(200)
        self.end_headers()
        self.wfile.write((str(counts) + "\n").encode())


ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
