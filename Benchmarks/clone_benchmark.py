#!/usr/bin/env python3
"""Clone benchmark: `pickup import` of a large movie where the library's file system can share
blocks (XFS, reflinks through copy_file_range), against a full copy of the same file.

Makes an XFS image (a loop device: needs root and mkfs.xfs), writes one movie of --mb MB
(a real MP4 and a `free` box of random bytes) on it, then, each round:

  pickup import  onto the same XFS       a reflink: no bytes move, no new blocks
  cp --reflink=always && sync            the kernel's own clone, the floor
  pickup import  into an ext4 folder     a full copy, hashed and flushed, as everywhere else

and prints each one's time, the reflink's share of the full copy's, and the XFS's used
space (df) before and after the reflinked import. The APFS path on Apple platforms
(fclonefileat) is the same idea; it is compiled here (scripts/check-ios.sh), not run.

usage: sudo Benchmarks/clone_benchmark.py [--mb 2048] [--rounds 3] [--json PATH]
"""
import argparse, os, random, shutil, statistics, subprocess, sys, time

import figures

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(*command, **options):
    return subprocess.run(command, check=True, stdout=subprocess.PIPE, text=True, **options).stdout


def timed(command):
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def used_kb(mount):
    return int(run("df", "--output=used", "-k", mount).split()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=int, default=2048)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", help="write the figures there, for scripts/bench.sh")
    args = parser.parse_args()
    if os.geteuid() != 0 or not shutil.which("mkfs.xfs"):
        sys.exit("clone_benchmark: needs root (a loop mount) and mkfs.xfs (scripts/setup.sh installs xfsprogs)")
    subprocess.run(["swift", "build", "-c", "release", "--product", "pickup"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    pickup = os.path.join(ROOT, ".build", "release", "pickup")
    work = os.path.join(ROOT, "Benchmarks", "work", "clone")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    image, mount = os.path.join(work, "xfs.img"), os.path.join(work, "xfs")
    os.makedirs(mount)
    run("truncate", "-s", f"{args.mb * 3 + 512}M", image)
    run("mkfs.xfs", "-q", image)
    run("mount", "-o", "loop", image, mount)
    try:
        seed = os.path.join(work, "seed.mp4")
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                        "testsrc2=size=640x360:rate=30:duration=2", "-c:v", "libx264", "-preset", "ultrafast",
                        "-pix_fmt", "yuv420p", "-movflags", "+faststart", seed], check=True)
        prefix = open(seed, "rb").read()
        source_folder = os.path.join(mount, "DCIM")
        os.makedirs(source_folder)
        source = os.path.join(source_folder, "MOVIE.MP4")
        rng = random.Random(7)
        size = args.mb << 20
        with open(source, "wb") as handle:
            handle.write(prefix + size.to_bytes(4, "big") + b"free")
            left = size - 8
            while left > 0:
                chunk = min(left, 8 << 20)
                handle.write(rng.randbytes(chunk))
                left -= chunk
        run("sync")
        total = os.path.getsize(source)
        rows = {"pickup import (XFS, reflink)": [], "cp --reflink=always && sync": [],
                "pickup import (ext4, full copy)": []}
        grew = []
        for _ in range(args.rounds):
            library = os.path.join(mount, "Library")
            before = used_kb(mount)
            rows["pickup import (XFS, reflink)"].append(timed([pickup, "import", source, "--into", library]))
            run("sync")
            grew.append(used_kb(mount) - before)
            shutil.rmtree(library)
            clone = os.path.join(mount, "clone.mp4")
            rows["cp --reflink=always && sync"].append(
                timed(["sh", "-c", f"cp --reflink=always '{source}' '{clone}' && sync"]))
            os.remove(clone)
            ext4 = os.path.join(work, "ext4-library")
            rows["pickup import (ext4, full copy)"].append(timed([pickup, "import", source, "--into", ext4]))
            shutil.rmtree(ext4)
            run("sync")
        full = statistics.median(rows["pickup import (ext4, full copy)"])
        print(f"one movie of {total / 1e6:.0f} MB, {args.rounds} rounds, medians")
        print(f"{'tool':34} {'seconds':>8} {'share of full copy':>19}")
        for tool, times in rows.items():
            median = statistics.median(times)
            print(f"{tool:34} {median:8.3f} {median / full * 100:18.1f}%   (runs: "
                  + ", ".join(f"{t:.3f}" for t in times) + ")")
        print(f"XFS used space grew by {statistics.median(grew)} KB per reflinked import "
              f"(runs: {', '.join(str(g) for g in grew)}) for a {total >> 10} KB file")
        reflink = statistics.median(rows["pickup import (XFS, reflink)"])
        figures.write(args.json, [figures.figure(
            f"import {total / 1e9:.2f} GB onto XFS (reflink)", "a full copy", f"{reflink / full * 100:.0f}% of its time",
            "< 5%", reflink / full < 0.05,
            f"reflink {reflink:.2f} s, full copy {full:.2f} s, {statistics.median(grew)} KB of new space")])
    finally:
        subprocess.run(["umount", mount])


if __name__ == "__main__":
    main()
