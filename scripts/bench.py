"""Benchmark: the table builder against the usual code, and the site's time and size budgets.

Usage: python scripts/bench.py [--quick] [--skip-site]      (or `make bench`)

Prints one Markdown table:
- building float32 tables of 8192 x 1024 and 2048 x 512 with `posenc.encode` (rotation builder),
  the tutorial formula in float32 (PyTorch, as in the PyTorch tutorial, and the same in NumPy),
  and float64-then-cast (direct NumPy); variants run round-robin in one process so they share the
  machine's noise, in a rotating order so each follows every other equally often; median of all repetitions with the 10th-90th percentile range, speed-up of
  posenc over each, and the max error against a float64 table;
- cold `mkdocs build --strict` time, the full test run as `make test` does it (the strict build
  included), the rebuild time under
  `mkdocs serve` after a one-line edit to a chapter, and the transferred size of each page
  (HTML plus the CSS, JS and images it loads from site/).
Budgets (2-core machine): tests <= 180 s (issue 33: pytest from a warm venv), cold build <= 30 s, rebuild <= 5 s, page <= 400 KB.
A benchmark, not a test: other processes on the machine change the numbers.
"""

from __future__ import annotations

import argparse
import json
import datetime
import gzip
import html.parser
import math
import os
import platform
import queue
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import posenc  # noqa: E402

BUDGETS = {"tests": 180.0, "build": 30.0, "rebuild": 5.0, "page_kb": 400.0}
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "MPLBACKEND": "Agg"}


# ----------------------------------------------------------------------------- table builders
def tutorial_torch(n, d):
    import torch

    position = torch.arange(n).unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d, 2) * (-math.log(10000.0) / d))
    pe = torch.zeros(n, d)
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term)
    return pe


def tutorial_numpy(n, d):
    position = np.arange(n, dtype=np.float32)[:, None]
    div_term = np.exp(np.arange(0, d, 2, dtype=np.float32) * np.float32(-math.log(10000.0) / d))
    pe = np.zeros((n, d), dtype=np.float32)
    angle = position * div_term
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe


def float64_then_cast(n, d):
    theta = np.multiply.outer(np.arange(n, dtype=np.float64), posenc.frequencies(d))
    pe = np.empty((n, d), dtype=np.float32)
    pe[:, 0::2] = np.sin(theta)
    pe[:, 1::2] = np.cos(theta)
    return pe


def posenc_encode(n, d):
    return posenc.encode(n, d, dtype="float32")


VARIANTS = {
    "posenc.encode (rotation)": posenc_encode,
    "tutorial fp32 (torch)": tutorial_torch,
    "tutorial fp32 (numpy)": tutorial_numpy,
    "float64 then cast (numpy)": float64_then_cast,
}


def bench_builders(sizes, repeats):
    rows = []
    for n, d in sizes:
        reference = np.empty((n, d))
        theta = np.multiply.outer(np.arange(n, dtype=np.float64), posenc.frequencies(d))
        reference[:, 0::2], reference[:, 1::2] = np.sin(theta), np.cos(theta)
        errors = {}
        for name, build in VARIANTS.items():
            table = np.asarray(build(n, d), dtype=np.float64)   # also a warm-up
            errors[name] = float(np.abs(table - reference).max())
        del reference, theta
        times = {name: [] for name in VARIANTS}
        names = list(VARIANTS)
        for rep in range(repeats):
            # Round-robin, starting one variant later each time, so every variant follows every
            # other equally often: whichever runs right after the float64 builder finds the
            # caches flushed, and a fixed order would hand that cost to one of them.
            for name in names[rep % len(names):] + names[:rep % len(names)]:
                t0 = time.perf_counter()
                VARIANTS[name](n, d)
                times[name].append(time.perf_counter() - t0)
        ours = np.median(times["posenc.encode (rotation)"])
        for name in VARIANTS:
            t = np.array(times[name]) * 1e3
            rows.append((f"{n} x {d}", name, np.median(t), np.percentile(t, 10),
                         np.percentile(t, 90), np.median(times[name]) / ours, errors[name]))
    return rows


# ----------------------------------------------------------------------------- site timings
def timed(cmd, env=None):
    t0 = time.perf_counter()
    run = subprocess.run(cmd, cwd=ROOT, env={**ENV, **(env or {})}, capture_output=True,
                         text=True)
    elapsed = time.perf_counter() - t0
    if run.returncode != 0:
        print(run.stdout[-2000:], run.stderr[-2000:], file=sys.stderr)
        raise SystemExit(f"failed: {' '.join(cmd)}")
    return elapsed


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rebuild_time(chapter: Path, timeout=120.0):
    """Start `mkdocs serve --dirty` (as `make serve` does), wait for its first build, add one line to a chapter, and time until
    the rebuild's "Documentation built" log line; the chapter is restored afterwards."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "--dirty", "--dev-addr",
                             f"127.0.0.1:{port}"],
                            cwd=ROOT, env={**ENV, "POSENC_STRICT": "false"}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(x) for x in proc.stdout], daemon=True).start()

    def wait_for(text, deadline):
        while time.perf_counter() < deadline:
            try:
                line = lines.get(timeout=0.05)
            except queue.Empty:
                continue
            if text in line:
                return time.perf_counter()
        raise SystemExit(f"mkdocs serve: no {text!r} within {timeout} s")

    original = chapter.read_text()
    try:
        wait_for("Serving on", time.perf_counter() + timeout)
        time.sleep(1.0)                                  # let the watcher settle
        t0 = time.perf_counter()
        chapter.write_text(original + "\n")
        t1 = wait_for("Documentation built", t0 + timeout)
        return t1 - t0
    finally:
        chapter.write_text(original)
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


class _Assets(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.urls = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "link" and "stylesheet" in (a.get("rel") or "") and a.get("href"):
            self.urls.append(a["href"])
        elif tag in ("script", "img") and a.get("src"):
            self.urls.append(a["src"])


def page_sizes(site: Path, compressed: bool = False):
    """Bytes a first visit loads for each page: the HTML and every local CSS/JS/image it
    references (outside URLs are not counted; the site makes none). With ``compressed``, the
    bytes a gzip-serving static host transfers (level 6, what nginx and most hosts use)."""
    def weight(path: Path) -> int:
        data = path.read_bytes()
        return len(gzip.compress(data, 6)) if compressed else len(data)

    sizes = {}
    for page in sorted(site.rglob("index.html")):
        parser = _Assets()
        parser.feed(page.read_text(errors="replace"))
        total = weight(page)
        for url in dict.fromkeys(parser.urls):
            if "://" in url or url.startswith("data:"):
                continue
            target = (page.parent / url.split("?")[0].split("#")[0]).resolve()
            if target.is_file():
                total += weight(target)
        sizes[str(page.relative_to(site).parent) or "."] = total
    return sizes


def machine_description() -> str:
    """CPU model, core count and library versions, for a recorded benchmark."""
    import torch

    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"{model}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
            f"NumPy {np.__version__}, PyTorch {torch.__version__}")


# ----------------------------------------------------------------------------- report
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repetitions")
    ap.add_argument("--skip-site", action="store_true", help="only the table builders")
    ap.add_argument("--record", type=Path, metavar="JSON",
                    help="also write the builder table, with date and machine, to this file "
                         "(the precision chapter renders docs/data/bench-builders.json)")
    args = ap.parse_args(argv)
    repeats = 8 if args.quick else 28                     # multiples of the 4 variants

    print(f"posenc benchmark, {datetime.date.today()}, {platform.machine()}, "
          f"{os.cpu_count()} CPUs, Python {platform.python_version()}, NumPy {np.__version__}")
    print()
    print("| table | method | median ms | p10-p90 ms | posenc speed-up | max abs error |")
    print("|---|---|---|---|---|---|")
    rows = bench_builders([(8192, 1024), (2048, 512)], repeats)
    for size, name, med, p10, p90, ratio, err in rows:
        print(f"| {size} | {name} | {med:.1f} | {p10:.1f}-{p90:.1f} | {ratio:.2f}x | {err:.1e} |")
    if args.record:
        record = {
            "date": str(datetime.date.today()),
            "machine": machine_description(),
            "repeats": repeats,
            "rows": [dict(zip(("table", "method", "median_ms", "p10_ms", "p90_ms",
                               "time_vs_posenc", "max_abs_error"),
                              (size, name, round(float(med), 2), round(float(p10), 2),
                               round(float(p90), 2), round(float(ratio), 3), float(err))))
                     for size, name, med, p10, p90, ratio, err in rows],
        }
        args.record.parent.mkdir(parents=True, exist_ok=True)
        args.record.write_text(json.dumps(record, indent=1) + "\n")
        print(f"recorded in {args.record}")
    print()
    print("Errors are against a float64 table (itself within 1e-10 of exact up to 8192);"
          " half a float32 ulp is 2.98e-08.")
    if args.skip_site:
        return 0

    print()
    print("| site measure | value | budget | met |")
    print("|---|---|---|---|")
    site = ROOT / "site"
    build_cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", "--clean",
                 "--site-dir", str(site)]
    shutil.rmtree(ROOT / ".cache" / "figures", ignore_errors=True)     # as in a fresh clone
    build = timed(build_cmd)
    print(f"| cold `mkdocs build --strict` (empty figure cache) | {build:.1f} s | "
          f"{BUDGETS['build']:.0f} s | {'yes' if build <= BUDGETS['build'] else 'NO'} |")
    warm = timed(build_cmd)
    print(f"| the same build again (figures from .cache/figures) | {warm:.1f} s | "
          f"{BUDGETS['build']:.0f} s | {'yes' if warm <= BUDGETS['build'] else 'NO'} |")
    sizes = page_sizes(site)
    transferred = page_sizes(site, compressed=True)
    # What `make test` runs: every test, the strict build (into site/) among them.
    tests = timed([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2",
                   "--dist", "loadfile"], env={"POSENC_BUILD": "always", "POSENC_SCREENSHOTS": "0"})
    print(f"| full test run (`make test`: build + every test) | {tests:.1f} s | "
          f"{BUDGETS['tests']:.0f} s | {'yes' if tests <= BUDGETS['tests'] else 'NO'} |")
    chapter = sorted((ROOT / "docs" / "chapters").glob("*.md"))[0]
    rebuild = rebuild_time(chapter)
    print(f"| rebuild under `mkdocs serve` after a one-line edit to {chapter.name} | "
          f"{rebuild:.1f} s | {BUDGETS['rebuild']:.0f} s | "
          f"{'yes' if rebuild <= BUDGETS['rebuild'] else 'NO'} |")
    for page, size in sizes.items():
        kb, gz = size / 1024, transferred[page] / 1024
        print(f"| page `{page}/`: transferred gzip (uncompressed) | {gz:.0f} KB ({kb:.0f} KB) | "
              f"{BUDGETS['page_kb']:.0f} KB | {'yes' if gz <= BUDGETS['page_kb'] else 'NO'} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
