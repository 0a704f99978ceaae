#!/usr/bin/env python3
"""A plain upload form for Pickup's tests and benchmark: POST /upload with a
multipart/form-data body, listening on 127.0.0.1 only. The body is streamed to
disk as it arrives; the file part is saved in --dir under its filename, and the
answer (201) is JSON: name, size, sha256 and the other fields, with a Location;
the fields and the file field's name are also kept beside the file, in NAME.fields.json.
--fail N answers 503 to the first N uploads; --token T wants
"Authorization: Bearer T" (401 otherwise). GET /health answers 200.

As a server that follows draft-ietf-httpapi-idempotency-key-header does, a POST
whose Idempotency-Key was seen before is answered with the first answer and
stores nothing (--ignore-keys: every POST stores). --conflicts N answers 409 (as
while an earlier try with the same key is still being handled) to the first N
uploads that carry a key. --lose-replies N stores the
first N uploads and then closes the connection without answering, as a reply
lost on the way. Each upload stored adds a line to DIR/.stores.log: the key
given (or -), the multipart boundary and the name.

usage: form_server.py --port PORT --dir DIR [--fail N] [--token T] [--lose-replies N] [--conflicts N] [--ignore-keys]
"""
import argparse, hashlib, json, os, tempfile, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

state = {"fail": 0, "lose": 0, "conflicts": 0, "answers": {}}
lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body, headers=()):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.answer(200, {"ok": True})

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "-1"))
        if length < 0:
            return self.answer(400, {"error": "POST /upload with a Content-Length"})
        if self.path != "/upload":
            # As a web app answers a POST to a page that takes none: the body read, then 405.
            left = length
            while left > 0:
                block = self.rfile.read(min(left, 1 << 20))
                if not block:
                    return
                left -= len(block)
            return self.answer(405, {"error": "this URL takes no POST"})
        with tempfile.TemporaryFile(dir=self.server.folder) as body:
            left = length
            while left > 0:
                block = self.rfile.read(min(left, 1 << 20))
                if not block:
                    return  # the client went away
                body.write(block)
                left -= len(block)
            if self.server.token and self.headers.get("Authorization") != "Bearer " + self.server.token:
                return self.answer(401, {"error": "wrong or missing token"})
            with lock:
                if state["fail"] > 0:
                    state["fail"] -= 1
                    return self.answer(503, {"error": "try again"})
            key = self.headers.get("Idempotency-Key")
            if key is not None:
                with lock:
                    conflict = state["conflicts"] > 0
                    if conflict:
                        state["conflicts"] -= 1
                if conflict:
                    return self.answer(409, {"error": "a request with this key is being processed"})
            if key is not None and not self.server.ignore_keys:
                with lock:
                    first = state["answers"].get(key)
                if first is not None:
                    return self.answer(*first)
            kind = self.headers.get("Content-Type", "")
            if "boundary=" not in kind:
                return self.answer(400, {"error": "not multipart/form-data"})
            boundary = kind.split("boundary=", 1)[1].strip().strip('"').encode()
            body.seek(0)
            head = body.read(1 << 16)
            fields, name, start, file_field = {}, None, None, None
            position = 0
            while True:
                begin = head.find(b"--" + boundary + b"\r\n", position)
                if begin < 0:
                    break
                end = head.find(b"\r\n\r\n", begin)
                headers = head[begin:end].decode("utf-8", "replace")
                field = headers.split('name="', 1)[1].split('"', 1)[0]
                if 'filename="' in headers:
                    file_field = field
                    name = headers.split('filename="', 1)[1].split('"', 1)[0]
                    start = end + 4
                    break
                value_end = head.find(b"\r\n--" + boundary, end + 4)
                fields[field] = head[end + 4:value_end].decode()
                position = value_end + 2
            closing = b"\r\n--" + boundary + b"--\r\n"
            body.seek(length - len(closing))
            if name is None or body.read() != closing:
                return self.answer(400, {"error": "no file part, or the body is cut short"})
            name = os.path.basename(name) or "upload.bin"
            digest = hashlib.sha256()
            size = length - len(closing) - start
            body.seek(start)
            with open(os.path.join(self.server.folder, name), "wb") as out:
                left = size
                while left > 0:
                    block = body.read(min(left, 1 << 20))
                    digest.update(block)
                    out.write(block)
                    left -= len(block)
            # What came with the file, for the tests to read: the other fields and the file's field.
            with open(os.path.join(self.server.folder, name + ".fields.json"), "w") as out:
                json.dump({"fields": fields, "fileField": file_field}, out)
        reply = (201, {"name": name, "size": size, "sha256": digest.hexdigest(), "fields": fields},
                 [("Location", "/files/" + name)])
        with lock:
            with open(os.path.join(self.server.folder, ".stores.log"), "a") as log:
                log.write((key or "-") + " " + boundary.decode() + " " + name + "\n")
            if key is not None:
                state["answers"][key] = reply
            lose = state["lose"] > 0
            if lose:
                state["lose"] -= 1
        if lose:
            self.close_connection = True
            return
        self.answer(*reply)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--dir", required=True)
    parser.add_argument("--fail", type=int, default=0)
    parser.add_argument("--token", default="")
    parser.add_argument("--lose-replies", type=int, default=0)
    parser.add_argument("--conflicts", type=int, default=0)
    parser.add_argument("--ignore-keys", action="store_true")
    args = parser.parse_args()
    state["fail"], state["lose"], state["conflicts"] = args.fail, args.lose_replies, args.conflicts
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.folder, server.token, server.ignore_keys = args.dir, args.token, args.ignore_keys
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main()
