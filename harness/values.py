"""What a page's code shows: each fenced block's outputs (the numbers a ``>>>`` example prints),
the literals an assertion or a claim marker compares with ``==``, and the numbers its code binds
to names. harness.numbers matches the prose's numbers against these."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

import math

from harness.page import Page

# A number written with n digits is the value rounded to them: half a unit of the last digit
# (and a hair for the float's own rounding); no relative slack beyond that.
HALF_UNIT_SLACK = 1 + 1e-9
REL_TOL = 1e-12

OUTPUT_NUMBER = re.compile(r"(?<![\w])(?<!\d\.)[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?(?![\w.]\w)")


@dataclass
class Output:
    line: int
    text: str
    value: float
    half: float              # half a unit of the digits the output prints (0 for integers)


@dataclass
class Block:
    """A fence or a claim marker seen as a source of checked values: its outputs and its code."""
    first: int               # line of the opening fence, 1-based
    last: int
    section: int
    info: str
    body: list               # (line number, text) of the block's lines, stripped
    outputs: list = field(default_factory=list)     # Output
    sources: list = field(default_factory=list)     # (line, code)

    @property
    def exec_on(self) -> bool:
        return bool(re.search(r"\bexec\s*=\s*\"?(?:on|1|true)", self.info))


def blocks_of(page: Page) -> list:
    """Each fence of the page as a Block: a Python block split into sources and outputs."""
    blocks = []
    for fence in page.fences:
        body = [(n, text.strip()) for n, text in fence.body]
        block = Block(fence.first, fence.last, fence.section, fence.info, body)
        if fence.python:
            doctest = any(line.startswith(">>>") for _, line in body)
            for lineno, line in body:
                if line.startswith((">>>", "...")):
                    block.sources.append((lineno, line[4:]))
                elif doctest:
                    for o in OUTPUT_NUMBER.finditer(line):
                        try:
                            value = float(o.group())
                        except ValueError:
                            continue
                        block.outputs.append(Output(lineno, o.group(), value,
                                                    output_half_unit(o.group())))
                else:
                    block.sources.append((lineno, line))
        blocks.append(block)
    return blocks


def output_half_unit(text: str) -> float:
    """Half a unit of an output's last printed digit; an integer output is exact."""
    mantissa, _, exponent = text.lower().lstrip("+-").partition("e")
    if "." not in mantissa and not exponent:
        return 0.0
    decimals = len(mantissa.partition(".")[2])
    return 0.5 * 10.0 ** (int(exponent or 0) - decimals)


def constant(node):
    """The number a constant expression (``512``, ``-0.5``, ``2**16``, ``1e-8``) stands for."""
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Pow, ast.Mult, ast.Div)):
            left, right = constant(node.left), constant(node.right)
            if left is None or right is None:
                return None
            try:
                return {ast.Pow: lambda a, b: a ** b, ast.Mult: lambda a, b: a * b,
                        ast.Div: lambda a, b: a / b}[type(node.op)](left, right)
            except (ArithmeticError, ValueError):
                return None
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value


class End(float):
    """The last value of ``range(n)``: n - 1, bound only where the prose says "to n - 1"."""


class Count(float):
    """The n of ``range(n)``: a count ("n positions"), not bound after "to" (the range stops
    before it)."""


def _bound_values(node) -> list:
    """Numbers bound to a name by a literal: the value itself, or a tuple/list of them."""
    value = constant(node)
    if value is not None:
        return [value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [v for elt in node.elts for v in _bound_values(elt)]
    return []


def _named_tree(tree) -> list:
    values = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and node.value is not None:
            values += _bound_values(node.value)
        elif isinstance(node, ast.keyword) and node.arg:
            values += _bound_values(node.value)
        elif isinstance(node, ast.arguments):
            values += [v for d in node.defaults + [d for d in node.kw_defaults if d]
                       for v in _bound_values(d)]
        elif isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.target, ast.Name):
            values += _bound_values(node.iter)
        elif isinstance(node, ast.Call):
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            stop_arg = None
            if name in ("range", "arange", "encode") and node.args:
                stop_arg = node.args[-1] if name != "encode" else node.args[0]
                if name != "encode" and len(node.args) > 2:
                    stop_arg = None
            for arg in node.args:
                found = _bound_values(arg)
                if arg is stop_arg and isinstance(constant(arg), int):
                    values += [Count(v) for v in found]
                    values.append(End(constant(arg) - 1))   # positions 0 to n - 1: arange(n)
                else:
                    values += found
    return values


_ASSIGN = re.compile(r"\b[A-Za-z_]\w*\s*(?:[-+*/]?=)(?!=)\s*([-+]?[\d_.]+(?:[eE][-+]?\d+)?)")


def named_values(code: str) -> list:
    """Numbers the code binds to names (see the module docstring); a regex when it won't parse."""
    try:
        return _named_tree(ast.parse(code))
    except SyntaxError:
        values = []
        for line in code.splitlines():
            try:
                values += _named_tree(ast.parse(line.strip()))
            except SyntaxError:
                for m in _ASSIGN.finditer(line):
                    try:
                        values.append(float(m.group(1).replace("_", "")))
                    except ValueError:
                        pass
        return values


_LITERAL = r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?"
_EQUALS = (re.compile(r"==\s*\(?\s*(" + _LITERAL + r")(?![\w.(])"),
           re.compile(r"(?<![\w.])(" + _LITERAL + r")\s*=="))
_EQUALS_LIST = re.compile(r"==\s*[\[(]((?:\s*" + _LITERAL + r"\s*,)+\s*(?:" + _LITERAL + r")?\s*)[\])]")
def equality_outputs(line: int, code: str) -> list:
    """Literals an assertion or a claim marker compares with ``==`` (``round(x, 2) == 6.28``):
    a check of that value as good as a printed output."""
    out = []
    texts = [m.group(1) for pattern in _EQUALS for m in pattern.finditer(code)]
    for m in _EQUALS_LIST.finditer(code):                 # == [5.6569, 8.0, 16.0]
        texts += re.findall(_LITERAL, m.group(1))
    for text in texts:
        out.append(Output(line, text, float(text), output_half_unit(text)))
    out += _bound_powers(line, code)
    return out


def _bound_powers(line: int, code: str) -> list:
    """A power compared in a check (``err <= 2 ** -9``, ``n == 10 ** 6``): the exact value it
    states, bound as a check of that value (a prose ``2^-9`` next to it agrees with it)."""
    source = re.sub(r"^\s*assert\b", "", code.strip())
    try:
        tree = ast.parse(source.split("  #")[0].strip() or "0", mode="eval")
    except SyntaxError:
        return []
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for operand in [node.left, *node.comparators]:
                if isinstance(operand, ast.BinOp) and isinstance(operand.op, ast.Pow):
                    value = constant(operand)
                    if isinstance(value, (int, float)):
                        out.append(Output(line, ast.unparse(operand), float(value), 0.0))
    return out


def matches(value: float, half: float, out: Output) -> bool:
    """Whether a prose number (``value``, written to half a unit ``half``; 0 for an exact power)
    agrees with an output."""
    # A rounded number is matched to its own digits; an exact one (a power, half == 0) to the
    # digits the output prints.
    tol = (half if half else out.half) * HALF_UNIT_SLACK
    if not half and value != 0 and out.half * HALF_UNIT_SLACK >= abs(value):
        return False        # an output too coarse to tell it from 0 (0.0 beside 2^-24)
    if math.isclose(value, out.value, rel_tol=0, abs_tol=tol):
        return True
    return value != 0 and math.isclose(value, out.value, rel_tol=REL_TOL)
