"""Optional dependencies: ``posenc`` itself needs NumPy only.

Each optional package comes with an extra of the wheel: ``posenc[torch]`` (the PyTorch
module), ``posenc[plots]`` (matplotlib, for :mod:`posenc.plots`), ``posenc[precision]`` (mpmath,
for the correctly rounded references in :mod:`posenc.rounding`, :mod:`posenc.precision` and
:mod:`posenc.omega_forms`).
"""

from __future__ import annotations

import importlib
from types import ModuleType


def require(package: str, extra: str, user: str) -> ModuleType:
    """Import ``package``, or raise ``ModuleNotFoundError`` naming the extra that installs it.

    Parameters
    ----------
    package : str
        The module to import, e.g. ``"mpmath"``.
    extra : str
        The extra of ``posenc`` that installs it, e.g. ``"precision"``.
    user : str
        The part of posenc that needs it, named in the message.

    Examples
    --------
    >>> from posenc._extras import require
    >>> require("math", "none", "this example").sqrt(4.0)
    2.0
    >>> require("no_such_package_xyz", "plots", "posenc.plots")
    Traceback (most recent call last):
    ...
    ModuleNotFoundError: posenc.plots needs no_such_package_xyz, which is not installed: pip install 'posenc[plots]'
    """
    try:
        return importlib.import_module(package)
    except ModuleNotFoundError as exc:
        if exc.name != package.split(".")[0]:
            raise
        raise ModuleNotFoundError(
            f"{user} needs {package}, which is not installed: pip install 'posenc[{extra}]'",
            name=package) from exc
