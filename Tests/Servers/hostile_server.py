#!/usr/bin/env python3
"""A server that misbehaves on purpose, for Pickup's hostile-server tests: one behaviour per
first path segment (`/redirect-307/files`, `/endless/...`), over http or, with --cert and
--key, https. Every request it sees (method, path, headers, body size) is appended to --log as
one JSON line, so a test can tell that another host received nothing, or no credential.

usage: hostile_server.py --port N --log FILE [--cert PEM --key PEM] [--other URL]
Prints "ready" on standard output once it listens.
"""
import argparse, json, socket, socketserver, ssl, sys, threading, time

ARGS = None
LOCK = threading.Lock()
PARTS = {}  # part number -> size, as the S3 behaviours received them


def record(method, path, headers, body):
    with LOCK, open(ARGS.log, "a") as handle:
        handle.write(json.dumps({"method": method, "path": path, "headers": headers, "body": body,
                                 "at": time.monotonic()}) + "\n")


def read_request(stream):
    """Request line and headers; then the body when it has a Content-Length (read whole)."""
    line = stream.readline(65536)
    if not line:
        return None
    method, path = (line.decode("latin-1").split(" ") + ["", ""])[:2]
    headers = {}
    while True:
        header = stream.readline(65536)
        if header in (b"\r\n", b"\n", b""):
            break
        name, _, value = header.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    return method, path, headers


def answer(stream, status, headers=(), body=b""):
    text = f"HTTP/1.1 {status}\r\n" + "".join(f"{name}: {value}\r\n" for name, value in headers)
    text += f"Content-Length: {len(body)}\r\n\r\n"
    stream.write(text.encode("latin-1") + body)
    stream.flush()


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        try:
            while self.one():
                pass
        except (ConnectionError, ssl.SSLError, OSError):
            pass

    def one(self):
        request = read_request(self.rfile)
        if request is None:
            return False
        method, path, headers = request
        behaviour = path.strip("/").split("/")[0].split("?")[0]
        length = int(headers.get("content-length", "0") or 0)
        if behaviour == "silent":
            # Reads nothing more: the client's body fills the link and stops moving.
            record(method, path, headers, 0)
            time.sleep(60)
            return False
        if behaviour == "silent-window":
            # Takes the request's head, then closes its receive window and reads nothing more:
            # a body the client has handed whole to its kernel waits there, unacknowledged.
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            record(method, path, headers, 0)
            time.sleep(60)
            return False
        tus = [("Tus-Resumable", "1.0.0")]
        if behaviour == "tus-body-limit" and length > 200_000:
            # A tus server behind a proxy that takes bodies of up to 200,000 bytes: a larger one is
            # refused with 413 as soon as its head arrives, as nginx's client_max_body_size does,
            # and nothing more is read from the connection (a proxy that stops listening).
            record(method, path, headers, -length)
            answer(self.wfile, "413 Request Entity Too Large", [("Connection", "close")])
            time.sleep(30)
            return False
        if behaviour.startswith("early-chunked-error") and length > 0:
            # An error answer at the head of a body, chunked (no length: S3 sends its error XML so,
            # and closes; "-open": the connection left open), then nothing more read.
            record(method, path, headers, -length)
            xml = b"<Error><Code>EarlyCode</Code><Message>refused before the body</Message></Error>"
            closing = b"" if behaviour.endswith("-open") else b"Connection: close\r\n"
            self.wfile.write(b"HTTP/1.1 400 Bad Request\r\nTransfer-Encoding: chunked\r\n" + closing + b"\r\n")
            for piece in (xml[:20], xml[20:]):
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                self.wfile.flush()
                time.sleep(0.1)
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
            time.sleep(30)
            return False
        body = self.rfile.read(length) if length > 0 else b""
        record(method, path, headers, len(body))
        if method == "OPTIONS":
            answer(self.wfile, "204 No Content", tus + [("Tus-Version", "1.0.0"), ("Tus-Extension", "creation")])
            return True
        if behaviour.startswith("redirect-"):
            code = behaviour.split("-")[1]
            answer(self.wfile, f"{code} Moved", [("Location", ARGS.other + "/landing")])
        elif behaviour == "slow-refusal":
            # Takes its time (a test changes files meanwhile), then refuses.
            time.sleep(3)
            answer(self.wfile, "403 Forbidden")
        elif behaviour == "retry-after":
            # Busy at first, asking for two seconds; then takes the form.
            PARTS["busy"] = PARTS.get("busy", 0) + 1
            if PARTS["busy"] == 1:
                answer(self.wfile, "503 Service Unavailable", [("Retry-After", "2")])
            else:
                answer(self.wfile, "200 OK")
        elif behaviour == "retry-after-long":
            answer(self.wfile, "429 Too Many Requests", [("Retry-After", "100000")])
        elif behaviour == "tus-http-location":
            answer(self.wfile, "201 Created", tus + [("Location", ARGS.other.replace("https:", "http:") + "/files/1")])
        elif behaviour == "tus-bad-port-location":
            # A port no socket can have: AsyncHTTPClient traps on one (NIO's SocketAddress).
            answer(self.wfile, "201 Created", tus + [("Location", "http://127.0.0.1:99999/files/1")])
        elif behaviour == "tus-ftp-location":
            answer(self.wfile, "201 Created", tus + [("Location", "ftp://127.0.0.1/files/1")])
        elif behaviour == "tus-big-offset":
            if method == "POST":
                answer(self.wfile, "201 Created", tus + [("Location", "/tus-big-offset/files/1"),
                                                         ("Upload-Offset", "999999999")])
            else:
                answer(self.wfile, "200 OK", tus + [("Upload-Offset", "999999999"), ("Upload-Length", "999999999")])
        elif behaviour == "tus-body-limit":
            # Otherwise a plain tus server, one upload at a time, held in memory.
            if method == "POST":
                PARTS["limit"] = (int(headers.get("upload-length", "0")), b"")
                answer(self.wfile, "201 Created", tus + [("Location", "/tus-body-limit/files/1"), ("Upload-Offset", "0")])
            elif method == "PATCH":
                size, held = PARTS["limit"]
                if int(headers.get("upload-offset", "-1")) != len(held):
                    answer(self.wfile, "409 Conflict", tus)
                else:
                    PARTS["limit"] = (size, held + body)
                    answer(self.wfile, "204 No Content", tus + [("Upload-Offset", str(len(held) + len(body)))])
            else:
                size, held = PARTS.get("limit", (0, b""))
                answer(self.wfile, "200 OK", tus + [("Upload-Offset", str(len(held))), ("Upload-Length", str(size))])
        elif behaviour == "tus-drip":
            # Confirms one more byte per PATCH, whatever the chunk: progress that is not worth it.
            if method == "POST":
                PARTS["drip"] = 0
                answer(self.wfile, "201 Created", tus + [("Location", "/tus-drip/files/1"), ("Upload-Offset", "0")])
            elif method == "PATCH":
                PARTS["drip"] = int(headers.get("upload-offset", "0")) + 1
                answer(self.wfile, "204 No Content", tus + [("Upload-Offset", str(PARTS["drip"]))])
            else:
                answer(self.wfile, "200 OK", tus + [("Upload-Offset", str(PARTS.get("drip", 0))),
                                                    ("Upload-Length", "1048576")])
        elif behaviour == "tus-rewind":
            # Confirms the first chunk, then forgets it: later chunks conflict, HEAD says 0.
            if method == "POST":
                answer(self.wfile, "201 Created", tus + [("Location", "/tus-rewind/files/1"), ("Upload-Offset", "0")])
            elif method == "PATCH" and headers.get("upload-offset") == "0":
                answer(self.wfile, "204 No Content", tus + [("Upload-Offset", str(len(body)))])
            elif method == "PATCH":
                answer(self.wfile, "409 Conflict", tus)
            else:
                answer(self.wfile, "200 OK", tus + [("Upload-Offset", "0"), ("Upload-Length", "1")])
        elif behaviour == "endless":
            self.wfile.write(b"HTTP/1.1 201 Created\r\nContent-Length: 100000000000\r\n\r\n")
            self.endless(lambda: b"x" * 65536)
            return False
        elif behaviour == "endless-chunked":
            self.wfile.write(b"HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n")
            self.endless(lambda: b"10000\r\n" + b"x" * 65536 + b"\r\n")
            return False
        elif behaviour == "trickle":
            for byte in b"HTTP/1.1 201 Created\r\nX-Slow: " + b"a" * 100000:
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
                time.sleep(0.1)
            return False
        elif behaviour == "drip-body":
            # A whole head, then a body of 100000 bytes, one a second: never silent, never done.
            self.wfile.write(b"HTTP/1.1 201 Created\r\nContent-Length: 100000\r\n\r\n")
            self.wfile.flush()
            for _ in range(100000):
                self.wfile.write(b"x")
                self.wfile.flush()
                time.sleep(1)
            return False
        elif behaviour == "continue-forever":
            for _ in range(100000):
                self.wfile.write(b"HTTP/1.1 100 Continue\r\n\r\n")
                self.wfile.flush()
                time.sleep(0.05)
            return False
        elif behaviour == "s3-echo":
            secret = headers.get("authorization", "") + " " + headers.get("x-amz-security-token", "")
            body = f"<Error><Code>{secret}</Code><Message>{secret}</Message></Error>".encode()
            answer(self.wfile, "403 Forbidden", [("Content-Type", "application/xml")], body)
        elif behaviour in ("s3-complete-error", "s3-complete-empty", "s3-slow-first"):
            if method == "POST" and "uploads" in path and "uploadId" not in path:
                body = b"<InitiateMultipartUploadResult><UploadId>u1</UploadId></InitiateMultipartUploadResult>"
                answer(self.wfile, "200 OK", [("Content-Type", "application/xml")], body)
            elif method == "PUT":
                number = int(path.split("partNumber=")[1].split("&")[0]) if "partNumber=" in path else 1
                if behaviour == "s3-slow-first" and number == 1:
                    # The first part is answered late: once the test's five other parts have arrived
                    # (a sliding window sends them meanwhile), or after 10 s (batches wait for it).
                    started = time.monotonic()
                    while time.monotonic() - started < 10 and len(set(PARTS) - {1}) < 5:
                        time.sleep(0.02)
                    record("ANSWER", path, {}, 0)
                PARTS[number] = len(body)
                answer(self.wfile, "200 OK", [("ETag", f'"e{number}"')])
            elif method == "GET":
                listed = "".join(f"<Part><PartNumber>{n}</PartNumber><ETag>\"e{n}\"</ETag><Size>{size}</Size></Part>"
                                 for n, size in sorted(PARTS.items()))
                answer(self.wfile, "200 OK", [], f"<ListPartsResult><IsTruncated>false</IsTruncated>{listed}"
                                                  "</ListPartsResult>".encode())
            elif method == "POST" and behaviour == "s3-slow-first":
                answer(self.wfile, "200 OK", [("Content-Type", "application/xml")],
                       b"<CompleteMultipartUploadResult><ETag>\"e\"</ETag></CompleteMultipartUploadResult>")
            elif method == "POST":
                body = b"" if behaviour.endswith("empty") else (
                    b"<Error xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Code>InternalError</Code>"
                    b"<Message>We encountered an internal error.</Message></Error>")
                answer(self.wfile, "200 OK", [("Content-Type", "application/xml")], body)
            else:
                answer(self.wfile, "204 No Content")
        else:
            answer(self.wfile, "404 Not Found")
        return True

    def endless(self, piece):
        started = time.time()
        while time.time() - started < 60:
            self.wfile.write(piece())


class Server(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True

    def get_request(self):
        connection, address = super().get_request()
        if ARGS.cert:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(ARGS.cert, ARGS.key)
            connection = context.wrap_socket(connection, server_side=True)
        return connection, address


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--log", required=True)
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--other", default="http://127.0.0.2:9")
    ARGS = parser.parse_args()
    open(ARGS.log, "a").close()
    server = Server((ARGS.host, ARGS.port), Handler)
    print("ready", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
