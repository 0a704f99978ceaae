"""What the benchmarks share: letting the machine settle between timed runs."""
import os, subprocess, time

# The longest wait, in seconds (BENCH_SETTLE_SECONDS; 60 unless told): on a machine shared
# with other work the machine is never idle, and each run would wait the whole minute.
LONGEST = float(os.environ.get("BENCH_SETTLE_SECONDS", "60"))


def cpu_times():
    with open("/proc/stat") as handle:
        fields = [int(x) for x in handle.readline().split()[1:]]
    return fields[3] + fields[4], sum(fields)


def settle():
    """Flushes the disk and waits (up to LONGEST seconds) until the machine has been idle for
    a second: a server may go on working after it answered (tuspyserver does after a
    whole-file PATCH), which would slow whichever tool runs next."""
    subprocess.run(["sync"])
    quiet = 0
    for _ in range(max(1, int(LONGEST * 4))):
        idle0, total0 = cpu_times()
        time.sleep(0.25)
        idle1, total1 = cpu_times()
        quiet = quiet + 1 if total1 > total0 and (idle1 - idle0) / (total1 - total0) > 0.9 else 0
        if quiet >= 4:
            return
