#!/usr/bin/env python3
"""Two builds of `pickup import` and `cp -r && sync` taking turns on one folder of small photos.

For a change to the import's per-file costs: each run writes a folder of its own (none is
removed until the end: on ext4 without a journal a file made right after many were deleted
skips every inode freed in the last 30 seconds, and that would fall on whoever ran next),
the machine settles before each, and the median of the rounds is printed.

usage: Benchmarks/import_builds.py OLD_PICKUP NEW_PICKUP [--small N] [--rounds N]
"""
import argparse, os, random, shutil, subprocess, sys, time
from settle import settle

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--small", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    work = os.path.join(ROOT, "Benchmarks", "work", "import-builds")
    shutil.rmtree(work, ignore_errors=True)
    source = os.path.join(work, "small")
    os.makedirs(source)
    seed = os.path.join(work, "seed.jpg")
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                    "testsrc2=size=1024x768", "-frames:v", "1", seed], check=True)
    jpeg = open(seed, "rb").read()
    rng = random.Random(7)
    for number in range(args.small):
        with open(os.path.join(source, f"IMG_{number:04d}.JPG"), "wb") as handle:
            handle.write(jpeg + rng.randbytes(64))  # bytes after EOI: unique content, still a JPEG
    tools = {"old": [args.old, "import", source, "--into"], "new": [args.new, "import", source, "--into"],
             "cp -r && sync": None}
    times = {tool: [] for tool in tools}
    for round_number in range(args.rounds):
        for tool, command in tools.items():
            output = os.path.join(work, f"out-{len(times[tool])}-{list(tools).index(tool)}")
            settle()
            started = time.perf_counter()
            if command:
                subprocess.run(command + [output], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            else:
                subprocess.run(["sh", "-c", f"cp -r '{source}' '{output}' && sync"], check=True)
            times[tool].append(time.perf_counter() - started)
    for tool, runs in times.items():
        print(f"{tool:14} median {sorted(runs)[len(runs) // 2]:.2f} s; runs " + " ".join(f"{t:.2f}" for t in runs))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
