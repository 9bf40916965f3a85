"""A problem generator for the `line` domain: gen_line.py SEED PROBLEM writes a line of SEED + 2 places."""
import sys

n = int(sys.argv[1]) + 1
places = " ".join(f"p{i}" for i in range(n + 1))
links = " ".join(f"(next p{i} p{i + 1})" for i in range(n))
with open(sys.argv[2], "w") as out:
    out.write(f"(define (problem train-{n}) (:domain line) (:objects {places} - place)\n"
              f"  (:init (at p0) {links}) (:goal (at p{n})))\n")
