"""docs/concepts/reading.md quotes the real kernel: every code block titled with a dotted name is that
object's source, exactly.

The convention: a fence opened as ```python title="minitape.core.primitive.apply"```.  The title is
shown above the block on the site, and it keeps the block from being run as a doctest (Sybil runs
only blocks whose info string is exactly ``python``).
"""
import importlib
import inspect
import re
import textwrap
from pathlib import Path

import pytest

PAGE = Path(__file__).parent.parent / "docs" / "concepts" / "reading.md"
QUOTE = re.compile(r'^```python title="([\w.]+)"\n(.*?)^```$', re.M | re.S)


def quotes(text: str) -> list[tuple[str, str]]:
    """Each quoted block of a page: the name in its title, and its text."""
    return QUOTE.findall(text)


def resolve(dotted: str) -> object:
    """The object a dotted name names: the longest importable module, then attributes (None if none)."""
    parts = dotted.split(".")
    for n in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:n]))
        except ImportError:
            continue
        for attribute in parts[n:]:
            found = getattr(found, attribute, None)
        return found
    return None


def source(dotted: str) -> str:
    return textwrap.dedent(inspect.getsource(resolve(dotted)))


def test_the_page_quotes_the_kernel():
    assert {name for name, _ in quotes(PAGE.read_text())} >= {
        "minitape.core.primitive.apply", "minitape.core.primitive.OpEntry.__init__",
        "minitape.core.primitive.OpEntry.backward", "minitape.autodiff.backward.backprop"}


@pytest.mark.parametrize("name, quoted", quotes(PAGE.read_text()), ids=lambda value: value[:40])
def test_each_quote_is_the_source_it_names(name, quoted):
    assert resolve(name) is not None, f"reading.md quotes {name}, which names nothing"
    assert quoted == source(name), f"reading.md's quote of {name} differs from the source: copy it again"


def test_every_titled_block_is_a_quote():
    """A titled fence the pattern misses (a typo in the title) would go unchecked."""
    titled = re.findall(r'^```python title=.*$', PAGE.read_text(), re.M)
    assert len(titled) == len(quotes(PAGE.read_text()))


def test_a_changed_or_unknown_quote_is_caught():
    apply = source("minitape.core.primitive.apply")
    page = f'```python title="minitape.core.primitive.apply"\n{apply.replace("wrap(value)", "wrap(v)")}```\n'
    ((name, quoted),) = quotes(page)
    assert quoted != source(name)
    assert resolve("minitape.core.primitive.no_such_function") is None
