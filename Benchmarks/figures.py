#!/usr/bin/env python3
"""Figures: what each benchmark hands to scripts/bench.sh, and the table it writes.

A benchmark run with `--json PATH` writes its figures there, a list of objects:

  task     what was measured ("video thumbnails at 5 s, exact frame")
  peer     what it was measured against ("a loop of ffmpeg -ss 5 -i F -frames:v 1")
  pickup   the figure as a person reads it ("2.3x", "94% of it")
  target   the figure it should reach ("≥ 2x"), or "" when there is none
  met      whether it does (true, false, or null when there is no target)
  detail   the times behind it ("pickup 0.61 s, ffmpeg 1.42 s, median of 3 rounds")
  brief    whether a shorter table (the README's) shows it too

`figures.py table --runs DIR... --markdown FILE...` gathers the figures of every run
(each run folder holds one JSON file a benchmark and `run.json`: date, commit, mode;
a benchmark in several runs: the last one's),
prints one table and writes it into each FILE between `<!-- bench:begin -->` and
`<!-- bench:end -->`. Rows of benchmarks not run this time keep what they said.
"""
import argparse, json, os, re, sys

BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"
# The order of the table: the benchmarks in the order of Pickup's pipeline.
ORDER = ["probe", "import", "clone", "render", "upload", "shaped_upload", "many_files"]
ROW = re.compile(r"^\| (?P<task>[^|]+?) \| (?P<peer>[^|]*?) \|")


def write(path, figures):
    """Writes a benchmark's figures (a list of dicts as above) to `path` (when given)."""
    if not path:
        return
    with open(path + ".part", "w") as handle:
        json.dump(figures, handle, indent=1, ensure_ascii=False)
    os.replace(path + ".part", path)


def figure(task, peer, pickup, target="", met=None, detail="", brief=True):
    """One figure; `brief`: whether the README's shorter table shows it too."""
    return {"task": task, "peer": peer, "pickup": pickup, "target": target, "met": met, "detail": detail,
            "brief": brief}


def rows(run):
    """The figures of one run folder, each with the run's date, commit and mode."""
    with open(os.path.join(run, "run.json")) as handle:
        facts = json.load(handle)
    found = []
    for name in sorted(os.listdir(run)):
        if name == "run.json" or not name.endswith(".json"):
            continue
        with open(os.path.join(run, name)) as handle:
            for item in json.load(handle):
                found.append(dict(item, benchmark=name[:-5], **facts))
    return found


def cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def line(row, brief=False):
    if brief:  # ✓ met, ✗ not met
        met = {True: "✓", False: "**✗**", None: ""}[row["met"]]
        target = f"{row['target']} {met}" if row["target"] else "—"
    else:
        met = {True: "met", False: "**not met**", None: "—"}[row["met"]]
        target = f"{row['target']} ({met})" if row["target"] else "—"
    date = row["date"][5:] if brief else row["date"]  # brief: the year is in the text above
    measured = f"{date} `{row['commit']}`{' quick' if row['mode'] == 'quick' else ''}"
    return (f"| {cell(row['task'])} | {cell(row['peer'])} | **{cell(row['pickup'])}** | {cell(target)} | {measured}"
            f" <!-- {row['benchmark']} --> |")


def block(lines):
    header = ["| Task | Peer | Pickup | Target | Measured |", "|---|---|---|---|---|"]
    return "\n".join([BEGIN, *header, *lines, END])


def existing(path):
    """The text of `path` and the table rows between its markers, in order."""
    with open(path) as handle:
        text = handle.read()
    if BEGIN not in text or END not in text:
        sys.exit(f"figures: {path} has no {BEGIN} ... {END} markers")
    inside = text.split(BEGIN, 1)[1].split(END, 1)[0]
    return text, [row for row in inside.splitlines() if ROW.match(row) and not row.startswith("| Task |")]


def table(runs, markdown, details, brief):
    # A benchmark in several runs: the last run given speaks for it.
    latest = {}
    for run in runs:
        found = rows(run)
        for name in {row["benchmark"] for row in found}:
            latest[name] = [row for row in found if row["benchmark"] == name]
    fresh = [row for name in latest for row in latest[name]]
    print(f"{'task':46} {'peer':40} {'pickup':>22} {'target':>10}  measured")
    for row in fresh:
        met = {True: "met", False: "NOT met", None: ""}[row["met"]]
        print(f"{row['task'][:46]:46} {row['peer'][:40]:40} {row['pickup'][:22]:>22} {row['target']:>10} {met:7} "
              f"{row['date']} {row['commit']} {row['mode']}")
        if row["detail"]:
            print(f"    {row['detail']}")
    benchmarks = {row["benchmark"] for row in fresh}
    for path in markdown:
        text, kept = existing(path)
        shown = [dict(row, pickup=f"{row['pickup']} ({row['detail']})") if path in details and row["detail"] else row
                 for row in fresh]
        if path in brief:  # only the figures that have a target and are meant for it
            shown = [row for row in shown if row["target"] and row.get("brief", True)]
        fresh_lines = [line(row, path in brief) for row in shown]
        merged = merge(kept, shown, fresh_lines, benchmarks)
        new = text.split(BEGIN, 1)[0] + block(merged) + text.split(END, 1)[1]
        with open(path + ".part", "w") as handle:
            handle.write(new)
        os.replace(path + ".part", path)
        print(f"figures: wrote {len(merged)} rows into {path}", file=sys.stderr)


def merge(kept, fresh, fresh_lines, benchmarks):
    """The old rows in their order, each benchmark's rows replaced where that benchmark ran
    (its new rows where its first old row was), and new benchmarks' rows at the end."""
    by_benchmark = {}
    for row, text in zip(fresh, fresh_lines):
        by_benchmark.setdefault(row["benchmark"], []).append(text)
    merged, placed = [], set()
    for old in kept:
        name = tag(old)
        if name in benchmarks:
            if name not in placed:
                merged.extend(by_benchmark.get(name, []))
                placed.add(name)
            continue
        merged.append(old)
    for name, texts in by_benchmark.items():
        if name not in placed:
            merged.extend(texts)
    return sorted(merged, key=lambda text: ORDER.index(tag(text)) if tag(text) in ORDER else len(ORDER))


def tag(text):
    """The benchmark a table row came from (its `<!-- name -->`), or None."""
    found = re.search(r"<!-- ([a-z_]+) -->", text)
    return found[1] if found else None


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    command = sub.add_parser("table")
    command.add_argument("--runs", nargs="+", required=True, help="run folders (run.json and one JSON a benchmark)")
    command.add_argument("--markdown", nargs="*", default=[], help="files whose marked table to write")
    command.add_argument("--details", nargs="*", default=[], help="of those, the ones whose rows carry the times")
    command.add_argument("--brief", nargs="*", default=[],
                         help="of those, the ones that show only figures with a target, dated without the year")
    args = parser.parse_args()
    table(args.runs, args.markdown, set(args.details), set(args.brief))


if __name__ == "__main__":
    main()
