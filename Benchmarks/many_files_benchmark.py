#!/usr/bin/env python3
"""A camera roll over a phone's link: a folder of many small files uploaded at once, Pickup
beside the tools a user would pick instead, each with its defaults, in one run (issue 26).

  S3:   pickup upload -r DIR --to s3://bench/P/ --endpoint URL   aws s3 cp --recursive DIR s3://bench/P/
                                                                rclone copy DIR bench:bench/P
  tus:  pickup upload -r DIR --to tus+URL                        tuspy, one file after another (one process)

Links:
  shaped:    60 files of 256 KB through shaped_link.py's namespace (tbf rate, a proxy holding
             each direction for half the RTT), at 40 ms RTT, at 100 and 20 Mbit/s; SeaweedFS and
             the project's tus server inside the namespace. Needs root; --no-shaped skips it.
  loopback:  200 files of 512 KB to servers on 127.0.0.1, and a raw `curl` PUT (SigV4) of the
             same bytes in one object: what the store itself takes.

rclone is configured only through RCLONE_CONFIG_BENCH_* variables (an s3 remote, provider Other,
the endpoint and the keys; no config file). Each run gets a fresh journal and a fresh prefix;
after each one every stored object is checked (their count, and each file's bytes by SHA-256).
Rounds take turns in a shuffled order; the figures are medians.

usage: Benchmarks/many_files_benchmark.py [--rounds N] [--files N --kb N] [--loop-files N --loop-kb N]
         [--mbit N [N...]] [--rtt-ms N] [--no-shaped] [--no-loopback] [--pickup-parallel N [N...]]
         [--only WORD [WORD...]] [--json PATH]
"""
import argparse, collections, hashlib, json, os, random, shutil, statistics, subprocess, sys, tempfile, time

import figures as figure_output
import shaped_link
from settle import settle
from upload_benchmark import PY, ROOT, S3_KEY, S3_SECRET, free_port, release_pickup, weed_command

# tuspy (tusclient) uploading every file of the folder argv[2], one after another, to the endpoint argv[1]
# (its default chunk size: the whole file in one PATCH).
TUSPY_LOOP = ("from tusclient import client; import os, sys; c = client.TusClient(sys.argv[1])\n"
              "for name in sorted(os.listdir(sys.argv[2])):\n"
              "    c.uploader(os.path.join(sys.argv[2], name), metadata={'filename': name}).upload()\n")

# Lists the filer's folder argv[1] (http://127.0.0.1:PORT/buckets/bench/PREFIX/) and prints
# {name: [size, sha256]} of every object in it, read back through the filer.
LIST_OBJECTS = r"""
import hashlib, json, sys, urllib.request
base, found, last = sys.argv[1], {}, ""
while True:
    request = urllib.request.Request(f"{base}?limit=1000&lastFileName={last}", headers={"Accept": "application/json"})
    listing = json.load(urllib.request.urlopen(request))
    entries = listing.get("Entries") or []
    for entry in entries:
        name = entry["FullPath"].rsplit("/", 1)[1]
        data = urllib.request.urlopen(base + name).read()
        found[name] = [len(data), hashlib.sha256(data).hexdigest()]
    if not listing.get("ShouldDisplayLoadMore") or not entries:
        break
    last = listing["LastFileName"]
print(json.dumps(found))
"""


def make_folder(path, count, kb):
    """`count` files of `kb` KiB of random bytes in `path`: {name: [size, sha256]}."""
    os.makedirs(path)
    files = {}
    for index in range(count):
        name = f"IMG_{index + 1:04d}.HEIC"
        data = os.urandom(kb << 10)
        with open(os.path.join(path, name), "wb") as handle:
            handle.write(data)
        files[name] = [len(data), hashlib.sha256(data).hexdigest()]
    return files


def wait_for(url, namespaced):
    command = ["curl", "-s", "-o", "/dev/null", url]
    for _ in range(600):
        if subprocess.run(shaped_link.inside(command) if namespaced else command).returncode == 0:
            return
        time.sleep(0.1)
    sys.exit(f"many_files_benchmark: {url} did not answer")


class Servers:
    """SeaweedFS (S3) and the tus server, on 127.0.0.1 of the host or of the namespace."""

    def __init__(self, work, namespaced):
        self.namespaced, self.processes = namespaced, []
        self.s3_dir, self.tus_dir = os.path.join(work, "s3"), os.path.join(work, "tus")
        os.makedirs(self.s3_dir)
        os.makedirs(self.tus_dir)
        wrap = shaped_link.inside if namespaced else (lambda command: command)
        self.tus_port, self.s3_port = (7001, 7003) if namespaced else (free_port(), free_port())
        ports = [7004, 7005, 7006, 7007, 7008] if namespaced else [free_port() for _ in range(5)]
        self.filer = f"http://127.0.0.1:{ports[0]}"
        python = os.path.join(PY, "python")
        self.processes.append(subprocess.Popen(
            wrap([python, os.path.join(ROOT, "Tests/Servers/tus_server.py"), "--port", str(self.tus_port),
                  "--dir", self.tus_dir]), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        self.processes.append(subprocess.Popen(wrap(weed_command(self.s3_dir, self.s3_port, ports)), cwd=self.s3_dir,
                                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        wait_for(f"http://127.0.0.1:{self.tus_port}/health", namespaced)
        wait_for(f"{self.filer}/buckets/bench/", namespaced)

    def objects(self, prefix):
        """{name: [size, sha256]} of the objects under s3://bench/PREFIX/."""
        command = [os.path.join(PY, "python"), "-c", LIST_OBJECTS, f"{self.filer}/buckets/bench/{prefix}/"]
        result = subprocess.run(shaped_link.inside(command) if self.namespaced else command, capture_output=True,
                                text=True)
        return json.loads(result.stdout) if result.returncode == 0 else {}

    def tus_uploads(self):
        """The (size, sha256) of every upload the tus server holds, then removes them."""
        found = []
        for name in os.listdir(self.tus_dir):
            path = os.path.join(self.tus_dir, name)
            if os.path.isfile(path) and not name.endswith(".info"):
                with open(path, "rb") as handle:
                    data = handle.read()
                found.append((len(data), hashlib.sha256(data).hexdigest()))
            if os.path.isfile(path):
                os.remove(path)
        return found

    def stop(self):
        for process in self.processes:
            process.kill()
        for process in self.processes:
            process.wait()


def run(command, env):
    """Seconds a command took; exits when it fails."""
    started = time.perf_counter()
    result = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - started
    if result.returncode != 0:
        sys.exit(f"many_files_benchmark: {' '.join(command[:3])} failed ({result.returncode}): "
                 f"{(result.stdout + result.stderr)[-800:]}")
    return seconds


def measure(link, servers, folder, files, s3_url, tus_url, args, pickup, work, curl_limit=False):
    """Every tool over one link, `args.rounds` rounds in shuffled orders: {tool: [seconds]}, and
    whether every stored object of every run was right."""
    env = dict(os.environ, AWS_ACCESS_KEY_ID=S3_KEY, AWS_SECRET_ACCESS_KEY=S3_SECRET, AWS_DEFAULT_REGION="us-east-1",
               HOME=work, RCLONE_CONFIG_BENCH_TYPE="s3", RCLONE_CONFIG_BENCH_PROVIDER="Other",
               RCLONE_CONFIG_BENCH_ENDPOINT=s3_url, RCLONE_CONFIG_BENCH_ACCESS_KEY_ID=S3_KEY,
               RCLONE_CONFIG_BENCH_SECRET_ACCESS_KEY=S3_SECRET)
    for name in list(env):  # no profile, endpoint or config of the machine's own
        if name.startswith("AWS_") and name not in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_DEFAULT_REGION"):
            del env[name]
    journal = os.path.join(work, "journal.sqlite")
    want = collections.Counter(tuple(value) for value in files.values())

    def pickup_s3(parallel):
        extra = ["--parallel", str(parallel)] if parallel else []
        return lambda prefix: [pickup, "upload", "-r", folder, "--to", f"s3://bench/{prefix}/", "--endpoint", s3_url,
                               "--journal", journal, "--json", *extra]

    def pickup_tus(parallel):
        extra = ["--parallel", str(parallel)] if parallel else []
        return lambda prefix: [pickup, "upload", "-r", folder, "--to", "tus+" + tus_url, "--journal", journal,
                               "--json", *extra]

    tools = [
        ("pickup S3", "s3", pickup_s3(None)),
        ("aws s3 cp --recursive", "s3", lambda prefix: [os.path.join(PY, "aws"), "s3", "cp", "--recursive", folder,
                                                        f"s3://bench/{prefix}/", "--endpoint-url", s3_url,
                                                        "--only-show-errors"]),
        ("rclone copy", "s3", lambda prefix: ["rclone", "copy", folder, f"bench:bench/{prefix}"]),
        ("pickup tus", "tus", pickup_tus(None)),
        ("tuspy loop", "tus", lambda prefix: [os.path.join(PY, "python"), "-c", TUSPY_LOOP, tus_url + "/", folder]),
    ]
    for parallel in args.pickup_parallel:
        tools.append((f"pickup S3 --parallel {parallel}", "s3", pickup_s3(parallel)))
        tools.append((f"pickup tus --parallel {parallel}", "tus", pickup_tus(parallel)))
    if args.only:
        tools = [tool for tool in tools if any(word in tool[0] for word in args.only)]
    if curl_limit:
        # The store's own limit: the same bytes in one signed PUT (one object), no client in between.
        joined = os.path.join(work, "all.bin")
        with open(joined, "wb") as out:
            for name in sorted(files):
                with open(os.path.join(folder, name), "rb") as handle:
                    out.write(handle.read())
        tools.append(("curl, one PUT of the bytes", "raw", lambda prefix: [
            "curl", "-s", "-f", "-o", "/dev/null", "--aws-sigv4", "aws:amz:us-east-1:s3", "--user",
            f"{S3_KEY}:{S3_SECRET}", "-T", joined, f"{s3_url}/bench/{prefix}/all.bin"]))
    times = {name: [] for name, _, _ in tools}
    intact, problems = True, []
    runs = 0
    for round in range(args.rounds):
        order = list(tools)
        random.Random(f"{link}-{round}").shuffle(order)
        for name, kind, command in order:
            runs += 1
            prefix = f"r{round}-{runs}"
            if os.path.exists(journal):
                os.remove(journal)
            servers.tus_uploads()
            settle()
            seconds = run(command(prefix), env)
            times[name].append(seconds)
            if kind == "s3":
                stored = servers.objects(prefix)
                right = stored == files
            elif kind == "tus":
                stored = servers.tus_uploads()
                right = collections.Counter(stored) == want
            else:
                stored = servers.objects(prefix)
                right = len(stored) == 1 and stored.get("all.bin", [0])[0] == sum(size for size, _ in files.values())
            if not right:
                intact = False
                problems.append(f"{link} round {round + 1}: {name} stored {len(stored)} objects, not the "
                                f"{len(files)} files' bytes")
            if os.environ.get("BENCH_VERBOSE"):
                print(f"  {link} round {round + 1}: {name} {seconds:.2f} s ({len(stored)} stored, right: {right})",
                      file=sys.stderr, flush=True)
    for problem in problems:
        print(f"many_files_benchmark: {problem}", file=sys.stderr)
    return {name: statistics.median(values) for name, values in times.items()}, intact


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--files", type=int, default=60, help="files of the shaped runs")
    parser.add_argument("--kb", type=int, default=256, help="KiB a file, shaped runs")
    parser.add_argument("--loop-files", type=int, default=200, help="files of the loopback runs")
    parser.add_argument("--loop-kb", type=int, default=512, help="KiB a file, loopback runs")
    parser.add_argument("--mbit", type=int, nargs="+", default=[100, 20], help="the shaped links' rates")
    parser.add_argument("--rtt-ms", type=int, default=40)
    parser.add_argument("--no-shaped", action="store_true", help="only loopback (the shaped link needs root)")
    parser.add_argument("--no-loopback", action="store_true")
    parser.add_argument("--pickup-parallel", type=int, nargs="*", default=[],
                        help="also pickup with --parallel N (files in flight), for each N")
    parser.add_argument("--only", nargs="+", help="only the tools whose names contain one of these words")
    parser.add_argument("--pickup", help="this pickup binary, not a release build of the checkout")
    parser.add_argument("--json", help="write the figures there, for scripts/bench.sh")
    args = parser.parse_args()
    shaped = not args.no_shaped
    if shaped and os.geteuid() != 0:
        sys.exit("many_files_benchmark: the shaped link needs root (or --no-shaped for loopback only)")
    if shutil.which("rclone") is None:
        sys.exit("many_files_benchmark: rclone is missing (scripts/setup.sh installs it)")
    pickup = args.pickup or release_pickup()
    work = tempfile.mkdtemp(prefix="pickup-many-")
    results = []  # (link label, files, total bytes, medians, intact, the link's own limit in seconds or None)
    try:
        if shaped:
            folder = os.path.join(work, "roll")
            files = make_folder(folder, args.files, args.kb)
            total = sum(size for size, _ in files.values())
            for mbit in args.mbit:
                shaped_link.create(mbit)
                servers = Servers(os.path.join(work, f"link-{mbit}"), namespaced=True)
                try:
                    tus = shaped_link.LatencyProxy(servers.tus_port, args.rtt_ms)
                    s3 = shaped_link.LatencyProxy(servers.s3_port, args.rtt_ms)
                    medians, intact = measure(f"{mbit} Mbit/s", servers, folder, files,
                                              f"http://{shaped_link.INSIDE_IP}:{s3.port}",
                                              f"http://{shaped_link.INSIDE_IP}:{tus.port}/files", args, pickup, work)
                finally:
                    servers.stop()
                    shaped_link.remove()
                results.append((f"{mbit} Mbit/s, {args.rtt_ms} ms RTT", args.files, args.kb, total, medians, intact,
                                total * 8 / (mbit * 1e6), mbit))
        if not args.no_loopback:
            folder = os.path.join(work, "roll-loopback")
            files = make_folder(folder, args.loop_files, args.loop_kb)
            total = sum(size for size, _ in files.values())
            servers = Servers(os.path.join(work, "loopback"), namespaced=False)
            try:
                medians, intact = measure("loopback", servers, folder, files, f"http://127.0.0.1:{servers.s3_port}",
                                          f"http://127.0.0.1:{servers.tus_port}/files", args, pickup, work,
                                          curl_limit=True)
            finally:
                servers.stop()
            limit = medians.pop("curl, one PUT of the bytes", None)
            results.append(("loopback", args.loop_files, args.loop_kb, total, medians, intact, limit, None))
        report(results, args)
    finally:
        if shaped:
            shaped_link.remove()
        shutil.rmtree(work, ignore_errors=True)


def report(results, args):
    tools = []
    for *_, medians, _, _, _ in results:
        tools += [name for name in medians if name not in tools]
    print(f"\nseconds, median of {args.rounds} rounds; each tool with its defaults; a fresh journal and prefix a run\n")
    header = f"| link | files | the link's own limit | " + " | ".join(tools) + " |"
    print(header)
    print("|---|---|---:|" + "---:|" * len(tools))
    for label, count, kb, total, medians, intact, limit, mbit in results:
        own = f"{limit:.2f} s" + (" (curl, one PUT)" if mbit is None else f" ({mbit} Mbit/s)") if limit else "—"
        cells = [f"{medians[name]:.2f}" if name in medians else "—" for name in tools]
        print(f"| {label} | {count} × {kb} KB ({total / 1e6:.1f} MB) | {own} | " + " | ".join(cells) + " |")
    print()
    found = []
    for label, count, kb, total, medians, intact, limit, mbit in results:
        checked = "every object checked: right" if intact else "objects NOT all right"
        what = f"{count} × {kb} KB, {label}"
        rounds = f"median of {args.rounds} rounds"
        own = f"the link's own limit {limit:.2f} s" if limit else ""
        pickup_s3, aws, rclone = (medians.get(name) for name in ("pickup S3", "aws s3 cp --recursive", "rclone copy"))
        if pickup_s3 and aws and rclone:
            versus_aws, versus_rclone = aws / pickup_s3, rclone / pickup_s3
            if mbit is None:
                target, met = "≥ 1x rclone", versus_rclone >= 1.0
            elif mbit >= 100:
                target, met = "≥ 1.2x both", min(versus_aws, versus_rclone) >= 1.2
            else:
                share = limit / pickup_s3
                target, met = "≥ 1x both; ≥ 92% of the link", min(versus_aws, versus_rclone) >= 1.0 and share >= 0.92
            shown = f"{versus_aws:.2f}x; {versus_rclone:.2f}x"
            if mbit is not None and mbit < 100:
                shown += f"; {limit / pickup_s3 * 100:.0f}% of the link"
            print(f"S3 {what}: pickup {pickup_s3:.2f} s = {versus_aws:.2f}x aws s3 cp, {versus_rclone:.2f}x rclone "
                  f"(target {target}: {'met' if met and intact else 'NOT met'})")
            found.append(figure_output.figure(
                f"S3 upload, {what}", "`aws s3 cp --recursive`; `rclone copy`", shown, target, met and intact,
                f"pickup {pickup_s3:.2f} s, aws {aws:.2f} s, rclone {rclone:.2f} s; {own + '; ' if own else ''}"
                f"{rounds}; {checked}", brief=mbit is not None and mbit >= 100))  # the README: 8 KB at most
        pickup_tus, tuspy = medians.get("pickup tus"), medians.get("tuspy loop")
        if pickup_tus and tuspy:
            ratio = tuspy / pickup_tus
            target, least = ("", None) if mbit is None else (("≥ 2x", 2.0) if mbit >= 100 else ("≥ 1.5x", 1.5))
            met = None if least is None else ratio >= least and intact
            print(f"tus {what}: pickup {pickup_tus:.2f} s = {ratio:.2f}x a tuspy loop"
                  + (f" (target {target}: {'met' if met else 'NOT met'})" if target else ""))
            found.append(figure_output.figure(
                f"tus upload, {what}", "a tuspy loop (one file after another)", f"{ratio:.2f}x", target, met,
                f"pickup {pickup_tus:.2f} s, tuspy loop {tuspy:.2f} s; {own + '; ' if own else ''}{rounds}; {checked}",
                brief=False))
        for parallel in args.pickup_parallel:
            for kind, peers in (("S3", ("aws s3 cp --recursive", "rclone copy")), ("tus", ("tuspy loop",))):
                seconds = medians.get(f"pickup {kind} --parallel {parallel}")
                if seconds and all(medians.get(peer) for peer in peers):
                    ratios = "; ".join(f"{medians[peer] / seconds:.2f}x {peer.split()[0]}" for peer in peers)
                    print(f"{kind} {what}, pickup --parallel {parallel}: {seconds:.2f} s = {ratios}")
        if not intact:
            print(f"{what}: some stored objects were not right (see above)")
    figure_output.write(args.json, found)


if __name__ == "__main__":
    main()
