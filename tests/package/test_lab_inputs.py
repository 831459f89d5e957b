"""The lab's records hash posenc/lab's code, not the posenc modules its models call. These tests
hold what the models take from those modules (scripts/lab_inputs.py) to the values the records
were trained with (docs/data/lab-inputs.json)."""

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("lab_inputs", ROOT / "scripts" / "lab_inputs.py")
lab_inputs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lab_inputs)

TOLERANCE = 1e-9


def test_what_the_lab_trains_with_from_posenc_is_what_the_records_trained_with():
    recorded = json.loads(lab_inputs.FILE.read_text())
    changed = {k: v for k, v in lab_inputs.differences(recorded, lab_inputs.fingerprint()).items()
               if v > TOLERANCE}
    assert not changed, (f"posenc's values used by the lab changed: {changed}; re-record with "
                         "`make lab`, then `python scripts/lab_inputs.py --write`")


def test_every_scheme_is_known_to_the_fingerprint():
    """A new scheme may take something else from posenc: it must be added to sizes()."""
    from posenc.lab.table_axes import EXPERIMENTS
    from posenc.lab import lm
    schemes = {c.scheme for e in EXPERIMENTS.values()
               for c in (e.configs.values() if isinstance(e.configs, dict) else e.configs)}
    schemes |= {c.scheme for c in lm.CONFIGS.values()}
    assert schemes <= {"alibi", "index", "index-same", "index/L", "learned", "none", "rope",
                       "sinusoid", "sinusoid-concat"}, schemes
    assert {"sinusoid", "sinusoid-concat", "rope", "alibi"} <= schemes


@pytest.mark.parametrize("change", ["base", "one float32 step", "slopes"])
def test_the_check_fails_when_a_value_changes(monkeypatch, change):
    import posenc.encoding as encoding
    import posenc.relative as relative
    if change == "base":
        old = encoding.encode
        monkeypatch.setattr(encoding, "encode", lambda n, d: old(n, d, base=10001.0))
    elif change == "one float32 step":
        old = encoding.encode

        def nudged(n, d):
            t = np.asarray(old(n, d), dtype=np.float32).copy()
            t[-1, -1] = np.nextafter(t[-1, -1], np.float32(2))
            return t
        monkeypatch.setattr(encoding, "encode", nudged)
    else:
        old_slopes = relative.alibi_slopes
        monkeypatch.setattr(relative, "alibi_slopes", lambda h: old_slopes(2 * h)[::2])
    recorded = json.loads(lab_inputs.FILE.read_text())
    d = lab_inputs.differences(recorded, lab_inputs.fingerprint())
    assert max(d.values()) > TOLERANCE
