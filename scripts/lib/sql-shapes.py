#!/usr/bin/env python3
"""Compares two SNAPSHARE_SQL_TRACE files by statement shape: each line with its values made `?`,
counted. Prints the shapes only one of them has, with their counts (scripts/sql-trace.sh)."""
import re, sys, collections
def shape(line):
    line = re.sub(r"x'<\d+ bytes>'", "?", line)
    line = re.sub(r"'(?:[^']|'')*'", "?", line)   # quoted strings (an apostrophe inside one may cut it short)
    line = re.sub(r"(?<![\w.])-?\d+(?:\.\d+)?(?:e[+-]?\d+)?(?![\w])", "?", line)
    line = re.sub(r"\b(true|false|NULL)\b", "?", line)
    return line.strip()
def load(p):
    c = collections.Counter()
    for l in open(p, errors="replace"):
        c[shape(l)] += 1
    return c
a, b = load(sys.argv[1]), load(sys.argv[2])
gone = sorted(k for k in a if k not in b)
new = sorted(k for k in b if k not in a)
print(f"statement shapes: {len(a)} before, {len(b)} after; {len(gone)} only before, {len(new)} only after")
for k in gone: print("- ", a[k], k[:400])
for k in new: print("+ ", b[k], k[:400])
