"""Test set-up shared by the suite: doctest namespaces, and the docs' Markdown examples.

Docstrings and every ```python block of ``docs/*.md`` and the README are doctests.  Sybil reads
the Markdown (plain doctest would take a closing code fence for expected output).
"""
import doctest

import numpy as np
import pytest
from sybil import Sybil
from sybil.parsers.markdown import PythonCodeBlockParser

import minitape

FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS

# The notebooks' jupytext twins are scripts, run by tests/test_notebooks.py, not modules to import.
collect_ignore_glob = ["docs/notebooks/*", "notebooks/*"]


@pytest.fixture(autouse=True)
def _doctest_namespace(doctest_namespace):
    doctest_namespace["tf"] = minitape
    doctest_namespace["np"] = np


_markdown = [PythonCodeBlockParser(doctest_optionflags=FLAGS)]
pytest_collect_file = (
    Sybil(parsers=_markdown, patterns=["*.md"], path="docs", name="docs")
    + Sybil(parsers=_markdown, filenames=["README.md"], name="readme")
).pytest()
