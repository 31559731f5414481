"""The documentation site builds with warnings as errors, and its API reference lists the public surface."""
import re
from pathlib import Path
from urllib.parse import unquote

import pytest
import yaml

ROOT = Path(__file__).parent.parent

# The names of shared/API.md, §1-5 (namespaced ones by their last part; `bool` is `bool_` in minitape.dtypes).
PUBLIC = """Tensor constant convert_to_tensor Variable float16 float32 float64 int32 int64 bool_ cast DType
zeros ones zeros_like ones_like fill range eye linspace set_seed normal uniform
add subtract multiply divide pow negative abs square sqrt exp log sin cos tanh sigmoid maximum minimum where
matmul transpose reshape squeeze expand_dims concat stack tile broadcast_to gather reduce_sum reduce_mean
reduce_max reduce_min reduce_prod identity stop_gradient clip_by_value einsum log1p softplus relu softmax
log_softmax softmax_cross_entropy_with_logits sparse_softmax_cross_entropy_with_logits dropout
GradientTape watch gradient jacobian batch_jacobian stop_recording reset watched_variables UnconnectedGradients
recompute_grad custom_gradient print Sequential Model Layer Dense Lambda Dropout ReLU get SGD Adam
MeanSquaredError SparseCategoricalCrossentropy categorical_crossentropy""".split()


@pytest.fixture
def site(built_site):
    return built_site


def test_api_reference_lists_every_public_name(site):
    html = (site / "api.html").read_text()
    documented = {name.rsplit(".", 1)[-1] for name in re.findall(r'id="(minitape[^"]*)"', html)}
    assert [name for name in PUBLIC if name not in documented] == []


def test_concept_pages_show_pictures_drawn_by_minitape(site):
    svg = (site / "img" / "checkpointed_backward.svg").read_text()
    assert "recomputed" in svg and "<svg" in svg
    for page, picture in [("tape", "plain_tape"), ("checkpointing", "checkpointed_backward"),
                          ("pictures", "timeline_moment")]:
        assert f'src="../img/{picture}.svg"' in (site / "concepts" / f"{page}.html").read_text()
        assert "<svg" in (site / "img" / f"{picture}.svg").read_text()


def test_notebook_pages_keep_the_words_of_their_titles(site):
    """mkdocs-jupyter titles a page by its first heading with its `code` words dropped ("2. : what is kept")."""
    course = next(part["Course notebooks"] for part in yaml.safe_load((ROOT / "mkdocs.yml").read_text())["nav"]
                  if isinstance(part, dict) and "Course notebooks" in part)
    for entry in course:
        (title, path), = entry.items()
        html = (site / path.replace(".ipynb", ".html")).read_text()
        assert f"<title>{title} - minitape</title>" in html
        assert re.search(rf'md-nav__link--active">\s*<span class="md-ellipsis">\s*{re.escape(title)}\s*</span>', html)


def test_api_reference_links_its_cross_references(site):
    html = (site / "api.html").read_text()
    links = set(re.findall(r'<a class="autorefs autorefs-internal"[^>]*href="#([^"]+)"', html))
    assert {"minitape.core.entry.Entry.backward", "minitape.core.primitive.apply", "minitape.GradientTape",
            "minitape.events.timeline", "minitape.checkpoint_chain"} <= links
    ids = set(re.findall(r'id="([^"]+)"', html))
    assert links <= ids
    assert [name for name in ids if name.startswith("minitape") and "__" in name] == []   # no __module__, __file__...
    # Inspection finds an attribute's docstring on its value's type: `is_call = False` is no bool(x) -> bool.
    assert [text for text in ["bool(x) -&gt; bool", "str(object=", "dict() -&gt;"] if text in html] == []


# The docstrings of minitape/viz (GradientTape.picture, Timeline.player, viz.scene, viz.player) are
# rewritten with the player on branch player (issue 15); remove this mark when both are merged.
def test_api_reference_shows_no_sphinx_roles(site):
    html = (site / "api.html").read_text()
    assert re.findall(r":(?:func|class|meth|mod|data|attr|exc):(?:`|<code>)", html) == []


def test_notebooks_are_rendered_with_their_outputs(site):
    assert (site / "notebooks" / "00_tour.html").read_text().count("running") >= 32


def test_public_names_follow_api_md():
    api = ROOT.parent / "shared" / "API.md"
    if not api.exists():
        pytest.skip("shared/API.md is not beside this checkout")
    ops = re.search(r"Top level: `([^`]*)`", api.read_text()).group(1).split()
    assert [name for name in ops if name not in PUBLIC] == []


# What a teacher types in a shell or writes in a config file (docs/hosting.md's blocks) is not Python; nothing
# else may escape the doctests, as a block with no language or another one would.
NOT_PYTHON = {"bash", "yaml", "text"}


def test_every_code_block_in_docs_is_python_and_so_a_doctest():
    for page in (ROOT / "docs").rglob("*.md"):
        if "notebooks" in page.parts:
            continue
        fences = re.findall(r"^```(\w*)", page.read_text(), flags=re.M)
        openings = fences[0::2]
        allowed = {"python"} | (NOT_PYTHON if page.name == "hosting.md" else set())
        assert all(lang in allowed for lang in openings), f"{page}: {openings}"


def internal_links(html: str) -> list[str]:
    """The page's href values that point inside the site (no scheme, no bare fragment)."""
    return [href for href in re.findall(r'href="([^"]*)"', html)
            if href and not href.startswith("#") and not re.match(r"[a-z][a-z0-9+.-]*:|//", href)]


def test_every_link_leads_to_a_file_so_the_site_works_opened_from_disk(site):
    """From file:// a link to a folder shows a directory listing: every link must name its page."""
    broken = {}
    for page in set(site.rglob("*.html")) - {site / "404.html"}:      # 404.html is a server's, with links from /
        for href in internal_links(page.read_text()):
            target = page.parent / unquote(href.split("#")[0].split("?")[0])
            if not target.is_file():
                broken.setdefault(str(page.relative_to(site)), []).append(href)
    assert broken == {}


def test_every_table_of_contents_link_finds_its_heading(site):
    """The right-hand contents of each page, notebooks' included, link to ids that are on that page."""
    missing = {}
    for page in site.rglob("*.html"):
        html = page.read_text()
        ids = set(re.findall(r'\bid="([^"]+)"', html))
        toc = [unquote(href) for href in re.findall(r'<a href="#([^"]+)" class="md-nav__link">', html)]
        if set(toc) - ids:
            missing[str(page.relative_to(site))] = [link for link in toc if link not in ids]
    assert missing == {}
    eight = (site / "notebooks" / "08_cnn_checkpointing.html").read_text()
    assert '<a href="#training-with-fit" class="md-nav__link">' in eight
