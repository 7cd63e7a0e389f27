"""Arithmetic expressions an answer writes (SPEC §9.9): parsed from its lexemes, evaluated exactly, shown as a
formula, and the operands that must have been read (a count of 2–12 in a product needs no grounding)."""

from __future__ import annotations

from decimal import Decimal

from grounding.core.answer.arithmetic_lexer import Lexeme, Num
from grounding.core.text.normalise import spell

Tree = tuple  # ("num", Num) | ("neg", Tree) | (op, Tree, Tree) | ("group", Tree)


def longest_expression(left: list[Lexeme]) -> Tree | None:
    """The longest tail of the left side that parses with at least one binary operator."""
    for start in range(len(left)):
        tree = Parser(left[start:]).parse()
        if tree is not None and has_binary(tree):
            return tree
    return None


class Parser:
    def __init__(self, lexemes: list[Lexeme]) -> None:
        self.lexemes = lexemes
        self.at = 0

    def parse(self) -> Tree | None:
        tree = self._sum(allow_sign=True)
        return tree if tree is not None and self.at == len(self.lexemes) else None

    def _peek(self) -> Lexeme | None:
        return self.lexemes[self.at] if self.at < len(self.lexemes) else None

    def _sum(self, allow_sign: bool) -> Tree | None:
        tree = self._product(allow_sign)
        while tree is not None and (lx := self._peek()) is not None and lx.kind == "op" and lx.op in "+-":
            self.at += 1
            right = self._product(allow_sign=False)
            if right is None:
                return None
            tree = (lx.op, tree, right)
        return tree

    def _product(self, allow_sign: bool) -> Tree | None:
        tree = self._factor(allow_sign)
        while tree is not None and (lx := self._peek()) is not None and lx.kind == "op" and lx.op == "*":
            self.at += 1
            right = self._factor(allow_sign=False)
            if right is None:
                return None
            tree = ("*", tree, right)
        return tree

    def _factor(self, allow_sign: bool) -> Tree | None:
        lx = self._peek()
        if lx is None:
            return None
        if lx.kind == "op" and lx.op in "+-" and allow_sign:
            self.at += 1
            inner = self._factor(allow_sign=False)
            if inner is None:
                return None
            return ("neg", inner) if lx.op == "-" else inner
        if lx.kind == "num":
            self.at += 1
            return ("num", lx.num)
        if lx.kind == "(":
            self.at += 1
            inner = self._sum(allow_sign=True)
            closing = self._peek()
            if inner is None or closing is None or closing.kind != ")":
                return None
            self.at += 1
            return ("group", inner)
        return None


def has_binary(tree: Tree) -> bool:
    kind = tree[0]
    if kind in ("+", "-", "*"):
        return True
    if kind in ("neg", "group"):
        return has_binary(tree[1])
    return False


def evaluate(tree: Tree) -> Decimal:
    kind = tree[0]
    if kind == "num":
        return tree[1].magnitude
    if kind == "neg":
        return -evaluate(tree[1])
    if kind == "group":
        return evaluate(tree[1])
    left, right = evaluate(tree[1]), evaluate(tree[2])
    return left + right if kind == "+" else left - right if kind == "-" else left * right


def needs_grounding(tree: Tree) -> list[Num]:
    """Every operand that must be read; a count (2–12) in a product needs no grounding."""
    kind = tree[0]
    if kind == "num":
        return [tree[1]]
    if kind in ("neg", "group"):
        return needs_grounding(tree[1])
    if kind != "*":
        return needs_grounding(tree[1]) + needs_grounding(tree[2])
    factors = _factors(tree)
    counts = [f for f in factors if f[0] == "num" and f[1].is_count]
    needed: list[Num] = []
    for factor in factors:
        if factor in counts and len(counts) < len(factors):
            continue
        needed.extend(needs_grounding(factor))
    return needed


def _factors(tree: Tree) -> list[Tree]:
    if tree[0] == "*":
        return _factors(tree[1]) + _factors(tree[2])
    return [tree]


def render(tree: Tree) -> str:
    kind = tree[0]
    if kind == "num":
        return spell(tree[1].magnitude)
    if kind == "neg":
        return "-" + render(tree[1])
    if kind == "group":
        return "(" + render(tree[1]) + ")"
    symbol = {"+": "+", "-": "-", "*": "×"}[kind]
    return f"{render(tree[1])} {symbol} {render(tree[2])}"
