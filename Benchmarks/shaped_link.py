#!/usr/bin/env python3
"""A slow, distant link on this machine, for the upload benchmark.

The kernel here has no netem, but `tc ... tbf` works: a network namespace
(`pickup-link`) is joined to the host by a veth pair (host 10.77.0.1, namespace
10.77.0.2) whose both ends are rate-limited with tbf. Servers run inside the
namespace on its 127.0.0.1; `LatencyProxy` listens on 10.77.0.2 and holds each
direction's bytes for half the round-trip time before passing them on, so every
request and answer costs the RTT. It can also end the TLS (a self-signed CA the
clients are told to trust), reset every open connection (a cut), or stop passing
bytes on them without closing (a server frozen, its kernel still acknowledging).
`lose_open_connections` makes the open connections' packets vanish while new ones
work (a link gone silent: the phone lost its network and found another).

Not emulated: packet loss, reordering, and TCP's own round trips between the client
and the proxy (its congestion window grows over a link with no delay). Needs root.
"""
import asyncio, ctypes, os, socket, ssl, struct, subprocess, threading, time

NAMESPACE = "pickup-link"
HOST_IP, INSIDE_IP = "10.77.0.1", "10.77.0.2"


def run(*command, check=True):
    return subprocess.run(command, check=check, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def create(mbit):
    """Makes the namespace and the veth pair, both ends limited to `mbit` Mbit/s."""
    remove()
    run("ip", "netns", "add", NAMESPACE)
    run("ip", "link", "add", "pkl0", "type", "veth", "peer", "name", "pkl1")
    run("ip", "link", "set", "pkl1", "netns", NAMESPACE)
    run("ip", "addr", "add", f"{HOST_IP}/24", "dev", "pkl0")
    run("ip", "link", "set", "pkl0", "up")
    inside = ["ip", "netns", "exec", NAMESPACE]
    run(*inside, "ip", "addr", "add", f"{INSIDE_IP}/24", "dev", "pkl1")
    run(*inside, "ip", "link", "set", "pkl1", "up")
    run(*inside, "ip", "link", "set", "lo", "up")
    # A token bucket a few packets deep, as a phone's uplink: bursts do not beat the rate.
    for device, prefix in (("pkl0", []), ("pkl1", inside)):
        run(*prefix, "tc", "qdisc", "add", "dev", device, "root", "tbf", "rate", f"{mbit}mbit", "burst", "32kbit",
            "latency", "400ms")


def remove():
    run("ip", "netns", "del", NAMESPACE, check=False)
    run("ip", "link", "del", "pkl0", check=False)


def inside(command):
    """A command line that runs inside the namespace."""
    return ["ip", "netns", "exec", NAMESPACE, *command]


class AddressChange:
    """A phone that loses its network and joins another: every packet to or from the address
    the open connections came from is lost from now on (the namespace routes it to a
    blackhole, so no ACK reaches them), and new connections come from a new address."""

    def __init__(self):
        self.changes, self.current = 0, HOST_IP

    def __call__(self):
        self.changes += 1
        new = f"10.77.0.{10 + self.changes}"
        run("ip", "addr", "add", f"{new}/24", "dev", "pkl0")
        run("ip", "route", "replace", f"{INSIDE_IP}/32", "dev", "pkl0", "src", new)
        run(*inside(["ip", "route", "add", "blackhole", f"{self.current}/32"]))
        self.current = new


class LatencyProxy:
    """Passes connections from INSIDE_IP:port to 127.0.0.1:target inside the namespace, each
    direction held rtt/2. Runs in a thread of this process, which enters the namespace for
    its sockets (setns is per thread)."""

    def __init__(self, target, rtt_ms, certificate=None):
        """`certificate`: (cert, key) to end TLS here; without it bytes pass as they come
        (TLS too, end to end)."""
        self.target, self.delay, self.certificate = target, rtt_ms / 2000, certificate
        self.port = None
        self.connections = set()
        self.silenced = set()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()
        self.ready.wait(10)

    def serve(self):
        with open(f"/var/run/netns/{NAMESPACE}") as handle:
            # setns(2) for this thread only (os.setns arrives in Python 3.12).
            if ctypes.CDLL(None, use_errno=True).setns(handle.fileno(), 0x40000000) != 0:  # CLONE_NEWNET
                raise OSError(ctypes.get_errno(), "setns failed")
        self.loop = asyncio.new_event_loop()
        self.loop.run_until_complete(self.start())
        self.ready.set()
        self.loop.run_forever()

    async def start(self):
        context = None
        if self.certificate:
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(*self.certificate)
        server = await asyncio.start_server(self.accept, INSIDE_IP, 0, ssl=context)
        self.port = server.sockets[0].getsockname()[1]

    async def accept(self, client_reader, client_writer):
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            client_writer.close()
            return
        pair = (client_writer, server_writer)
        self.connections.add(pair)
        await asyncio.gather(self.pipe(client_reader, server_writer, pair),
                             self.pipe(server_reader, client_writer, pair), return_exceptions=True)
        self.connections.discard(pair)
        for writer in pair:
            writer.close()

    async def pipe(self, reader, writer, pair):
        """Copies reader to writer, each piece sent `delay` after it arrived, in order."""
        queue = asyncio.Queue()

        async def send():
            while True:
                due, data = await queue.get()
                if data is None:
                    writer.write_eof() if writer.can_write_eof() else None
                    return
                wait = due - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                while pair in self.silenced:  # a link gone silent passes nothing and says nothing
                    await asyncio.sleep(3600)
                writer.write(data)
                await writer.drain()

        sender = asyncio.ensure_future(send())
        try:
            while True:
                data = await reader.read(1 << 16)
                while pair in self.silenced:
                    await asyncio.sleep(3600)
                await queue.put((time.monotonic() + self.delay, data or None))
                if not data:
                    break
            await sender
        finally:
            sender.cancel()

    def cut(self):
        """Resets every open connection (RST), as a dropped link does."""
        def reset():
            for pair in list(self.connections):
                for writer in pair:
                    raw = writer.get_extra_info("socket")
                    if raw is not None:
                        raw.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    writer.transport.abort()
        self.loop.call_soon_threadsafe(reset)

    def lose_open_connections(self, change):
        """The link of the connections open now goes silent (`change`, an AddressChange: their
        packets are lost both ways); their server side is closed at once, as in go_silent."""
        change()
        self.go_silent()

    def go_silent(self):
        """The connections open now stop passing bytes and are never closed on the client's
        side; new ones work. The server's side is closed at once, as a server's own timeout
        would in the end (so what is measured is the client noticing, not the server)."""
        def silence():
            for pair in list(self.connections):
                self.silenced.add(pair)
                client, server = pair
                client.transport.pause_reading()
                server.transport.abort()
        self.loop.call_soon_threadsafe(silence)
