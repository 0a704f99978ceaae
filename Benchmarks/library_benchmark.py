#!/usr/bin/env python3
"""Library benchmark: a camera roll's worth of photos in one library, timed as a user meets it.

Makes COUNT unique JPEGs of about 70 KB (one seed photo, 64 random bytes after its EOI
each), imports them into a new library, then times, each with `/usr/bin/time`-like wall
clock and the median of --rounds runs:

  pickup library DIR list           every item, one query
  pickup library DIR verify         every stored file read and hashed
  sha256sum FILES                   the peer of verify: the same files hashed
  verify and sha256sum, cold        the same two with the page cache emptied before
                                    each run (as root; a library larger than memory)
  pickup import SRC --into DIR      again, everything already there
  ... --rehash                      again, every source read and hashed to decide
  cp -r SRC DST && sync             the peer of the first import

usage: Benchmarks/library_benchmark.py [--count N,N...] [--rounds N] [--keep]
"""
import argparse, os, random, shutil, statistics, subprocess, time
from settle import settle

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def make_jpeg(work):
    path = os.path.join(work, "seed.jpg")
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                    "testsrc2=size=1600x1200", "-frames:v", "1", "-q:v", "7", path], check=True)
    with open(path, "rb") as handle:
        return handle.read()


def timed(command, cwd=None):
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=cwd)
    return time.perf_counter() - started


def median(command, rounds, cwd=None, before=None):
    times = []
    for _ in range(rounds):
        if before:
            before()
        settle()
        times.append(timed(command, cwd))
    return statistics.median(times)


def drop_caches():
    """Empties the page cache (root only), so the next command reads from the disk."""
    subprocess.run(["sync"], check=True)
    with open("/proc/sys/vm/drop_caches", "w") as handle:
        handle.write("3\n")


def can_drop_caches():
    try:
        drop_caches()
        return True
    except OSError:
        return False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", default="2500,10000")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--keep", action="store_true", help="keep the photos and libraries")
    args = parser.parse_args()

    subprocess.run(["swift", "build", "-c", "release", "--product", "pickup"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    pickup = os.path.join(ROOT, ".build", "release", "pickup")
    work = os.path.join(ROOT, "Benchmarks", "work", "library")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    jpeg = make_jpeg(work)
    rng = random.Random(26)
    cold = can_drop_caches()
    if not cold:
        print("not root: the cold verify rows (page cache emptied first) are left out")
    print(f"{'items':>7} {'command':34} {'seconds':>8} {'peer':>8}  peer")
    for count in [int(x) for x in args.count.split(",") if x]:
        photos = os.path.join(work, f"photos{count}")
        os.makedirs(photos)
        for number in range(count):
            with open(os.path.join(photos, f"IMG_{number:05d}.JPG"), "wb") as handle:
                handle.write(jpeg + rng.randbytes(64))
        library = os.path.join(work, f"library{count}")
        copy = os.path.join(work, f"copy{count}")
        settle()
        first = timed([pickup, "import", photos, "--into", library])
        cp = median(["sh", "-c", f"cp -r '{photos}' '{copy}' && sync"], args.rounds,
                    before=lambda: shutil.rmtree(copy, ignore_errors=True))
        shutil.rmtree(copy, ignore_errors=True)
        listing = median([pickup, "library", library, "list"], args.rounds)
        verify = median([pickup, "library", library, "verify"], args.rounds)
        names = sorted(name for name in os.listdir(library) if not name.startswith("."))
        # sha256sum over the same stored files, named relative to the library (short argument lists).
        sha = median(["sh", "-c", "ls | grep -v '^\\.' | xargs sha256sum > /dev/null"], args.rounds, cwd=library)
        if cold:
            # The same two from the disk, the page cache emptied before each run: a library
            # larger than the memory is read like this, and a warm figure beside a cold one
            # compares the cache, not the tools.
            verify_cold = median([pickup, "library", library, "verify"], args.rounds, before=drop_caches)
            sha_cold = median(["sh", "-c", "ls | grep -v '^\\.' | xargs sha256sum > /dev/null"], args.rounds,
                              cwd=library, before=drop_caches)
        again = median([pickup, "import", photos, "--into", library], args.rounds)
        rehash = median([pickup, "import", photos, "--into", library, "--rehash"], args.rounds)
        assert len(names) == count, f"{len(names)} files in the library, {count} imported"
        print(f"{count:>7} {'pickup import (new library)':34} {first:8.2f} {cp:8.2f}  cp -r && sync")
        print(f"{count:>7} {'pickup library DIR list':34} {listing:8.2f}")
        print(f"{count:>7} {'pickup library DIR verify':34} {verify:8.2f} {sha:8.2f}  sha256sum"
              f" ({verify / sha:.2f}x)")
        if cold:
            print(f"{count:>7} {'pickup library DIR verify (cold)':34} {verify_cold:8.2f} {sha_cold:8.2f}"
                  f"  sha256sum, cold ({verify_cold / sha_cold:.2f}x)")
        print(f"{count:>7} {'pickup import again (all there)':34} {again:8.2f}")
        print(f"{count:>7} {'pickup import again --rehash':34} {rehash:8.2f} {sha:8.2f}  sha256sum of the library")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
