#!/usr/bin/env python3
"""Uploads over a slow, distant link: Pickup against tuspy and `aws s3 cp` on the same
shaped link (shaped_link.py: tbf rate in a network namespace, a proxy that holds each
direction for half the RTT), over http and https, and the time a cut costs Pickup.

  goodput:   each tool's bytes a second as a share of the link rate, for tus and S3
  cuts:      pickup upload (tus) with three connection resets, three silent links (the
             open connections' packets lost both ways, new ones work) and three frozen
             servers (no byte passes, the proxy's kernel still acknowledges), over http
             and https: seconds lost per cut against a clean run, and when Pickup said so

Needs root (network namespaces). usage:
  Benchmarks/shaped_upload_benchmark.py [--megabytes N] [--mbit N] [--rtt-ms N [N...]] [--chunk-mb N] [--rounds N]
"""
import argparse, os, shutil, statistics, subprocess, sys, tempfile, threading, time

import shaped_link
from upload_benchmark import PY, ROOT, S3_KEY, S3_SECRET, TUSPY, random_file, release_pickup, sha, weed_command

import figures as figure_output

HERE = os.path.dirname(os.path.abspath(__file__))


def wait_inside(url):
    for _ in range(300):
        if subprocess.run(shaped_link.inside(["curl", "-s", "-k", "-o", "/dev/null", url])).returncode == 0:
            return
        time.sleep(0.1)
    sys.exit(f"shaped_upload_benchmark: {url} did not answer inside the namespace")


def certificate(work):
    """A CA and a certificate for INSIDE_IP that it signed: (ca, cert, key)."""
    ca, ca_key = os.path.join(work, "ca.pem"), os.path.join(work, "ca.key")
    cert, key, request = os.path.join(work, "cert.pem"), os.path.join(work, "cert.key"), os.path.join(work, "cert.csr")
    quiet = dict(check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", ca_key, "-out", ca,
                    "-days", "2", "-subj", "/CN=Pickup benchmark CA"], **quiet)
    subprocess.run(["openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", request,
                    "-subj", f"/CN={shaped_link.INSIDE_IP}"], **quiet)
    extensions = os.path.join(work, "san.cnf")
    with open(extensions, "w") as handle:
        handle.write(f"subjectAltName=IP:{shaped_link.INSIDE_IP}\n")
    subprocess.run(["openssl", "x509", "-req", "-in", request, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial",
                    "-out", cert, "-days", "2", "-extfile", extensions], **quiet)
    return ca, cert, key


def timed(command, env=None, during=None, lines=None):
    """Seconds a command took; `during()` runs beside it (the cuts). Each line the command
    writes to stderr is added to `lines` as (seconds since the start, line) as it comes."""
    started = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if during:
        threading.Thread(target=during, daemon=True).start()
    err = []

    def read_errors():
        for line in process.stderr:
            err.append(line)
            if lines is not None:
                lines.append((time.perf_counter() - started, line))
    reader = threading.Thread(target=read_errors, daemon=True)
    reader.start()
    out = process.stdout.read()
    process.wait()
    reader.join()
    if process.returncode != 0:
        sys.exit(f"shaped_upload_benchmark: {command[0]} failed: {(out + ''.join(err))[-600:]}")
    return time.perf_counter() - started


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--megabytes", type=int, default=48)
    parser.add_argument("--mbit", type=int, default=20)
    parser.add_argument("--rtt-ms", type=int, nargs="+", default=[40, 150])
    parser.add_argument("--chunk-mb", type=int,
                        help="every tool's chunk/part size (default: each tool's own, as every tool runs with its "
                             "defaults: pickup's tus chunks from 8 MB doubling up to 64, tuspy's one PATCH, 8 MB parts)")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each tool, taking turns; figures are medians")
    parser.add_argument("--cuts-only", action="store_true", help="only the cuts (and the clean tus runs they need)")
    parser.add_argument("--only", nargs="+", help="only the tools whose names contain one of these words; no cuts")
    parser.add_argument("--json", help="write the figures there, for scripts/bench.sh")
    parser.add_argument("--part-concurrency", type=int,
                        help="S3 parts pickup sends at once (default: pickup's own, as every tool runs with its defaults)")
    args = parser.parse_args()
    if os.geteuid() != 0:
        sys.exit("shaped_upload_benchmark: needs root (it makes a network namespace)")
    pickup = release_pickup()
    work = tempfile.mkdtemp(prefix="pickup-shaped-")
    servers = []
    try:
        shaped_link.create(args.mbit)
        source = os.path.join(work, "movie.bin")
        size, want = random_file(source, args.megabytes)
        ca, cert, key = certificate(work)
        python = os.path.join(PY, "python")
        # Servers inside the namespace, on its own 127.0.0.1: tus over http, tus over https, S3.
        tus_dir, tls_dir, s3_dir = (os.path.join(work, name) for name in ("tus", "tus-tls", "s3"))
        for folder in (tus_dir, tls_dir, s3_dir):
            os.makedirs(folder)
        script = os.path.join(ROOT, "Tests/Servers/tus_server.py")
        servers.append(subprocess.Popen(shaped_link.inside([python, script, "--port", "7001", "--dir", tus_dir]),
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        servers.append(subprocess.Popen(shaped_link.inside([python, script, "--port", "7002", "--dir", tls_dir,
                                                            "--certificate", cert, "--key", key]),
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        servers.append(subprocess.Popen(shaped_link.inside(weed_command(s3_dir, 7003, [7004, 7005, 7006, 7007, 7008])),
                                        cwd=s3_dir, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        wait_inside("http://127.0.0.1:7001/health")
        wait_inside("https://127.0.0.1:7002/health")
        wait_inside("http://127.0.0.1:7004/buckets/bench/")
        env = dict(os.environ, AWS_ACCESS_KEY_ID=S3_KEY, AWS_SECRET_ACCESS_KEY=S3_SECRET,
                   AWS_DEFAULT_REGION="us-east-1", AWS_CA_BUNDLE=ca, REQUESTS_CA_BUNDLE=ca, HOME=work)
        if args.chunk_mb:
            subprocess.run([os.path.join(PY, "aws"), "configure", "set", "default.s3.multipart_chunksize",
                            f"{max(5, args.chunk_mb)}MB"], env=env, check=True)
        tus_chunk = ["--chunk-size", str(args.chunk_mb)] if args.chunk_mb else []
        s3_part = ["--chunk-size", str(max(5, args.chunk_mb))] if args.chunk_mb else []
        tuspy_chunk = str(args.chunk_mb << 20) if args.chunk_mb else str(sys.maxsize)  # tuspy's default
        parts = ["--part-concurrency", str(args.part_concurrency)] if args.part_concurrency else []
        link = args.mbit * 1e6 / 8
        journal = os.path.join(work, "journal.sqlite")
        print(f"file: {size / 1e6:.0f} MB; link: {args.mbit} Mbit/s ({link / 1e6:.2f} MB/s) each way; "
              + (f"chunks/parts of {args.chunk_mb} MB\n" if args.chunk_mb else "each tool's own chunks and parts\n"))
        print(f"{'RTT':>6} {'scheme':6} {'tool':22} {'seconds':>8} {'MB/s':>6} {'of link':>8}")
        timings = {}
        found = []
        for rtt in args.rtt_ms:
            for scheme in ("http", "https"):
                tls = (cert, key) if scheme == "https" else None
                tus = shaped_link.LatencyProxy(7002 if tls else 7001, rtt)  # tus ends its TLS itself
                s3 = shaped_link.LatencyProxy(7003, rtt, certificate=tls)
                tus_url = f"{scheme}://{shaped_link.INSIDE_IP}:{tus.port}/files"
                s3_url = f"{scheme}://{shaped_link.INSIDE_IP}:{s3.port}"
                tools = [
                    ("pickup upload (tus)", [pickup, "upload", source, "--to", "tus+" + tus_url, "--journal", journal,
                                             *tus_chunk, "--ca-file", ca, "--force", "--json"]),
                    ("tuspy", [python, "-c", TUSPY, tus_url + "/", source, tuspy_chunk]),
                    ("pickup upload (S3)", [pickup, "upload", source, "--to", "s3://bench/pickup/", "--endpoint",
                                            s3_url, "--journal", journal, *s3_part, "--ca-file", ca, "--force", "--json",
                                            *parts]),
                    ("aws s3 cp", [os.path.join(PY, "aws"), "s3", "cp", source, "s3://bench/aws/movie.bin",
                                   "--endpoint-url", s3_url, "--only-show-errors"]),
                ]
                tools = [(name, command) for name, command in tools
                         if not (args.cuts_only and (rtt != args.rtt_ms[0] or name != "pickup upload (tus)"))
                         and not (args.only and not any(word in name for word in args.only))]
                if not tools:
                    continue
                runs = {name: [] for name, _ in tools}
                # Rounds take turns, each starting one tool further on: none always runs first.
                for round_number in range(args.rounds):
                    for name, command in tools[round_number % len(tools):] + tools[:round_number % len(tools)]:
                        seconds = timed(command, env=env)
                        runs[name].append(seconds)
                        print(f"{rtt:>4}ms {scheme:6} {name:22} {seconds:8.2f} {size / seconds / 1e6:6.2f} "
                              f"{size / seconds / link * 100:7.1f}%", flush=True)
                for name, times in runs.items():
                    timings[(rtt, scheme, name)] = statistics.median(times)
        megabytes = f"{size / 1e6:.0f} MB, {args.mbit} Mbit/s"
        # The README's short table shows the phone's usual case (the first link, over https); BENCHMARKS.md all.
        readme = (args.rtt_ms[0], "https")
        rounds = f"; medians of {args.rounds} rounds" if args.rounds > 1 else ""
        for (rtt, scheme, name), seconds in timings.items():
            share = size / seconds / link * 100
            if name == "pickup upload (tus)":
                found.append(figure_output.figure(
                    f"tus upload {megabytes} at {rtt} ms RTT, {scheme}", "the link's rate", f"{share:.0f}% of it",
                    "≥ 90%", share >= 90, f"pickup {seconds:.2f} s; tuspy {timings.get((rtt, scheme, 'tuspy'), 0):.2f} s{rounds}",
                    brief=(rtt, scheme) == readme))
            if name == "pickup upload (S3)" and (rtt, scheme, "aws s3 cp") in timings:
                aws = timings[(rtt, scheme, "aws s3 cp")]
                found.append(figure_output.figure(
                    f"S3 upload {megabytes} at {rtt} ms RTT, {scheme}", "`aws s3 cp`; the link's rate",
                    f"{aws / seconds:.2f}x; {share:.0f}% of it", "≥ 1x; ≥ 90%", aws / seconds >= 1 and share >= 90,
                    f"pickup {seconds:.2f} s, aws s3 cp {aws:.2f} s{rounds}", brief=(rtt, scheme) == readme))
        # Cuts on the first link: three resets, then three silent links, at even times through a run.
        rtt = args.rtt_ms[0]
        if args.only:
            figure_output.write(args.json, found)
            return
        print(f"\ncuts on the {rtt} ms link (pickup upload, tus): seconds lost per cut against the clean run")
        change = shaped_link.AddressChange()
        for scheme in ("http", "https"):
            proxy = shaped_link.LatencyProxy(7002 if scheme == "https" else 7001, rtt)
            url = f"tus+{scheme}://{shaped_link.INSIDE_IP}:{proxy.port}/files"
            # Not --json: the retry lines on stderr say when Pickup noticed each cut.
            command = [pickup, "upload", source, "--to", url, "--journal", journal, *tus_chunk,
                       "--ca-file", ca, "--force", "--no-progress"]
            clean = timings[(rtt, scheme, "pickup upload (tus)")]
            kinds = (("reset", proxy.cut), ("silent", lambda: proxy.lose_open_connections(change)),
                     ("frozen", proxy.go_silent))
            for kind, act in kinds:
                started, acted, lines = time.perf_counter(), [], []

                def cuts():
                    for moment in (0.25, 0.5, 0.75):
                        time.sleep(clean * 0.25)
                        acted.append(time.perf_counter() - started)
                        act()
                seconds = timed(command, env=env, during=cuts, lines=lines)
                # When Pickup said so: its first "retrying" line after each cut.
                noticed = []
                for moment in acted:
                    said = [at for at, line in lines if "retrying" in line and at > moment - 0.05]
                    noticed.append(f"{said[0] - moment:.1f}" if said else "-")
                if kind == "silent":
                    lost = (seconds - clean) / 3
                    found.append(figure_output.figure(
                        f"a silent link, {rtt} ms RTT, {scheme}", "—", f"{lost:.1f} s lost a cut", "< 6 s", lost < 6,
                        f"noticed after {', '.join(noticed)} s", brief=False))
                print(f"  {scheme:6} 3 x {kind:7} {seconds:7.2f} s against {clean:.2f} s clean: "
                      f"{(seconds - clean) / 3:5.2f} s lost per cut; said so after {', '.join(noticed)} s",
                      flush=True)
        stored = [os.path.join(folder, name) for folder in (tus_dir, tls_dir) for name in os.listdir(folder)
                  if not name.endswith(".info") and os.path.isfile(os.path.join(folder, name))]
        intact = all(sha(path) == want for path in stored)
        print(f"\nevery tus copy ({len(stored)}) equals the file: {intact}")
        figure_output.write(args.json, found)
    finally:
        for server in servers:
            server.kill()
        shaped_link.remove()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
