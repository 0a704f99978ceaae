#!/usr/bin/env python3
"""A second real tus 1.0 server for Pickup's tests, with the checksum
extension (sha1, 460 on a mismatch) that tuspyserver lacks: tuswsgi's
TusMiddleware on the standard library's threaded WSGI server, listening on
127.0.0.1 only. Uploads land in --dir, one file per upload (named by its id).
It reads a whole request body before writing it, so a connection cut
mid-request leaves nothing behind.

usage: tus_checksum_server.py --port PORT --dir DIR
"""
import argparse
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from tuswsgi import TusMiddleware


class ThreadedServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class QuietHandler(WSGIRequestHandler):
    def log_message(self, *args):
        pass


def app(environ, start_response):
    # Health checks, and the answer tuswsgi forwards when an upload completes.
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "2")])
    return [b"ok"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--dir", required=True)
    args = parser.parse_args()
    wrapped = TusMiddleware(app, upload_path="/files", tmp_dir=args.dir, max_size=2**40)
    make_server("127.0.0.1", args.port, wrapped, server_class=ThreadedServer,
                handler_class=QuietHandler).serve_forever()


if __name__ == "__main__":
    main()
