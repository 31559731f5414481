"""MkDocs build hook: draw the concept pages' pictures with minitape, and fence docstring examples.

The course notebooks reach the site through the link docs/notebooks -> ../notebooks; their pages'
tables of contents are rebuilt from the headings they show (``on_page_content``).
"""
import html
from html.parser import HTMLParser

from mkdocs.structure.files import File
from mkdocs.structure.toc import get_toc


def on_files(files, config):
    for name, svg in pictures().items():
        files.append(File.generated(config, f"img/{name}.svg", content=svg))
    return files


def pictures() -> dict[str, str]:
    """The tapes drawn in the concept pages, made by minitape at build time."""
    import minitape as tf

    x = tf.constant([[1.0, 2.0]])
    W = tf.Variable([[0.5, -1.0], [0.25, 0.75]], name="W")
    with tf.GradientTape() as tape:
        tape.watch(x)
        h = tf.tanh(x @ W + 1.0)
        loss = tf.reduce_sum(h * h)
    plain = tape.picture(names={"x": x, "W": W, "h": h, "loss": loss}).to_svg()

    block = tf.recompute_grad(lambda t: tf.tanh(t @ W))
    with tf.events.timeline() as events:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(block(block(x)))
        tape.gradient(y, [x, W])
    events.names = {"x": x, "W": W, "y": y}
    middle = [i for i, e in enumerate(events) if e.kind == "recompute_end"][0] + 3
    return {"plain_tape": plain, "checkpointed_backward": events.scene(middle).to_svg(),
            "timeline_moment": tanh_after_its_first_backward_step()}


def tanh_after_its_first_backward_step() -> str:
    """The timeline of concepts/pictures.md, drawn just after the first step of its backward pass."""
    import minitape as tf

    w = tf.Variable(0.5, name="w")
    with tf.events.timeline() as events:
        with tf.GradientTape() as tape:
            y = tf.tanh(w * 3.0)
        tape.gradient(y, w)
    events.names = {"w": w, "y": y}
    return events.scene([e.kind for e in events].index("backward_step") + 1).to_svg()


def on_page_content(content, page, config, files):
    """A notebook page's table of contents, made from the headings on the page, so each entry finds its heading.

    mkdocs-jupyter reads the contents from a Markdown copy of the notebook with every `code` span cut out
    (nbconvert2.nb2md), so "Training with `fit`" became an entry for ``#training-with`` while the heading
    on the page is ``#training-with-fit``.
    """
    if page.file.src_uri.endswith(".ipynb"):
        page.toc = get_toc(nested(Headings.of(content)))
    return content


class Headings(HTMLParser):
    """The headings of a notebook's Markdown cells (those nbconvert gave an anchor link): level, id, text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found, self.open, self.in_anchor = [], None, False

    @classmethod
    def of(cls, content: str) -> list[dict]:
        parser = cls()
        parser.feed(content)
        return [token for token, anchored in parser.found if anchored]

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6") and attrs.get("id"):
            self.open = {"level": int(tag[1]), "id": attrs["id"], "name": "", "children": []}
            self.found.append((self.open, False))
        elif self.open is not None and tag == "a" and "anchor-link" in (attrs.get("class") or ""):
            self.in_anchor = True
            self.found[-1] = (self.open, True)

    def handle_endtag(self, tag):
        if tag == "a":
            self.in_anchor = False
        elif self.open is not None and tag == f"h{self.open['level']}":
            self.open["name"] = html.escape(" ".join(self.open["name"].split()), quote=False)
            self.open = None

    def handle_data(self, data):
        if self.open is not None and not self.in_anchor:
            self.open["name"] += data


def nested(headings: list[dict]) -> list[dict]:
    """Flat headings as a tree of tokens, each under the nearest heading before it of a higher level."""
    roots, path = [], []
    for heading in headings:
        while path and path[-1]["level"] >= heading["level"]:
            path.pop()
        (path[-1]["children"] if path else roots).append(heading)
        path.append(heading)
    return roots


def on_config(config):
    """Docstrings' ``>>>`` examples are code: fence them, so Markdown never reads their output."""
    config.markdown_extensions.append(DoctestBlocks())
    return config


class DoctestBlocks:
    """A Markdown extension that turns each run of ``>>>`` lines and their output into a code block."""

    def __new__(cls):
        from markdown import Extension
        from markdown.preprocessors import Preprocessor

        class Fence(Preprocessor):
            def run(self, lines):
                out, fenced, in_code = [], False, False
                for line in lines:
                    if line.lstrip().startswith("```"):
                        in_code = not in_code              # a block the author fenced: leave it alone
                    if fenced and not line.strip():
                        out += ["```", line]
                        fenced = False
                    elif not fenced and not in_code and line.lstrip().startswith(">>>"):
                        out += ["```pycon", line.lstrip()]
                        fenced = True
                    else:
                        out.append(line.lstrip() if fenced else line)
                return out + (["```"] if fenced else [])

        class Extension_(Extension):
            def extendMarkdown(self, md):
                md.preprocessors.register(Fence(md), "doctest_blocks", 30)

        return Extension_()


class OwnDocstringsOnly:
    """A griffe extension: an attribute found by inspection keeps a docstring only if it has its own.

    Inspecting ``is_call = False`` finds ``bool``'s docstring ("Returns True when the argument x is
    true..."), which is no documentation of minitape's: drop it.
    """

    def __new__(cls):
        import inspect

        from griffe import Extension

        class Extension_(Extension):
            def on_attribute_instance(self, *, node, attr, agent, **kwargs):
                value = getattr(node, "obj", None)
                if attr.docstring is not None and attr.docstring.value == inspect.getdoc(type(value)):
                    attr.docstring = None

        return Extension_()
