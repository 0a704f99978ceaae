#!/usr/bin/env python3
"""Probe benchmark: Pickup against its peers on the same files, in one run.

Copies the shared corpus (generated/ and real/) COPIES times into a batch
folder, warms the page cache, then times over the whole batch:

  pickup probe --json -r BATCH
  exiftool -j -fast -r BATCH
  mediainfo --Output=JSON BATCH
  ffprobe -show_format -show_streams, one process a file (on a sample,
  scaled to the batch: a loop over thousands of files takes minutes)

and prints each tool's time, files per second and Pickup's speed-up. It also
checks that Pickup agrees with the manifests on every field, with the
manifests' tolerances, for every copy of every file.

usage: Benchmarks/probe_benchmark.py [--copies N] [--ffprobe-sample N] [--corpus DIR] [--json PATH]
"""
import argparse, json, os, shutil, subprocess, sys, time

import figures

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOLERANCE = {"duration": 0.05, "latitude": 0.0001, "longitude": 0.0001, "altitude": 0.5}


def run(command, **kwargs):
    kwargs.setdefault("check", False)
    return subprocess.run(command, **kwargs)


def timed(command, stdout=subprocess.DEVNULL):
    started = time.perf_counter()
    result = run(command, stdout=stdout, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started, result


def peak_rss_kb(command):
    result = run(["/usr/bin/time", "-f", "%M", *command], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        return int(result.stderr.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None


def agrees(name, want, have):
    if have is None:
        return False
    if isinstance(want, bool) or isinstance(want, str):
        return want == have
    if name == "frameRate":
        return abs(want - have) <= want * 0.01
    return abs(want - have) <= TOLERANCE.get(name, 0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--copies", type=int, default=60)
    parser.add_argument("--ffprobe-sample", type=int, default=200)
    parser.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus"))
    parser.add_argument("--json", help="write the figures there, for scripts/bench.sh")
    args = parser.parse_args()

    corpus = os.path.abspath(args.corpus)
    if not os.path.isdir(os.path.join(corpus, "generated")):
        sys.exit(f"probe_benchmark: no corpus at {corpus} (pass --corpus DIR)")
    manifests = {}
    for part in ("generated", "real"):
        with open(os.path.join(corpus, part, "manifest.json")) as handle:
            for name, facts in json.load(handle).items():
                if not name.startswith("_"):
                    manifests[os.path.join(part, name)] = facts

    print("building pickup (release)...", file=sys.stderr)
    run(["swift", "build", "-c", "release", "--product", "pickup"], cwd=ROOT, stdout=subprocess.DEVNULL, check=True)
    pickup = os.path.join(ROOT, ".build", "release", "pickup")

    batch = os.path.join(ROOT, "Benchmarks", "work", "batch")
    shutil.rmtree(batch, ignore_errors=True)
    files = []
    for copy in range(args.copies):
        for relative in sorted(manifests):
            source = os.path.join(corpus, relative)
            target = os.path.join(batch, f"copy{copy:03d}", relative)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(source, target)
            files.append((target, relative))
    total_bytes = sum(os.path.getsize(path) for path, _ in files)
    for path, _ in files:  # warm the page cache for every tool alike
        with open(path, "rb") as handle:
            while handle.read(1 << 20):
                pass
    print(f"batch: {len(files)} files, {total_bytes / 1e6:.0f} MB ({args.copies} copies of the corpus)\n")

    results = {}
    pickup_out = os.path.join(ROOT, "Benchmarks", "work", "pickup.jsonl")
    with open(pickup_out, "w") as out:
        results["pickup probe --json"], _ = timed([pickup, "probe", "--json", "--recursive", batch], stdout=out)
    # exiftool and mediainfo use one core; so does this run of pickup.
    results["pickup, one core"], _ = timed(["taskset", "-c", "0", pickup, "probe", "--json", "--recursive", batch])
    results["exiftool -j -fast"], _ = timed(["exiftool", "-j", "-fast", "-r", "-q", batch])
    results["mediainfo --Output=JSON"], _ = timed(["mediainfo", "--Output=JSON", batch])
    sample = files[:: max(1, len(files) // args.ffprobe_sample)][: args.ffprobe_sample]
    started = time.perf_counter()
    for path, _ in sample:
        run(["ffprobe", "-v", "error", "-show_format", "-show_streams", "-of", "json", path],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    results["ffprobe loop (scaled)"] = (time.perf_counter() - started) * len(files) / len(sample)

    base = results["pickup probe --json"]
    print(f"{'tool':28} {'seconds':>9} {'files/s':>10} {'pickup is':>10}")
    for tool, seconds in results.items():
        speed = f"{seconds / base:.1f}x" if tool != "pickup probe --json" else "-"
        print(f"{tool:28} {seconds:9.2f} {len(files) / seconds:10.0f} {speed:>10}")
    rss = peak_rss_kb([pickup, "probe", "--json", "--recursive", batch])
    if rss:
        print(f"\npickup peak memory over the batch: {rss / 1024:.1f} MB")

    # Agreement with the manifests, for every copy of every file.
    checked = mismatched = 0
    problems = []
    with open(pickup_out) as handle:
        by_path = {}
        for line in handle:
            record = json.loads(line)
            if "path" in record:
                by_path[os.path.abspath(record["path"])] = record
    for path, relative in files:
        facts = manifests[relative]
        record = by_path.get(os.path.abspath(path), {})
        if facts.get("kind") == "invalid":
            checked += 1
            if "error" not in record:
                mismatched += 1
                problems.append(f"{relative}: should fail")
            continue
        if "error" in record:
            if not facts.get("hostile"):
                mismatched += 1
                problems.append(f"{relative}: {record['error'].get('message')}")
            continue
        for name, want in facts.items():
            if name in ("why", "hostile"):
                continue
            checked += 1
            if not agrees(name, want, record.get(name)):
                mismatched += 1
                problems.append(f"{relative}: {name} {record.get(name)!r} != {want!r}")
    print(f"agreement with the manifests: {checked - mismatched}/{checked} fields")
    for problem in sorted(set(problems))[:20]:
        print("  " + problem)
    one = results["pickup, one core"]
    print(f"\none core against one core: {results['exiftool -j -fast'] / one:.1f}x exiftool, "
          f"{results['mediainfo --Output=JSON'] / one:.1f}x mediainfo")
    mi, ex = results["mediainfo --Output=JSON"] / base, results["exiftool -j -fast"] / base
    print(f"\ntargets: >= 10x mediainfo ({'met' if mi >= 10 else 'NOT met'}: {mi:.1f}x), "
          f">= 20x exiftool ({'met' if ex >= 20 else 'NOT met'}: {ex:.1f}x), every field agreeing "
          f"({'met' if mismatched == 0 else 'NOT met'})")
    batch_text = f"{len(files):,} files"
    agreement = f"{checked - mismatched:,}/{checked:,} fields agree"
    figures.write(args.json, [
        figures.figure(f"probe {batch_text}", "exiftool -fast", f"{ex:.0f}x", "≥ 20x", ex >= 20,
                       f"pickup {base:.2f} s, exiftool {results['exiftool -j -fast']:.2f} s; {agreement}"),
        figures.figure(f"probe {batch_text}", "mediainfo", f"{mi:.0f}x", "≥ 10x", mi >= 10,
                       f"pickup {base:.2f} s, mediainfo {results['mediainfo --Output=JSON']:.2f} s"),
        figures.figure(f"probe {batch_text}, agreement", "the corpus manifests", agreement, "all",
                       mismatched == 0, brief=False),
    ])
    shutil.rmtree(batch, ignore_errors=True)


if __name__ == "__main__":
    main()
