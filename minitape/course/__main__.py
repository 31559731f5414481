"""``python -m minitape.course CHECK < answer.py``: grade an answer afresh, in this new process.

The graded assignment's hidden tests run it (see [`grading`][minitape.course.grading]); it prints the
verdict and exits 0 only if the answer passed.
"""
import sys

from minitape.course.grading import main

sys.exit(main(sys.argv[1:], sys.stdin.read()))
