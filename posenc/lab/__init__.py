"""The lab: small Transformers trained here to settle claims about what a trained model does with
positions (chapter "What does a trained model do with the encoding?").

- :mod:`posenc.lab.model`: a tiny Transformer whose position scheme is one argument;
- :mod:`posenc.lab.schemes`: the position schemes, one registry entry each;
- :mod:`posenc.lab.tasks`: seeded synthetic tasks;
- :mod:`posenc.lab.run`: one run, config in, metrics out;
- :mod:`posenc.lab.checks`: the verdict check, one figure per seed against a threshold;
- :mod:`posenc.lab.table` and :mod:`posenc.lab.table_axes`: the experiments, their configs and
  checks;
- :mod:`posenc.lab.record`: the code hash, the runs and the records in ``docs/data/lab/``;
- :mod:`posenc.lab.experiments`: all of these by their older address;
- :mod:`posenc.lab.baseline`: the order-blind baseline ("chance") of each task, exactly;
- :mod:`posenc.lab.lengths`: a start symbol, the "reverse" task and tests to 8x the training
  length, in a runner of its own (only the experiments that use it hash it).
"""

import importlib.util as _util

from posenc._extras import require as _require

if _util.find_spec("torch") is None:   # name the extra that installs it; never import it here
    _require("torch", "torch", "posenc.lab")
