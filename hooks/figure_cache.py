"""MkDocs hook: keep the site's rendered figures in ``.cache/figures`` between builds.

Sets ``POSENC_FIGURE_CACHE`` (unless already set; set it to an empty string to turn the cache
off) before any page runs its code, so ``posenc.plots`` reuses an SVG whose digest (the figure's
whole pickled state, alt text, rcParams, matplotlib version, renderer source) is unchanged. The
notebook kernel inherits the variable. Entries not used for 30 days are removed after a build.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KEEP_DAYS = 30


def on_config(config):
    os.environ.setdefault("POSENC_FIGURE_CACHE", str(ROOT / ".cache" / "figures"))
    return config


def on_post_build(config):
    folder = os.environ.get("POSENC_FIGURE_CACHE")
    if not folder or not Path(folder).is_dir():
        return
    cutoff = time.time() - KEEP_DAYS * 86400
    for entry in Path(folder).glob("*.svg"):
        try:
            if entry.stat().st_mtime < cutoff:
                entry.unlink()
        except OSError:
            pass
