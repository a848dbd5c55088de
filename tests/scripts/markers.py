#!/usr/bin/env python3
"""The picture points at what changed (issue 32), through the command line.

Usage: markers.py DIFFFOLD SOURCE_ROOT

At --preset comment, for the sample pair and two pairs from bench/gen-pair.py:
every header row's marker is drawn on a frame of that function (or at its end
of a leader), no two markers overlap, every frame drawn in the strongest colour
step has a header row, and row A holds the strongest frame. On the sample
pair the header takes a third of the picture or less. The depth cap: frames
past --max-depth (or the default cap on a chain deeper than it) are counted in
the header, not drawn, and the reports do not change with it.
"""
import math
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def run(exe, args):
    p = subprocess.run([exe] + args, capture_output=True)
    check(p.returncode == 0, "exit 0 for %s: %s" % (args, p.stderr.decode()))
    return p


def frames_of(root):
    """Every g.frame in order: name, rect, hidden, counts."""
    out = []
    for g in root.iter(NS + "g"):
        if g.get("class") != "frame":
            continue
        r = g.find(NS + "rect")
        title = g.find(NS + "title").text or ""
        out.append({
            "name": title.split("\n")[0],
            "x": float(r.get("x")), "y": float(r.get("y")),
            "w": float(r.get("width")), "h": float(r.get("height")),
            "hidden": g.get("display") == "none",
            "status": g.get("data-status"),
            "change": float(g.get("data-head-self")) - float(g.get("data-base-self")),
        })
    return out


def badges_of(root):
    out = []
    for g in root.iter(NS + "g"):
        if g.get("class") != "marker":
            continue
        r = g.find(NS + "rect")
        line = g.find(NS + "line")
        out.append({
            "letter": g.get("data-marker"), "name": g.get("data-name"),
            "frame": g.get("data-frame"),
            "x": float(r.get("x")), "y": float(r.get("y")),
            "w": float(r.get("width")), "h": float(r.get("height")),
            "line": None if line is None else
            tuple(float(line.get(k)) for k in ("x1", "y1", "x2", "y2")),
        })
    return out


def overlap(a, b):
    return (a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"]
            and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"])


def near_rect(px, py, f, slack=1.5):
    return (f["x"] - slack <= px <= f["x"] + f["w"] + slack
            and f["y"] - slack <= py <= f["y"] + f["h"] + slack)


def check_picture(svg_path, what):
    root = ET.parse(svg_path).getroot()
    frames = frames_of(root)
    badges = badges_of(root)
    header = [b for b in badges if b["frame"] is None]
    graph = {b["letter"]: b for b in badges if b["frame"] is not None}
    check(len(header) > 0, "%s: the header has marked rows" % what)
    for h in header:
        g = graph.get(h["letter"])
        check(g is not None, "%s: marker %s is drawn in the graph" % (what, h["letter"]))
        if g is None:
            continue
        f = frames[int(g["frame"])]
        check(f["name"] == h["name"] and f["name"] == g["name"],
              "%s: marker %s on a frame of %r (got %r)" % (what, h["letter"], h["name"], f["name"]))
        check(not f["hidden"], "%s: marker %s on a drawn frame" % (what, h["letter"]))
        cx, cy = g["x"] + g["w"] / 2, g["y"] + g["h"] / 2
        on = near_rect(cx, cy, f, 0)
        check(on or (g["line"] and near_rect(g["line"][2], g["line"][3], f)),
              "%s: marker %s on its frame or led to it" % (what, h["letter"]))
    for i, a in enumerate(badges):
        for b in badges[i + 1:]:
            check(not overlap(a, b), "%s: markers %s and %s overlap" % (what, a["letter"], b["letter"]))
    # What is drawn strongest has a row, and row A is the strongest frame.
    drawn = [f for f in frames[1:] if not f["hidden"] and f["status"] != "same"]
    if drawn:
        top = max(abs(f["change"]) for f in drawn)
        names = {h["name"] for h in header}
        strongest = [f["name"] for f in drawn if abs(f["change"]) == top]
        row_a = [h["name"] for h in header if h["letter"] == "A"]
        check(row_a and row_a[0] in strongest, "%s: row A is the strongest frame" % what)
        for f in drawn:
            if math.ceil(math.sqrt(abs(f["change"]) / top) * 4) >= 4:
                check(f["name"] in names, "%s: strongest-step frame %r has a row" % (what, f["name"]))
    return root, frames


def main():
    exe, src = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        pairs = [("sample", os.path.join(src, "samples/base.folded"),
                  os.path.join(src, "samples/head.folded"))]
        for mb, seed in (("0.3", 7), ("1", 11)):
            b, h = os.path.join(tmp, "b%s.folded" % mb), os.path.join(tmp, "h%s.folded" % mb)
            subprocess.run([sys.executable, os.path.join(src, "bench/gen-pair.py"), "--size-mb",
                            mb, "--seed", str(seed), "--out-base", b, "--out-head", h], check=True)
            pairs.append(("gen-pair %s MB" % mb, b, h))
        for what, b, h in pairs:
            out = os.path.join(tmp, "x.svg")
            run(exe, [b, h, "--preset", "comment", "-o", out])
            root, frames = check_picture(out, what)
            if what == "sample":
                height = float(root.get("height"))
                graph_top = min(f["y"] for f in frames if not f["hidden"])
                check(graph_top <= height / 3,
                      "sample: header %.0f px of %.0f, a third at most" % (graph_top, height))
            png = os.path.join(tmp, "x.png")
            run(exe, [b, h, "--preset", "comment", "-o", png])
            check(os.path.getsize(png) > 0, "%s: PNG written" % what)
        # The depth cap: counted in the header, reports unchanged.
        sb, sh = pairs[0][1], pairs[0][2]
        out = os.path.join(tmp, "cap.svg")
        run(exe, [sb, sh, "--max-depth", "3", "-o", out])
        root = ET.parse(out).getroot()
        texts = " ".join(t.text or "" for t in root.iter(NS + "text"))
        check("deeper frames" in texts and "past depth 3" in texts, "--max-depth 3 says what it hides")
        ys = {f["y"] for f in frames_of(root) if not f["hidden"]}
        check(len(ys) <= 4, "--max-depth 3 draws four rows at most (%d)" % len(ys))
        j1 = run(exe, [sb, sh, "-f", "json"]).stdout
        j2 = run(exe, [sb, sh, "-f", "json", "--max-depth", "3"]).stdout
        check(j1 == j2, "--max-depth leaves the reports alone")
        deep = os.path.join(tmp, "deep.folded")
        with open(deep, "w") as f:
            f.write(";".join("f%d" % i for i in range(5000)) + " 1\n")
        out = os.path.join(tmp, "deep.svg")
        run(exe, [deep, "-o", out])
        root = ET.parse(out).getroot()
        n = len(frames_of(root))
        check(n == 4097, "the default cap draws 4,096 levels and the root (%d)" % n)
        texts = " ".join(t.text or "" for t in root.iter(NS + "text"))
        check("+904 deeper frames" in texts, "the default cap says what it hides")
    if failures:
        print("%d failure(s)" % len(failures), file=sys.stderr)
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
