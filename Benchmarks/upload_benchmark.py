#!/usr/bin/env python3
"""Upload benchmark: Pickup against the clients a user would pick instead, on
the same file and the same servers (started here, on 127.0.0.1), in one run.

  tus:  pickup upload --to tus+http://...     vs  tuspy (tusclient), same chunk size
  S3:   pickup upload --to s3://...           vs  aws s3 cp (awscli), same part size
  raw:  curl, one PATCH of the whole file (streamed, -T) to the same tus server (the wire's limit)
  form: pickup upload --to http://.../upload  vs  curl -F file=@..., same form server

Prints seconds, MB/s and ratios, each tool's peak memory and CPU time (the client's
own, user + system), then checks every
stored copy's SHA-256 against the file's.

usage: Benchmarks/upload_benchmark.py [--megabytes N] [--chunk-mb N] [--rounds N] [--json PATH]
"""
import argparse, hashlib, os, random, shutil, socket, statistics, subprocess, sys, tempfile, time, urllib.request

import figures
from settle import settle


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = os.path.join(ROOT, ".build", "python", "bin")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait(url):
    for _ in range(300):
        try:
            urllib.request.urlopen(url, timeout=1)
            return
        except Exception as error:
            if getattr(error, "code", None):
                return
            time.sleep(0.1)
    sys.exit(f"upload_benchmark: {url} did not answer")


def start_test_server(script, work, name):
    """Starts one of Tests/Servers/ on a free port, storing in WORK/NAME; once it answers, its
    process, port and folder."""
    port, folder = free_port(), os.path.join(work, name)
    os.makedirs(folder)
    process = subprocess.Popen([os.path.join(PY, "python"), os.path.join(ROOT, "Tests/Servers", script),
                                "--port", str(port), "--dir", folder],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait(f"http://127.0.0.1:{port}/health")
    return process, port, folder


def sha(path):
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def release_pickup():
    """Builds `pickup` for release; its path."""
    subprocess.run(["swift", "build", "-c", "release", "--product", "pickup"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    return os.path.join(ROOT, ".build", "release", "pickup")


def random_file(path, megabytes):
    """Writes `megabytes` MiB of random bytes to `path`; its size and SHA-256."""
    with open(path, "wb") as handle:
        for _ in range(megabytes):
            handle.write(os.urandom(1 << 20))
    return os.path.getsize(path), sha(path)


# S3 credentials the benchmarks' SeaweedFS takes (and gives the clients).
S3_KEY, S3_SECRET = "benchkey", "benchsecret"

# tuspy (tusclient) uploading argv[2] to the endpoint argv[1] in chunks of argv[3] bytes.
TUSPY = ("from tusclient import client; import sys; c = client.TusClient(sys.argv[1]); "
         "u = c.uploader(sys.argv[2], chunk_size=int(sys.argv[3]), metadata={'filename': 'm', 'filetype': 'b'}); "
         "u.upload(); print(u.url)")


def weed_command(folder, s3_port, ports):
    """SeaweedFS (`weed mini`) on 127.0.0.1 storing in `folder`, S3 on `s3_port`, its other
    services on the five `ports` (filer first), with the bucket `bench` and the benchmark's
    credentials (written into `folder`)."""
    with open(os.path.join(folder, "s3.json"), "w") as handle:
        handle.write('{"identities":[{"name":"b","credentials":[{"accessKey":"%s","secretKey":"%s"}],'
                     '"actions":["Admin","Read","Write","List","Tagging"]}]}' % (S3_KEY, S3_SECRET))
    return [os.path.join(PY, "weed"), "mini", f"-dir={folder}", "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
            f"-s3.config={folder}/s3.json", f"-s3.port={s3_port}", f"-filer.port={ports[0]}",
            f"-master.port={ports[1]}", f"-volume.port={ports[2]}", f"-webdav.port={ports[3]}",
            f"-admin.port={ports[4]}", "-s3.port.iceberg=0", "-s3.port.lance=0", "-bucket=bench"]


def timed(command, env=None):
    started = time.perf_counter()
    """Seconds, peak memory (MB), CPU seconds (user + system) and stdout of a command."""
    result = subprocess.run(["/usr/bin/time", "-f", "%M %U %S", *command], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        sys.exit(f"upload_benchmark: {command[0]} failed: {result.stderr[-500:]}")
    memory, user, system = result.stderr.strip().splitlines()[-1].split()
    return elapsed, int(memory) / 1024, float(user) + float(system), result.stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--megabytes", type=int, default=512)
    parser.add_argument("--chunk-mb", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", help="write the figures there, for scripts/bench.sh")
    args = parser.parse_args()
    pickup = release_pickup()
    work = tempfile.mkdtemp(prefix="pickup-upload-bench-")
    servers = []
    try:
        source = os.path.join(work, "movie.bin")
        size, want = random_file(source, args.megabytes)

        tus_server, tus_port, tus_dir = start_test_server("tus_server.py", work, "tus")
        servers.append(tus_server)
        s3_port = free_port()
        s3_dir = os.path.join(work, "s3")
        os.makedirs(s3_dir)
        ports = [free_port() for _ in range(5)]
        servers.append(subprocess.Popen(weed_command(s3_dir, s3_port, ports), cwd=s3_dir,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        wait(f"http://127.0.0.1:{ports[0]}/buckets/bench/")
        env = dict(os.environ, AWS_ACCESS_KEY_ID=S3_KEY, AWS_SECRET_ACCESS_KEY=S3_SECRET,
                   AWS_DEFAULT_REGION="us-east-1")
        chunk = args.chunk_mb << 20
        results = {}

        journal = os.path.join(work, "journal.sqlite")
        form_server, form_port, form_dir = start_test_server("form_server.py", work, "form")
        servers.append(form_server)
        subprocess.run([os.path.join(PY, "aws"), "configure", "set", "default.s3.multipart_chunksize",
                        f"{max(5, args.chunk_mb)}MB"], env=env, check=True)

        def curl_patch():
            created = subprocess.run(["curl", "-s", "-i", "-X", "POST", f"http://127.0.0.1:{tus_port}/files",
                                      "-H", "Tus-Resumable: 1.0.0", "-H", f"Upload-Length: {size}",
                                      "-H", "Upload-Metadata: filename bQ==,filetype Yg=="],
                                     capture_output=True, text=True).stdout
            location = [line.split(" ", 1)[1].strip() for line in created.splitlines()
                        if line.lower().startswith("location:")][0]
            return ["curl", "-s", "-f", "-X", "PATCH", location, "-H", "Tus-Resumable: 1.0.0", "-H", "Upload-Offset: 0",
                    "-H", "Content-Type: application/offset+octet-stream", "-T", source]

        tools = [
            ("pickup upload (tus)", lambda: [pickup, "upload", source, "--to", f"tus+http://127.0.0.1:{tus_port}/files",
                                             "--journal", journal, "--chunk-size", str(args.chunk_mb), "--json", "--force"], None),
            ("tuspy", lambda: [os.path.join(PY, "python"), "-c", TUSPY, f"http://127.0.0.1:{tus_port}/files/", source,
                               str(chunk)], None),
            ("curl (one PATCH)", curl_patch, None),
            ("pickup upload (form)", lambda: [pickup, "upload", source, "--to", f"http://127.0.0.1:{form_port}/upload",
                                              "--journal", journal, "--json", "--force"], None),
            ("curl -F (form)", lambda: ["curl", "-s", "-f", "-o", "/dev/null", "-F", f"file=@{source}",
                                        f"http://127.0.0.1:{form_port}/upload"], None),
            ("pickup upload (S3)", lambda: [pickup, "upload", source, "--to", "s3://bench/pickup/", "--endpoint",
                                            f"http://127.0.0.1:{s3_port}", "--journal", journal,
                                            "--chunk-size", str(max(5, args.chunk_mb)), "--json", "--force"], env),
            ("aws s3 cp", lambda: [os.path.join(PY, "aws"), "s3", "cp", source, "s3://bench/aws/movie.bin",
                                   "--endpoint-url", f"http://127.0.0.1:{s3_port}", "--only-show-errors"], env),
        ]
        # Rounds, each tool once a round in a shuffled order, the machine settled before each run (a server's
        # work from the run before must not slow the next); the median time, the highest memory.
        times = {name: [] for name, _, _ in tools}
        memories = {name: 0.0 for name, _, _ in tools}
        cpus = {name: [] for name, _, _ in tools}
        for round in range(args.rounds):
            # Each round in its own order: the run after a whole-file tus PATCH is slowed by
            # the tus server's work after it answered (some 0.4 s, which settle() does not
            # see), so no tool may always take that place.
            order = list(tools)
            random.Random(round).shuffle(order)
            for name, command, environment in order:
                settle()
                seconds, memory, cpu, _ = timed(command(), env=environment)
                times[name].append(seconds)
                cpus[name].append(cpu)
                if os.environ.get("BENCH_VERBOSE"):
                    print(f"  round {round + 1}: {name} {seconds:.2f} s", file=sys.stderr)
                memories[name] = max(memories[name], memory)
                if round < args.rounds - 1:
                    for entry in os.listdir(tus_dir):
                        path = os.path.join(tus_dir, entry)
                        if os.path.isfile(path):
                            os.remove(path)
        results = {name: (statistics.median(times[name]), memories[name], statistics.median(cpus[name]))
                   for name, _, _ in tools}

        print(f"file: {size / 1e6:.0f} MB, chunks/parts of {args.chunk_mb} MB (S3: at least 5), "
              f"median of {args.rounds} rounds\n")
        print(f"{'tool':24} {'seconds':>8} {'MB/s':>8} {'peak MB':>8} {'CPU s':>6}")
        for tool, (seconds, memory, cpu) in results.items():
            print(f"{tool:24} {seconds:8.2f} {size / seconds / 1e6:8.0f} {memory:8.1f} {cpu:6.2f}")
        tus, s3 = results["pickup upload (tus)"][0], results["pickup upload (S3)"][0]
        print(f"\npickup/tuspy speed: {results['tuspy'][0] / tus:.2f}x   pickup/aws s3 cp speed: {results['aws s3 cp'][0] / s3:.2f}x"
              f"   pickup tus / curl one PATCH: {results['curl (one PATCH)'][0] / tus:.2f}x"
              f"   pickup form / curl -F: {results['curl -F (form)'][0] / results['pickup upload (form)'][0]:.2f}x")
        stored = [os.path.join(tus_dir, name) for name in os.listdir(tus_dir)
                  if not name.endswith(".info") and os.path.isfile(os.path.join(tus_dir, name))]
        intact = all(sha(path) == want for path in stored)
        for key in ("pickup/movie.bin", "aws/movie.bin"):
            data = urllib.request.urlopen(f"http://127.0.0.1:{ports[0]}/buckets/bench/{key}").read()
            intact = intact and hashlib.sha256(data).hexdigest() == want
        intact = intact and sha(os.path.join(form_dir, "movie.bin")) == want
        print(f"every stored copy ({len(stored)} tus, 2 S3, 1 form) equals the file: {intact}")
        megabytes = f"{size / 1e6:,.0f} MB"
        rounds = f"median of {args.rounds} rounds"

        def compared(task, ours, peer, peer_name, target, least):
            ratio = results[peer][0] / results[ours][0]
            return figures.figure(
                f"{task} upload {megabytes}, loopback", peer_name, f"{ratio:.2f}x", target, ratio >= least and intact,
                f"pickup {results[ours][0]:.2f} s, {peer} {results[peer][0]:.2f} s, {rounds}, "
                f"peak {results[ours][1]:.0f} MB; copies intact: {intact}")

        figures.write(args.json, [
            compared("tus", "pickup upload (tus)", "tuspy", "tuspy", "≥ 1.26x", 1.26),
            compared("S3", "pickup upload (S3)", "aws s3 cp", "`aws s3 cp`", "≥ 1.1x", 1.1),
            compared("form", "pickup upload (form)", "curl -F (form)", "`curl -F`", "≥ 0.97x", 0.97),
        ])
    finally:
        for server in servers:
            server.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
