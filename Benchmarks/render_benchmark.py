#!/usr/bin/env python3
"""Render benchmark: Pickup's thumbnails and exports against the tools a user
would run instead, on the same files, in one run (each timing the median of
--rounds runs, the machine settled before each).

  video thumbnails   pickup thumb VIDEOS --at T        vs  a loop of ffmpeg -ss T -i F -frames:v 1 -vf scale=...
  JPEG thumbnails    pickup thumb JPEGS                vs  vipsthumbnail JPEGS, and a loop of convert -thumbnail
  HEIC thumbnails    pickup thumb HEICS                vs  vipsthumbnail HEICS, and a loop of convert -thumbnail
  passthrough        pickup export --preset passthrough vs pickup export --preset 1280x720 (re-encoding)
  re-encode          pickup export --preset 1280x720   vs  ffmpeg with the same x264 settings

Media are made here: 1920x1080 H.264 videos with AAC, 4032x3024 JPEGs, and
4032x3024 HEICs with a 320-pixel embedded thumbnail (as an iPhone writes).

usage: Benchmarks/render_benchmark.py [--videos N] [--seconds S] [--photos N] [--rounds N] [--media DIR]
"""
import argparse, os, shutil, statistics, subprocess, sys, tempfile, time

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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--videos", type=int, default=6)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--photos", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--media", help="keep the made media in this folder and reuse them next time")
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
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
