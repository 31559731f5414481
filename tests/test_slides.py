"""The animated image for slides (issue [pedagogy]): landscape 1280 × 720 by default, labels at least 12 px,
the whole printed trace (scrolled to its end when it is longer than its box), a first frame that shows
something, and ``frames=``/``fps=`` to choose what plays and how fast.

What a frame says is read from the slide that made it (``minitape.viz.slides``): every string a frame
paints is laid out there first, with its size and its box.
"""
import pytest
from PIL import Image

import minitape as tf
from minitape.viz.slides import LABEL_DPI, slides


def test_the_tours_gif_is_a_16_9_slide_whose_last_frame_shows_every_printed_line(capsys, seed_timeline, tmp_path):
    player = seed_timeline().player()
    laid_out = slides(player)
    player.save(tmp_path / "tour.gif")
    with Image.open(tmp_path / "tour.gif") as image:
        assert image.n_frames == len(laid_out)
        for k in range(image.n_frames):
            image.seek(k)
            assert image.size == (1280, 720)
    printed = player.frames[-1].trace.splitlines()
    assert printed == ["running"] * 8                          # four calls, each run again for the gradient
    assert laid_out[-1].lines("trace") == printed and laid_out[-1].lines("scrolled") == []
    assert laid_out[-1].lines("caption") == [f"step {len(player.frames)} of {len(player.frames)}: "
                                             f"{player.frames[-1].said}"]
    for slide in laid_out:
        assert min(text.size for text in slide.texts) >= 12
        assert slide.dpi >= LABEL_DPI                          # Graphviz's 10 pt labels drawn 13 px high
        for text in slide.texts:                               # every line inside the slide
            assert 0 <= text.x and text.y + text.size <= 720


def test_the_first_frame_shows_the_picture_not_a_blank(capsys, seed_timeline):
    player = seed_timeline().player()
    assert player.frames[0].changes == {}                      # the tour opens inside a paused call: nothing drawn
    first = slides(player, frames=list(range(10)))[0]
    assert first.lines("caption")[0].startswith("The whole run, as step 10 of")
    colours = first.image().convert("L").getextrema()
    assert colours[0] < 100                                     # dark strokes: something is drawn
    ink = first.picture.convert("L").point(lambda value: 255 if value < 200 else 0).histogram()[255]
    assert ink > 1000


def test_a_long_trace_scrolls_to_its_end_inside_its_box(capsys, tmp_path):
    with tf.events.timeline() as events:
        for k in range(60):
            tf.print("line", k)
    player = events.player()
    last = slides(player, size=(1280, 720), frames=[-1])[-1]
    shown = last.lines("trace")
    assert shown[-1] == "line 59" and shown == [f"line {k}" for k in range(60 - len(shown), 60)]
    assert last.lines("scrolled") == [f"↑ {60 - len(shown)} earlier lines"]
    x0, y0, x1, y1 = last.boxes["trace"]
    assert all(y0 <= t.y and t.y + t.size <= y1 for t in last.texts if t.box in ("trace", "scrolled"))
    tall = slides(player, size=(1280, 1400), frames=[-1])[-1]
    assert tall.lines("trace") == [f"line {k}" for k in range(60)]


def test_frames_size_and_fps_choose_what_plays(capsys, seed_timeline, tmp_path):
    player = seed_timeline().player()
    player.save(tmp_path / "part.png", size=(960, 540), frames=range(10, 14), fps=4)
    with Image.open(tmp_path / "part.png") as image:
        assert (image.n_frames, image.size, image.info["duration"]) == (4, (960, 540), 250)
    player.save(tmp_path / "ends.gif", size=(640, 360), frames=[-1, 0], fps=2)
    with Image.open(tmp_path / "ends.gif") as image:
        assert image.n_frames == 2 and image.size == (640, 360)
    last_two = slides(player, (640, 360), tf.viz.animate.chosen_frames(player, slice(-2, None)))
    assert [s.lines("caption")[0].split(":")[0] for s in last_two] == \
        [f"step {len(player.frames) - 1} of {len(player.frames)}", f"step {len(player.frames)} of {len(player.frames)}"]


@pytest.mark.parametrize("options, error, message", [
    ({"size": (100, 100)}, ValueError, r"size must be \(width, height\) in pixels, at least \(320, 240\)"),
    ({"size": "big"}, ValueError, r"size must be \(width, height\)"),
    ({"frames": [999]}, ValueError, r"frames names a frame outside 0\.\.\d+"),
    ({"frames": slice(5, 5)}, ValueError, r"frames chooses no frame"),
    ({"frames": "all"}, TypeError, r"frames must be a range, a slice or a list of frame indices"),
    ({"fps": 0}, ValueError, r"fps \(frames per second\) must be a positive number"),
])
def test_bad_options_name_the_argument(capsys, seed_timeline, tmp_path, options, error, message):
    with pytest.raises(error, match="Player.save: " + message):
        seed_timeline().player().save(tmp_path / "bad.gif", **options)
