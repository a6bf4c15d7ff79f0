#!/usr/bin/env python3
"""Draw Ledge's parallax backdrops: assets/sprites/skies.png.

Standard library only (the PNG writer is scripts/make-atlas.py's). Run it from anywhere:

  python3 scripts/make-skies.py [--preview OUT.png] [--scale N]

`--preview` also writes each sky composed as the game draws it at the bottom of a level
(gradient, far layer, near layer) side by side, for judging the art by eye.

Layout (must match src/present/parallax.rs and src/present/instances.rs):

  * 320 px wide; one band per layer, each 180 px tall (parallax::LAYER_SIZE) with a 1 px
    border above and below repeating its edge rows (as the atlas cells), so the stride is 182;
  * for each sky in Sky::ALL order (hills, forest, caves, tower, dusk) three bands: the
    gradient (drawn stretched over the whole 640 x 360 view, so one texel is 2 x 2 level px),
    the far layer and the near layer (one texel = one level pixel). Band b of sky s starts at
    y = 182 * (3 * s + b), its inner rows at + 1;
  * the far and near layers tile horizontally: every shape is drawn with x wrapped modulo 320
    and every ridge is a sum of sines with a whole number of periods across 320 px, so
    x = 319 runs on into x = 0. They are transparent (alpha 0) above their silhouettes and
    opaque (alpha 255) inside them: the game alpha-tests, it never blends them.

Palette: ENDESGA 32 (https://lospec.com/palette-list/endesga-32), as the atlas.
"""

import argparse
import importlib.util
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
W, H = 320, 180
PAD = 1
STRIDE = H + 2 * PAD
SKIES = ["hills", "forest", "caves", "tower", "dusk"]
CLEAR = (0, 0, 0, 0)

ENDESGA = (
    "be4a2f d77643 ead4aa e4a672 b86f50 733e39 3e2731 a22633 e43b44 f77622 feae34 fee761 "
    "63c74d 3e8948 265c42 193c3e 124e89 0099db 2ce8f5 ffffff c0cbdc 8b9bb4 5a6988 3a4466 "
    "262b44 181425 ff0044 68386c b55088 f6757a e8b796 c28569"
).split()


def rgb(hex6):
    assert hex6 in ENDESGA, f"{hex6} is not an ENDESGA 32 colour"
    return tuple(int(hex6[i : i + 2], 16) for i in (0, 2, 4)) + (255,)


def layer():
    return [[CLEAR] * W for _ in range(H)]


def ridge(base, waves):
    """Top of a silhouette at each x: base + sum of amp * sin(2 pi k x / W + phase), rounded.
    Whole k only, so the ridge wraps seamlessly at x = W."""
    return [
        round(base + sum(a * math.sin(2 * math.pi * k * x / W + p) for k, a, p in waves)) for x in range(W)
    ]


def fill_ridge(img, tops, body, rim=None, rim_px=1, shade=None, shade_from=None):
    """Fill every column from its top down to the bottom: a rim of rim_px rows, then the body;
    below row shade_from (if given) the body is dithered with `shade`, solid 8 rows further."""
    for x, top in enumerate(tops):
        for y in range(max(top, 0), H):
            c = body
            if rim and y < top + rim_px:
                c = rim
            elif shade and shade_from is not None and y >= shade_from:
                c = shade if y >= shade_from + 8 or (x + y) % 2 == 0 else body
            img[y][x] = rgb(c)


def put(img, x, y, c):
    if 0 <= y < H:
        img[y][x % W] = rgb(c)


BAYER4 = ((0, 8, 2, 10), (12, 4, 14, 6), (3, 11, 1, 9), (15, 7, 13, 5))


def gradient(bands, dither=16):
    """Horizontal bands (colour, rows) top to bottom; the last `dither` rows of each band ramp
    into the next colour with a 4 x 4 ordered (Bayer) dither, so the sky fades rather than
    steps (pixel-art banding, ENDESGA 32 having few sky blues)."""
    assert sum(r for _, r in bands) == H, sum(r for _, r in bands)
    img = layer()
    y0 = 0
    for i, (c, rows) in enumerate(bands):
        nxt = bands[i + 1][0] if i + 1 < len(bands) else c
        ramp = min(dither, rows)
        for y in range(y0, y0 + rows):
            into = y - (y0 + rows - ramp)  # rows into the ramp, < 0 before it
            for x in range(W):
                level = 16 * (into + 1) / (ramp + 1) if into >= 0 else 0
                img[y][x] = rgb(nxt if BAYER4[y % 4][x % 4] < level else c)
        y0 += rows
    return img


def pine(img, cx, ground, height, dark, light):
    """A pine tree: a stepped triangle of `height` rows standing on row `ground`, lit left."""
    top = ground - height
    for y in range(top, ground):
        t = y - top
        half = 1 + (t * 5) // (height) + (t % 6) // 3  # wider to the foot, in tiers
        for x in range(cx - half, cx + half + 1):
            put(img, x, y, light if x < cx and (t % 6) < 2 else dark)
    for y in range(ground, ground + 3):  # the trunk
        put(img, cx, y, "3e2731")


def cloud(img, cx, cy, size):
    """A drifting cloud: overlapping round puffs on a flat bottom, white, shaded underneath."""
    puffs = ((-size, size // 3, size * 2 // 3), (0, 0, size), (size, size // 4, size * 3 // 4))
    bottom = cy + size // 2
    for y in range(cy - size, bottom + 1):
        for x in range(cx - 2 * size, cx + 2 * size + 1):
            if any((x - cx - dx) ** 2 + (y - cy - dy) ** 2 <= r * r for dx, dy, r in puffs):
                put(img, x, y, "c0cbdc" if y > bottom - 3 else "ffffff")


def hills_sky():
    grad = gradient([("0099db", 110), ("c0cbdc", 70)], dither=40)
    far = layer()
    fill_ridge(far, ridge(70, [(2, 14, 0.3), (3, 9, 1.7), (7, 3, 0.2)]), "8b9bb4", "c0cbdc", 2, "5a6988", 130)
    near = layer()
    tops = ridge(115, [(1, 10, 2.0), (3, 12, 0.9), (5, 4, 2.5)])
    fill_ridge(near, tops, "3e8948", "63c74d", 2, "265c42", 150)
    for i, x in enumerate(range(7, W, 37)):  # bushes dotted along the near crest
        t = tops[x] + 1
        for dx in range(-3, 4):
            for dy in range(-2 - (i % 2), 1):
                if dx * dx + dy * dy * 3 <= 10:
                    put(near, x + dx, t + dy, "265c42" if dy == 0 else "3e8948")
    return grad, far, near


def forest_sky():
    grad = gradient([("0099db", 80), ("c0cbdc", 50), ("ead4aa", 50)], dither=30)
    far = layer()
    waves = [(2, 16, 0.5), (4, 13, 2.1), (9, 4, 0.0)]
    tops = ridge(60, waves)
    # mountains: peaks sharpened by folding the ridge about row 60, snow above row 52
    tops = [t - abs(t - 60) // 2 for t in tops]
    for x, top in enumerate(tops):
        # light from the left: a slope rising to the right (the ridge's y falling) is lit
        slope = sum(a * k * math.cos(2 * math.pi * k * x / W + p) for k, a, p in waves)
        lit = slope < 0
        for y in range(max(top, 0), H):
            c = "5a6988" if lit else "3a4466"
            if y < 52 and y < top + 8:
                c = "ffffff" if lit else "c0cbdc"
            far[y][x] = rgb(c)
    near = layer()
    fill_ridge(near, [150 + round(2 * math.sin(2 * math.pi * 3 * x / W)) for x in range(W)], "193c3e")
    for i, x in enumerate(range(4, W, 16)):
        height = 34 + (i * 37) % 26
        pine(near, x, 152, height, "193c3e", "265c42")
    for i, x in enumerate(range(12, W, 32)):
        pine(near, x, 156, 22 + (i * 13) % 12, "193c3e", "265c42")
    return grad, far, near


def spike(img, cx, base, length, half, light, dark, down):
    """A rock cone `length` rows long, `half` px wide each side at its base (row `base`),
    pointing down (a stalactite) or up (a stalagmite); lit on its left half."""
    for t in range(length):
        w = half * (length - t) // length
        y = base + t if down else base - t
        for x in range(cx - w, cx + w + 1):
            put(img, x, y, light if x < cx else dark)


def caves_sky():
    grad = gradient([("181425", 80), ("262b44", 60), ("3e2731", 40)])
    # the ceiling: rock and stalactites hanging from the view's top (the gradient is fixed to
    # the view, so the cave's roof stays overhead)
    ceil = ridge(6, [(3, 2, 0.4), (7, 1, 1.3)])
    for x in range(W):
        for y in range(ceil[x]):
            grad[y][x] = rgb("3a4466" if y == ceil[x] - 1 else "262b44")
    for i, cx in enumerate(range(9, W, 20)):
        spike(grad, cx, ceil[cx] - 1, 8 + (i * 7) % 15, 2 + i % 3, "3a4466", "262b44", True)
    far = layer()
    tops = ridge(40, [(2, 12, 1.0), (5, 8, 0.2), (11, 3, 2.2)])
    fill_ridge(far, tops, "262b44", "3a4466", 1, "181425", 150)
    for x in range(W):  # strata in the wall, dithered
        for y in range(tops[x] + 4, H):
            if (y - tops[x]) % 17 == 0 and (x + y) % 2 == 0:
                far[y][x] = rgb("3a4466")
    for x in range(0, W, 29):  # cracks and a few crystal glints
        for y in range(tops[x] + 12, tops[x] + 40):
            put(far, x + (y // 5) % 2, y, "181425")
        put(far, x + 9, tops[x] + 20, "0099db")
        put(far, x + 10, tops[x] + 21, "2ce8f5")
    near = layer()
    floor = ridge(160, [(4, 3, 0.7), (9, 2, 0.1)])
    fill_ridge(near, floor, "3e2731", "733e39", 1, "181425", 172)
    for i, cx in enumerate(range(24, W, 64)):  # tall stalagmite pillars
        spike(near, cx, 166, 90 + (i * 29) % 50, 11 + i % 3 * 2, "733e39", "3e2731", False)
    for i, cx in enumerate(range(52, W, 32)):  # small ones between
        spike(near, cx, 164, 12 + (i * 11) % 18, 4 + i % 2, "733e39", "3e2731", False)
    return grad, far, near


def tower_sky():
    grad = gradient([("124e89", 60), ("0099db", 60), ("c0cbdc", 60)], dither=30)
    far = layer()
    tops = ridge(100, [(3, 8, 0.0), (5, 6, 1.1), (8, 4, 2.9)])
    tops = [t - round(abs(5 * math.sin(math.pi * 10 * x / W))) for x, t in enumerate(tops)]  # puffs
    fill_ridge(far, tops, "ffffff", "ffffff", 1, "8b9bb4", 130)
    near = layer()
    for cx, cy, s in ((30, 40, 9), (120, 90, 12), (205, 30, 8), (270, 125, 13), (325, 160, 10)):
        cloud(near, cx, cy, s)
    return grad, far, near


def dusk_sky():
    bands = [("68386c", 40), ("b55088", 40), ("f6757a", 40), ("f77622", 35), ("feae34", 25)]
    grad = gradient(bands)
    for y in range(106, 140):  # the setting sun (fixed to the view, as the sky)
        for x in range(200, 240):
            if (x - 220) ** 2 + (y - 122) ** 2 <= 15**2:
                grad[y][x] = rgb("fee761")
    far = layer()
    fill_ridge(far, ridge(95, [(2, 12, 2.2), (3, 10, 0.6), (6, 5, 1.9)]), "b55088", "f6757a", 1, "68386c", 150)
    near = layer()
    fill_ridge(near, ridge(130, [(1, 9, 0.4), (4, 10, 2.7), (7, 3, 1.0)]), "3e2731", "68386c", 1, "181425", 160)
    return grad, far, near


DRAW = {"hills": hills_sky, "forest": forest_sky, "caves": caves_sky, "tower": tower_sky, "dusk": dusk_sky}


def check(name, band, img):
    assert len(img) == H and all(len(r) == W for r in img), (name, band)
    if band == "gradient":
        assert all(px[3] == 255 for r in img for px in r), f"{name} gradient must be opaque"
        return
    assert all(px[3] in (0, 255) for r in img for px in r), f"{name} {band}: alpha 0 or 255 only"
    if band == "far":  # it rests on the view's bottom edge and hides the gradient there
        assert all(px[3] == 255 for px in img[H - 1]), f"{name} far: the bottom row must be opaque"
    # Seamless: the step from the last column into the first changes no more pixels' opacity
    # than the largest step between two neighbouring columns inside the layer.
    step = lambda a, b: sum(img[y][a][3] != img[y][b][3] for y in range(H))  # noqa: E731
    worst = max(step(x, x + 1) for x in range(W - 1))
    assert step(W - 1, 0) <= worst, f"{name} {band} does not wrap: seam {step(W - 1, 0)} > {worst}"


def build():
    sheet = []
    layers = {}
    for name in SKIES:
        grad, far, near = DRAW[name]()
        for band, img in (("gradient", grad), ("far", far), ("near", near)):
            check(name, band, img)
            sheet += [list(img[0])] + [list(r) for r in img] + [list(img[H - 1])]
        layers[name] = (grad, far, near)
    return sheet, layers


def load_atlas_module():
    sys.dont_write_bytecode = True  # no __pycache__ in scripts/
    spec = importlib.util.spec_from_file_location("make_atlas", os.path.join(ROOT, "scripts", "make-atlas.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def preview(path, layers, scale, write_png):
    """Each sky at the bottom of a level: the 640 x 360 view, gradient stretched 2x, the far
    and near layers resting on the view's bottom edge, repeated; the skies side by side."""
    views = []
    for name in SKIES:
        grad, far, near = layers[name]
        view = [[grad[y // 2][x // 2] for x in range(640)] for y in range(360)]
        for img in (far, near):
            for y in range(H):
                for x in range(640):
                    px = img[y][x % W]
                    if px[3]:
                        view[360 - H + y][x] = px
        views.append(view)
    rows = []
    for y in range(360):
        row = []
        for v in views[:3]:
            row += v[y] + [rgb("181425")] * 8
        rows.append(row)
    for y in range(8):
        rows.append([rgb("181425")] * len(rows[0]))
    for y in range(360):
        row = []
        for v in views[3:]:
            row += v[y] + [rgb("181425")] * 8
        rows.append(row + [rgb("181425")] * (len(rows[0]) - len(row)))
    scaled = []
    for row in rows:
        srow = [px for px in row for _ in range(scale)]
        scaled.extend([srow] * scale)
    write_png(path, scaled)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preview", help="also write the skies composed as the game draws them here")
    parser.add_argument("--scale", type=int, default=1, help="preview scale (default 1)")
    args = parser.parse_args()
    atlas = load_atlas_module()
    sheet, layers = build()
    path = os.path.join(ROOT, "assets", "sprites", "skies.png")
    atlas.write_png(path, sheet)
    print(f"wrote {path} ({W}x{len(sheet)}: {len(SKIES)} skies x gradient, far, near)")
    if args.preview:
        preview(args.preview, layers, args.scale, atlas.write_png)
        print(f"wrote preview {args.preview}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
