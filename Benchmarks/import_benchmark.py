#!/usr/bin/env python3
"""Import benchmark: `pickup import` against `cp` on the same files, same disk, one run.

Makes sets of LARGE valid movies (a real MP4 followed by a `free` box of
random bytes, so nothing is sparse and nothing repeats; one set per size in
--large-mb) and SMALL unique JPEGs, warms the page cache, then copies each set
with:

  cp -r SRC DST                 the baseline (no fsync, no hash)
  cp -r SRC DST && sync         the same, made durable like Pickup's copies
  pickup import SRC --into DST  hashing (SHA-256) and fsync per file, catalog

and prints throughput, the ratio to cp, and Pickup's peak memory. It also
measures the disk's own write speed (`dd oflag=direct`, no page cache): no
copy that is on the disk when it ends can beat it, whatever `cp` reports.

usage: Benchmarks/import_benchmark.py [--large N] [--large-mb MB,MB...] [--small N]
                                      [--parallel N] [--rounds N] [--json PATH] [--work DIR]
"""
import argparse, os, random, shutil, subprocess, sys, time
import figures
from settle import settle


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def make_movie_prefix(work):
    path = os.path.join(work, "seed.mp4")
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                    "testsrc2=size=640x360:rate=30:duration=2", "-c:v", "libx264", "-preset", "ultrafast",
                    "-pix_fmt", "yuv420p", "-movflags", "+faststart", path], check=True)
    with open(path, "rb") as handle:
        return handle.read()


def make_jpeg(work):
    path = os.path.join(work, "seed.jpg")
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                    "testsrc2=size=1024x768", "-frames:v", "1", path], check=True)
    with open(path, "rb") as handle:
        return handle.read()


def timed(command):
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def peak_rss_mb(command):
    result = subprocess.run(["/usr/bin/time", "-f", "%M", *command], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, check=True)
    return int(result.stderr.strip().splitlines()[-1]) / 1024


def disk_write_speed(work, folder):
    """Bytes per second the disk takes with the page cache out of the way: the
    first file of `folder` written with O_DIRECT, 4 MB at a time, then synced."""
    source = os.path.join(folder, sorted(os.listdir(folder))[0])
    target = os.path.join(work, "dd-target")
    subprocess.run(["sync"], check=True)
    blocks = os.path.getsize(source) // (4 << 20)  # whole blocks only: direct writes take no partial one
    seconds = timed(["sh", "-c", f"dd if='{source}' of='{target}' bs=4M count={blocks} iflag=fullblock"
                                 f" oflag=direct && sync"])
    size = os.path.getsize(target)
    os.remove(target)
    return size / seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--large", type=int, default=3)
    parser.add_argument("--large-mb", default="512,2048", help="size of each large file, one set per size")
    parser.add_argument("--small", type=int, default=1000)
    parser.add_argument("--parallel", type=int, default=2, help="pickup import --parallel")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", help="write the figures there, for scripts/bench.sh")
    parser.add_argument("--work", help="the folder to make the files and copies in (default Benchmarks/work/import): "
                        "a file system to measure, such as a fresh ext4 with its journal")
    args = parser.parse_args()
    found = []

    subprocess.run(["swift", "build", "-c", "release", "--product", "pickup"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    pickup = os.path.join(ROOT, ".build", "release", "pickup")
    work = os.path.abspath(args.work) if args.work else os.path.join(ROOT, "Benchmarks", "work", "import")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    rng = random.Random(7)

    sets = {}
    prefix = make_movie_prefix(work)
    for megabytes in [int(x) for x in args.large_mb.split(",") if x]:
        name = f"{args.large}x{megabytes}MB"
        large = os.path.join(work, name)
        os.makedirs(large)
        size = megabytes << 20
        for number in range(args.large):
            with open(os.path.join(large, f"movie{number}.mp4"), "wb") as handle:
                handle.write(prefix)
                handle.write(size.to_bytes(4, "big") + b"free")
                left = size - 8
                while left > 0:
                    chunk = min(left, 8 << 20)
                    handle.write(rng.randbytes(chunk))
                    left -= chunk
        sets[name] = (large, args.large, args.large * (len(prefix) + size))
    small = os.path.join(work, "small")
    os.makedirs(small)
    jpeg = make_jpeg(work)
    for number in range(args.small):
        with open(os.path.join(small, f"IMG_{number:04d}.JPG"), "wb") as handle:
            handle.write(jpeg + rng.randbytes(64))  # bytes after EOI: unique content, still a JPEG
    if args.small:  # --small 0: the large files alone
        sets["small"] = (small, args.small, args.small * (len(jpeg) + 64))

    disk = disk_write_speed(work, next(iter(sets.values()))[0])
    print(f"disk write speed, no page cache (dd oflag=direct): {disk / 1e6:.0f} MB/s")
    print(f"{'set':12} {'tool':16} {'seconds':>8} {'MB/s':>8} {'vs cp':>7} {'vs cp+sync':>11}")
    for name, (source, count, total) in sets.items():
        for root, _, files in os.walk(source):  # warm the cache for every tool alike
            for file in files:
                with open(os.path.join(root, file), "rb") as handle:
                    while handle.read(8 << 20):
                        pass
        subprocess.run(["sync"], check=True)
        # Rounds, tools taking turns; each figure is the median of its rounds (the disk is noisy).
        target = os.path.join(work, f"cp-{name}")
        library = os.path.join(work, f"pickup-{name}")
        commands = {
            "cp -r": (["cp", "-r", source, target], target),
            "cp -r && sync": (["sh", "-c", f"cp -r '{source}' '{target}' && sync"], target),
            "pickup import": ([pickup, "import", source, "--into", library, "--parallel", str(args.parallel)], library),
        }
        rounds = {tool: [] for tool in commands}
        # The order turns each round: on this kind of machine a run is slower right after
        # another tool's output was deleted (freed memory and disk blocks go back to the
        # host), and that should not fall on the same tool every time.
        # Many small files are not deleted between runs but all at the end, each run writing a
        # folder of its own: on ext4 without a journal (this machine's disk) a new file skips
        # every inode freed in the last 30 seconds (the kernel's `recently_deleted`), so whoever
        # ran right after a thousand files were deleted paid up to 10x (`cp -r` 0.09 s, then
        # 1.1 s) — a cost no camera roll meets, which decided the ratio instead of the tools.
        tools = list(commands)
        keep = name == "small"
        kept = []
        for round_number in range(args.rounds):
            for tool in tools[round_number % 3:] + tools[:round_number % 3]:
                command, output = commands[tool]
                if keep:
                    suffix = f"-{tools.index(tool)}-{round_number}"
                    command = [part.replace(output, output + suffix) for part in command]
                    output += suffix
                settle()
                rounds[tool].append(timed(command))
                if keep:
                    kept.append(output)
                else:
                    shutil.rmtree(output)
                    subprocess.run(["sync"], check=True)
        for output in kept:
            shutil.rmtree(output)
        subprocess.run(["sync"], check=True)
        results = {tool: sorted(times)[len(times) // 2] for tool, times in rounds.items()}
        memory = peak_rss_mb([pickup, "import", source, "--into", library, "--parallel", str(args.parallel)])
        shutil.rmtree(library)
        for tool, seconds in results.items():
            ratio = results["cp -r"] / seconds
            durable = results["cp -r && sync"] / seconds
            print(f"{name:12} {tool:16} {seconds:8.2f} {total / seconds / 1e6:8.0f} {ratio:6.2f}x {durable:10.2f}x")
        durable = results["cp -r && sync"] / results["pickup import"]
        label = f"{count:,} × {total / count / 1e6:.2f} MB" if name == "small" else f"{count} × {total / count / 1e6:,.0f} MB"
        large = name != "small"
        found.append(figures.figure(
            f"import {label}, durable", "`cp -r && sync`", f"{durable:.2f}x", "≥ 0.9x" if large else "",
            durable >= 0.9 if large else None,
            f"pickup {results['pickup import']:.2f} s ({total / results['pickup import'] / 1e6:,.0f} MB/s), "
            f"cp -r && sync {results['cp -r && sync']:.2f} s, disk {disk / 1e6:,.0f} MB/s, "
            f"median of {args.rounds} rounds, peak {memory:.0f} MB"))
        print(f"{name:12} {count} files, {total / 1e6:.0f} MB; pickup peak memory {memory:.1f} MB;"
              f" every run (s): " + "; ".join(f"{tool} " + " ".join(f"{t:.2f}" for t in times)
                                             for tool, times in rounds.items()))
    shutil.rmtree(work, ignore_errors=True)
    figures.write(args.json, found)


if __name__ == "__main__":
    sys.exit(main())
