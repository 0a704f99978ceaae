#!/usr/bin/env python3
"""Render benchmark: Pickup's thumbnails and exports against the tools a user
would run instead, on the same files, in one run (each timing the median of
--rounds runs, the machine settled before each).

  video thumbnails   pickup thumb VIDEOS --at T        vs  a loop of ffmpeg -ss T -i F -frames:v 1 -vf scale=...
  JPEG thumbnails    pickup thumb JPEGS                vs  vipsthumbnail JPEGS, and a loop of convert -thumbnail
  HEIC thumbnails    pickup thumb HEICS                vs  vipsthumbnail HEICS, and a loop of convert -thumbnail
  passthrough        pickup export --preset passthrough vs pickup export --preset 1280x720 (re-encoding)
  re-encode          pickup export --preset 1280x720   vs  ffmpeg with the same x264 settings

Media are made here: 1920x1080 H.264 videos with AAC (B-frames, a keyframe every 2 s),
4032x3024 JPEGs, and 4032x3024 HEICs with a 320-pixel embedded thumbnail (as an iPhone
writes).

Then it checks that `pickup thumb --exact` gives ffmpeg's frame: for each video, the mean
pixel difference (0-255) over the middle of the picture, at full size, between Pickup's
frame and ffmpeg's at T, and between Pickup's and the frames before and after ffmpeg's.
The frame is the same when the first is small and the nearest of the three by a margin
(below 3/4 of the others: the rest is the two tools' own YUV-to-RGB conversions).

usage: Benchmarks/render_benchmark.py [--videos N] [--seconds S] [--photos N] [--rounds N] [--media DIR]
                                      [--json PATH]
"""
import argparse, os, shutil, statistics, subprocess, sys, tempfile, time

import figures
from settle import settle

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FF = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y"]


def run(commands):
    """Runs commands one after another; returns seconds and the highest peak memory (MB)."""
    settle()
    started = time.perf_counter()
    peak = 0.0
    for command in commands:
        result = subprocess.run(["/usr/bin/time", "-f", "%M", *command], stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True)
        if result.returncode != 0:
            sys.exit(f"render_benchmark: {command[0]} failed: {result.stderr[-400:]}")
        peak = max(peak, int(result.stderr.strip().splitlines()[-1]) / 1024)
    return time.perf_counter() - started, peak


def make_media(work, videos, seconds, photos):
    """Makes the media (or keeps what an earlier run with --media made)."""
    paths = {"videos": [], "jpegs": [], "heics": []}
    for index in range(videos):
        path = os.path.join(work, f"video-{index}-{seconds}s.mp4")
        paths["videos"].append(path)
        if os.path.exists(path):
            continue
        subprocess.run(FF + ["-f", "lavfi", "-i", f"testsrc2=size=1920x1080:rate=30:duration={seconds},noise=alls=8:allf=t",
                             "-f", "lavfi", "-i", f"sine=frequency={300 + index * 40}:duration={seconds}",
                             "-c:v", "libx264", "-preset", "veryfast", "-g", "60", "-pix_fmt", "yuv420p", "-crf", "23",
                             "-c:a", "aac", "-shortest", path + ".part.mp4"], check=True)
        os.rename(path + ".part.mp4", path)
    for index in range(photos):
        jpeg, heic = os.path.join(work, f"photo-{index}.jpg"), os.path.join(work, f"photo-{index}.heic")
        paths["jpegs"].append(jpeg)
        paths["heics"].append(heic)
        if os.path.exists(jpeg) and os.path.exists(heic):
            continue
        png = os.path.join(work, f"photo-{index}.png")
        subprocess.run(FF + ["-f", "lavfi", "-i", f"testsrc2=size=4032x3024,noise=alls={8 + index}:allf=t",
                             "-frames:v", "1", png], check=True)
        subprocess.run(FF + ["-i", png, "-q:v", "3", jpeg], check=True)
        subprocess.run(["heif-enc", "-q", "50", "-t", "320", "-o", heic + ".part", png], check=True,
                       stdout=subprocess.DEVNULL)
        os.rename(heic + ".part", heic)
        os.remove(png)
    return paths


def middle_pixels(path, width=320, height=180):
    """The middle WIDTHxHEIGHT pixels of an image or a video's first frame, as RGB bytes."""
    return subprocess.run(FF + ["-i", path, "-frames:v", "1", "-vf", f"crop={width}:{height}", "-f", "rawvideo",
                                "-pix_fmt", "rgb24", "-"], check=True, stdout=subprocess.PIPE).stdout


def difference(a, b):
    """The mean absolute difference of two byte strings of one length, 0-255."""
    return sum(abs(x - y) for x, y in zip(a, b)) / max(1, len(a))


def exactness(pickup, videos, at, rate, work):
    """For each video: Pickup's --exact frame at AT against ffmpeg's frames at AT and one frame
    before and after (full size, PNG, no scaling); the differences (same, before, after)."""
    folder = os.path.join(work, "exact")
    os.makedirs(folder, exist_ok=True)
    found = []
    for index, video in enumerate(videos):
        ours = os.path.join(folder, f"{index}-pickup.png")
        subprocess.run([pickup, "thumb", video, "--at", at, "--exact", "--size", "1920x1080", "--fit", "--format",
                        "png", "--force", "-o", ours], check=True, stdout=subprocess.DEVNULL)
        mine = middle_pixels(ours)
        row = []
        for offset in (0, -1, 1):
            theirs = os.path.join(folder, f"{index}-ffmpeg{offset}.png")
            # The frame before: the first at or after 1.5 frames before; the one after: half a frame after.
            shift = (offset - 0.5) / rate if offset else 0
            subprocess.run(FF + ["-ss", f"{float(at) + shift:.6f}", "-i", video, "-frames:v", "1", theirs],
                           check=True)
            row.append(difference(mine, middle_pixels(theirs)))
        found.append(row)
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--videos", type=int, default=6)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--photos", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--media", help="keep the made media in this folder and reuse them next time")
    parser.add_argument("--json", help="write the figures there, for scripts/bench.sh")
    args = parser.parse_args()
    for product in ("pickup", "pickup-render"):  # pickup thumb/export hand over to pickup-render
        subprocess.run(["swift", "build", "-c", "release", "--product", product], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    pickup = os.path.join(ROOT, ".build", "release", "pickup")
    work = tempfile.mkdtemp(prefix="pickup-render-bench-")
    out = os.path.join(work, "out")
    try:
        if args.media:
            os.makedirs(args.media, exist_ok=True)
        media = make_media(args.media or work, args.videos, args.seconds, args.photos)
        at = str(args.seconds / 2)
        size = "320x320"
        video_one = media["videos"][0]

        def fresh():
            shutil.rmtree(out, ignore_errors=True)
            os.makedirs(out)
            return out

        cases = {
            "video thumbnails": [
                ("pickup thumb (keyframe)", lambda: [[pickup, "thumb", *media["videos"], "--at", at, "--size", size, "--fit", "-o", fresh()]]),
                ("pickup thumb --exact", lambda: [[pickup, "thumb", *media["videos"], "--at", at, "--size", size, "--fit", "--exact", "-o", fresh()]]),
                ("ffmpeg -ss loop", lambda: [FF + ["-ss", at, "-i", v, "-frames:v", "1", "-vf",
                                                   "scale=320:320:force_original_aspect_ratio=decrease",
                                                   os.path.join(fresh() if i == 0 else out, f"{i}.jpg")]
                                             for i, v in enumerate(media["videos"])]),
            ],
            "JPEG thumbnails": [
                ("pickup thumb", lambda: [[pickup, "thumb", *media["jpegs"], "--size", size, "--fit", "-o", fresh()]]),
                ("vipsthumbnail", lambda: [["vipsthumbnail", *media["jpegs"], "-s", size, "-o", fresh() + "/%s.jpg"]]),
                ("convert -thumbnail loop", lambda: [["convert", p, "-thumbnail", size, os.path.join(fresh() if i == 0 else out, f"{i}.jpg")]
                                                     for i, p in enumerate(media["jpegs"])]),
            ],
            "HEIC thumbnails": [
                ("pickup thumb", lambda: [[pickup, "thumb", *media["heics"], "--size", size, "--fit", "-o", fresh()]]),
                ("vipsthumbnail", lambda: [["vipsthumbnail", *media["heics"], "-s", size, "-o", fresh() + "/%s.jpg"]]),
                ("convert -thumbnail loop", lambda: [["convert", p, "-thumbnail", size, os.path.join(fresh() if i == 0 else out, f"{i}.jpg")]
                                                     for i, p in enumerate(media["heics"])]),
            ],
            "export": [
                ("pickup export passthrough", lambda: [[pickup, "export", video_one, "--preset", "passthrough", "-o", fresh() + "/p.mp4"]]),
                ("pickup export 1280x720", lambda: [[pickup, "export", video_one, "--preset", "1280x720", "-o", fresh() + "/e.mp4"]]),
                ("ffmpeg, same x264 settings", lambda: [FF + ["-i", video_one, "-vf", "scale=1280:720:flags=bicubic", "-c:v", "libx264",
                                                              "-preset", "fast", "-crf", "21", "-maxrate", "6M", "-bufsize", "12M",
                                                              "-pix_fmt", "yuv420p", "-c:a", "copy", "-movflags", "+faststart",
                                                              fresh() + "/f.mp4"]]),
            ],
        }
        results = {}
        for _ in range(args.rounds):
            for case, tools in cases.items():
                for name, commands in tools:
                    seconds, peak = run(commands())
                    entry = results.setdefault((case, name), ([], 0.0))
                    entry[0].append(seconds)
                    results[(case, name)] = (entry[0], max(entry[1], peak))
        median = {key: statistics.median(value[0]) for key, value in results.items()}
        print(f"{args.videos} videos 1920x1080 {args.seconds} s, {args.photos} JPEGs and {args.photos} HEICs 4032x3024, "
              f"box {size}, median of {args.rounds} rounds\n")
        print(f"{'case':18} {'tool':30} {'seconds':>8} {'peak MB':>8}")
        for (case, name), (_, peak) in results.items():
            print(f"{case:18} {name:30} {median[(case, name)]:8.3f} {peak:8.1f}")
        m = lambda case, name: median[(case, name)]
        print()
        print(f"video thumbnails: ffmpeg loop / pickup = {m('video thumbnails', 'ffmpeg -ss loop') / m('video thumbnails', 'pickup thumb (keyframe)'):.2f}x "
              f"(exact: {m('video thumbnails', 'ffmpeg -ss loop') / m('video thumbnails', 'pickup thumb --exact'):.2f}x)   target >= 2x")
        for kind in ("JPEG", "HEIC"):
            case = f"{kind} thumbnails"
            print(f"{kind}: pickup / vipsthumbnail time = {m(case, 'pickup thumb') / m(case, 'vipsthumbnail'):.2f}x (target <= 1.5x)   "
                  f"convert / pickup = {m(case, 'convert -thumbnail loop') / m(case, 'pickup thumb'):.2f}x (target >= 3x)")
        print(f"passthrough: re-encode / passthrough = {m('export', 'pickup export 1280x720') / m('export', 'pickup export passthrough'):.1f}x (target >= 20x)")
        print(f"re-encode: pickup / ffmpeg time = {m('export', 'pickup export 1280x720') / m('export', 'ffmpeg, same x264 settings'):.2f}x (target <= 1.1x)")
        checks = exactness(pickup, media["videos"], at, 30, work)
        # The same frame: the nearest of the three by a margin (the rest of the difference is the two
        # tools' own YUV-to-RGB conversions, alike for all three).
        same = sum(1 for d, before, after in checks if d < 2 and d < 0.75 * min(before, after))
        print(f"exact frame: pickup --exact gives ffmpeg's frame at {at} s in {same}/{len(checks)} videos "
              "(mean pixel difference: that frame / the one before / the one after): "
              + ", ".join(f"{d:.2f}/{b:.2f}/{a:.2f}" for d, b, a in checks))
        rounds = f"median of {args.rounds} rounds"
        loop = m("video thumbnails", "ffmpeg -ss loop")
        exact, keyframe = m("video thumbnails", "pickup thumb --exact"), m("video thumbnails", "pickup thumb (keyframe)")
        worst = max(d for d, _, _ in checks)
        n = f"{args.videos} × 1080p"
        found = [
            figures.figure(f"video thumbnails at {float(at):g} s, exact frame ({n})", f"`ffmpeg -ss {float(at):g}` loop",
                           f"{loop / exact:.2f}x", "≥ 2x", loop / exact >= 2 and same == len(checks),
                           f"pickup --exact {exact:.3f} s, ffmpeg {loop:.3f} s, {rounds}; ffmpeg's frame in "
                           f"{same}/{len(checks)} (pixel difference ≤ {worst:.2f})"),
            figures.figure(f"video thumbnails at {float(at):g} s, default ({n})", f"`ffmpeg -ss {float(at):g}` loop",
                           f"{loop / keyframe:.2f}x", detail=f"pickup {keyframe:.3f} s, ffmpeg {loop:.3f} s, {rounds}"),
        ]
        for kind in ("JPEG", "HEIC"):
            case = f"{kind} thumbnails"
            pickup_time, vips, convert = m(case, "pickup thumb"), m(case, "vipsthumbnail"), m(case, "convert -thumbnail loop")
            found.append(figures.figure(
                f"{kind} thumbnails ({args.photos} × 12 MP)", "vipsthumbnail", f"{pickup_time / vips:.2f}x its time",
                "≤ 1.5x", pickup_time / vips <= 1.5, f"pickup {pickup_time:.3f} s, vipsthumbnail {vips:.3f} s, {rounds}"))
            found.append(figures.figure(
                f"{kind} thumbnails ({args.photos} × 12 MP)", "`convert` loop", f"{convert / pickup_time:.1f}x",
                "≥ 3x", convert / pickup_time >= 3, f"pickup {pickup_time:.3f} s, convert {convert:.3f} s, {rounds}",
                brief=False))
        passthrough, encode = m("export", "pickup export passthrough"), m("export", "pickup export 1280x720")
        ffmpeg_encode = m("export", "ffmpeg, same x264 settings")
        found.append(figures.figure("export passthrough", "pickup's own re-encode", f"{encode / passthrough:.0f}x",
                                    "≥ 20x", encode / passthrough >= 20,
                                    f"passthrough {passthrough:.3f} s, re-encode {encode:.3f} s, {rounds}"))
        found.append(figures.figure("export re-encode to 720p", "ffmpeg, same x264 settings",
                                    f"{encode / ffmpeg_encode:.2f}x its time", "≤ 1.1x", encode / ffmpeg_encode <= 1.1,
                                    f"pickup {encode:.3f} s, ffmpeg {ffmpeg_encode:.3f} s, {rounds}"))
        figures.write(args.json, found)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
