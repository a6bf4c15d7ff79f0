#!/usr/bin/env python3
"""Draw Ledge's pixel-art atlas and write its Tiled tileset.

Writes (relative to the repository root):

  assets/sprites/atlas.png    RGBA8, 144 x 160 px
  assets/tilesets/ledge.tsx   Tiled 1.10 tileset over the atlas's tile rows

Standard library only (the PNG is written with zlib + struct). Run it from anywhere:

  python3 scripts/make-atlas.py [--preview OUT.png] [--scale N]

`--preview` also writes a scaled-up sheet (the atlas on a sky background, plus a small mock
scene built from the tiles) for judging the art by eye.

Layout (must match src/render/atlas.rs; its tests check the PNG size and the .tsx):

  * every cell is padded by a 1 px border that repeats the cell's edge pixels outward, so a
    sampler reading at fractional positions never bleeds a neighbour's pixels in;
  * tiles: 16 x 16 px, 8 columns x 3 rows, stride 18 px; tile i's inner top-left is
    (1 + 18 * (i % 8), 1 + 18 * (i // 8)) - Tiled's margin 1, spacing 2;
  * player: 16 x 24 px frames in one row below the tiles, stride 18 x 26 px; frame f's inner
    top-left is (1 + 18 * f, 55). Frames: idle, run 0-3, jump (rising), fall, wall slide
    (pressed against a wall on the right, one hand up on it, sliding down);
  * entities: 16 x 16 px cells (a few use only their top 8 rows) below the player row, 8
    columns, stride 18 px; cell e's inner top-left is (1 + 18 * (e % 8), 81 + 18 * (e // 8)).
    Cells: moving platform left/middle/right, one-way platform left/middle/right (16 x 8),
    spring idle/compressed (16 x 8), crumbling block whole/cracked/breaking, saw blade, walker
    walk 0-3, walker squashed;
  * the image is 160 px tall, twice the 80 px of the tile and player rows, so the normalised v
    of every older cell is exactly half what it was (a power-of-two scale is exact in floating
    point) and frames drawn before the entity cells existed come out bit for bit the same.

Palette: a subset of ENDESGA 32 (https://lospec.com/palette-list/endesga-32).
"""

import argparse
import os
import struct
import sys
import zlib

# --------------------------------------------------------------------------------------------
# Palette: one character per colour ('.' is transparent).

PALETTE_HEX = {
    "k": "181425",  # outline, darkest
    # earth
    "d": "3e2731",  # dirt shadow
    "m": "733e39",  # dirt
    "b": "b86f50",  # dirt light / wood
    "c": "c28569",  # skin shade / pebble
    "e": "e4a672",  # wood highlight
    "p": "e8b796",  # skin
    "q": "ead4aa",  # parchment, pale
    # greens
    "G": "265c42",  # grass dark
    "g": "3e8948",  # grass
    "l": "63c74d",  # grass light
    "C": "193c3e",  # deep green-black (bush outline)
    # stone / metal
    "n": "262b44",  # stone darkest
    "s": "3a4466",  # stone dark
    "t": "5a6988",  # stone
    "u": "8b9bb4",  # stone light
    "v": "c0cbdc",  # stone highlight
    "w": "ffffff",  # white
    # warm
    "R": "a22633",  # red dark
    "r": "e43b44",  # red
    "o": "f77622",  # orange
    "Y": "feae34",  # yellow-orange
    "z": "fee761",  # yellow
    # cool
    "B": "124e89",  # blue dark
    "i": "0099db",  # blue
    "j": "2ce8f5",  # cyan
    "x": "68386c",  # purple
}

SKY = "8fd3ff"  # preview background only; the game's clear colour is the renderer's

PALETTE = {k: tuple(int(v[i : i + 2], 16) for i in (0, 2, 4)) + (255,) for k, v in PALETTE_HEX.items()}
PALETTE["."] = (0, 0, 0, 0)

TILE = 16
PAD = 1
STRIDE = TILE + 2 * PAD  # 18
COLUMNS = 8
PLAYER_W, PLAYER_H = 16, 24
PLAYER_STRIDE_Y = PLAYER_H + 2 * PAD  # 26
ATLAS_HEIGHT = 160  # 2 x the tile and player rows' 80 px (see the docstring)


# --------------------------------------------------------------------------------------------
# Tiny image helpers: an image is a list of rows of palette characters.


def grid(rows):
    """Rows of palette characters -> mutable grid; checks the alphabet and that rows are even."""
    out = [list(r) for r in rows]
    width = len(out[0])
    for y, row in enumerate(out):
        assert len(row) == width, f"row {y} has {len(row)} px, expected {width}: {''.join(row)}"
        for ch in row:
            assert ch in PALETTE, f"unknown colour {ch!r} in row {y}"
    return out


def blank(w, h):
    return [["."] * w for _ in range(h)]


def copy(img):
    return [list(r) for r in img]


def paste(dst, src, x0, y0):
    """Draw src over dst at (x0, y0); transparent pixels of src leave dst as it is."""
    for y, row in enumerate(src):
        for x, ch in enumerate(row):
            if ch != "." and 0 <= y0 + y < len(dst) and 0 <= x0 + x < len(dst[0]):
                dst[y0 + y][x0 + x] = ch


def hflip(img):
    return [list(reversed(r)) for r in img]


def recolor(img, mapping):
    return [[mapping.get(ch, ch) for ch in row] for row in img]


# --------------------------------------------------------------------------------------------
# Tiles (16 x 16). Hand-drawn bases, edge variants derived from them.

DIRT = grid(
    [
        "mmmmmmmmmmmmmmmm",
        "mmmmmmmmmmmmdmmm",
        "mmbmmmmmmmmmmmmm",
        "mdbcmmmmmmmmmmmm",
        "mmddmmmmmdmmmmmm",
        "mmmmmmmmmmmmmmbm",
        "mmmmmmmmmmmmmbcm",
        "mmmmmmmmmmmmmddm",
        "mmmmmmbbmmmmmmmm",
        "mmmmmbccbmmmmmmm",
        "mmmmmdbbdmmmmmmm",
        "mdmmmmddmmmmmdmm",
        "mmmmmmmmmmmmmmmm",
        "mmmmmmmmmmbmmmmm",
        "mmmbmmmmmbcdmmmm",
        "mmmmmmdmmmddmmmm",
    ]
)

DIRT_ALT = grid(  # the same soil with a buried stone, to break up repetition
    [
        "mmmmmmmmmmmmmmmm",
        "mmmmmmmmmmmmmmmm",
        "mmmbmmmmmmmmmdmm",
        "mmmmmmmmmmmmmmmm",
        "mmmmmddddddmmmmm",
        "mmmmdtuuuutdmmmm",
        "mmmdtuvvuuttdmmm",
        "mmmdtuuuutttdmmm",
        "mmmdttuttttsdmmm",
        "mmmmdtttttsdmmmm",
        "mmmmmddddddmmmmm",
        "mbmmmmmmmmmmmmmm",
        "mmmmmmmmmmmmmbmm",
        "mmmmmmmmmmmmbcdm",
        "mmmmdmmmmmmmmddm",
        "mmmmmmmmmmmmmmmm",
    ]
)

# Grass cap: drawn over the dirt. Depth of the grass per column (rows 0..depth-1 are grass),
# so its lower edge is ragged; the last grass row is the dark shade.
GRASS_DEPTH = [5, 4, 4, 5, 6, 5, 4, 4, 5, 4, 4, 5, 6, 5, 4, 4]
GRASS_TOP_ROWS = [
    "llllllllllllllll",
    "lglllllllglllllg",
]


def grass_cap(base, left_edge=False, right_edge=False):
    img = copy(base)
    for x in range(TILE):
        depth = GRASS_DEPTH[x]
        for y in range(depth):
            if y < len(GRASS_TOP_ROWS):
                ch = GRASS_TOP_ROWS[y][x]
            elif y == depth - 1:
                ch = "G"
            else:
                ch = "g"
            img[y][x] = ch
        # a dark soil line right under the grass gives the cap some depth
        img[depth][x] = "d"
    # a few bright blades poking up at the top row
    for x in (2, 7, 11):
        img[0][x] = "l"
    if left_edge:
        edge_left(img, grass=True)
    if right_edge:
        img = hflip(img)
        edge_left(img, grass=True)
        img = hflip(img)
    return img


def edge_left(img, grass=False):
    """Give the tile a finished left side: an outline column and a shaded column inside it."""
    for y in range(TILE):
        top_grass = grass and img[y][0] in "lgG"
        img[y][0] = "C" if top_grass else "k"
        if img[y][1] not in "lgG":
            img[y][1] = "d"
    if grass:
        # round the corner: cut the outer pixel, and let the grass overhang the side a little
        img[0][0] = "."
        img[0][1] = "C"
        img[1][0] = "C"
        for y in range(1, 5):
            img[y][1] = "g" if y < 4 else "G"
        img[1][1] = "l"


def edge(base, left=False, right=False):
    img = copy(base)
    if left:
        edge_left(img)
    if right:
        img = hflip(img)
        edge_left(img)
        img = hflip(img)
    return img


BRICK = [  # one 8 x 8 stone brick, lit from the upper left, mortar on its right and bottom
    "vvvvvvun",
    "vuuuuutn",
    "vutttttn",
    "vutttttn",
    "vutttttn",
    "vuttttsn",
    "utsssssn",
    "nnnnnnnn",
]
# stone bricks, the lower course offset by half a brick: a solid block for floating platforms
BLOCK = grid([r * 2 for r in BRICK] + [(r * 2)[4:12] + (r * 2)[4:12] for r in BRICK])

PLANK = grid(  # one-way platform: a wooden plank, only its top 5 px drawn
    [
        "eeeeeeeeeeeeeeee",
        "bbebbbbbbbbbebbb",
        "bbbbbbkbbbbbbbbb",
        "mbbbbbbbbbbbbbbm",
        "dmmmmmmmmmmmmmmd",
        "....m......m....",
        "....d......d....",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
    ]
)

PLANK_LEFT = grid(
    [
        ".eeeeeeeeeeeeeee",
        "kbbebbbbbbbbbebb",
        "kbkbbbbbbbbbbbbb",
        "kmbbbbbbbbbbbbbb",
        ".dmmmmmmmmmmmmmm",
        "..dm.......m....",
        "...d.......d....",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
    ]
)


def spike_row_shape():
    """Two outlined spikes, 8 px wide each, filling the lower 10 px of the tile."""
    rows = []
    # (first filled column, last filled column) per row for one 8 px spike, tip at y = 6
    spans = [(3, 4), (3, 4), (3, 4), (2, 5), (2, 5), (1, 6), (1, 6), (0, 7)]
    img = blank(TILE, TILE)
    for half in (0, 8):
        for i, (a, b) in enumerate(spans):
            y = 6 + i
            for x in range(a, b + 1):
                # lit from the upper left: light on the left half, shade on the right
                if i == 0:
                    ch = "w" if x == a else "v"
                elif x < 3 + (1 if i > 4 else 0) - (1 if i > 2 else 0):
                    ch = "v"
                elif x <= 3:
                    ch = "v" if x == a else "u"
                else:
                    ch = "u" if x == 4 else "t"
                img[y][half + x] = ch
            # outline just outside the span (the base row needs none)
            if i < len(spans) - 1:
                if a - 1 >= 0:
                    img[y][half + a - 1] = "n"
                if b + 1 < 8:
                    img[y][half + b + 1] = "n"
        img[5][half + 3] = "n"
        img[5][half + 4] = "n"
    for x in range(TILE):  # the rail the spikes are bolted to
        img[14][x] = "s" if x % 4 else "t"
        img[15][x] = "n"
    img[14][0] = "n"
    img[14][15] = "n"
    del rows
    return img


SPIKES = spike_row_shape()

FLAG_UNLIT = grid(
    [
        "...nn...........",
        "...nun..........",
        "...vtuuuuun.....",
        "...vtvuuuuun....",
        "...vtuvuuuuun...",
        "...vttuuuttun...",
        "...vtsttttsn....",
        "...vt.nnnnn.....",
        "...vt...........",
        "...vt...........",
        "...vt...........",
        "...vt...........",
        "...vt...........",
        "..nssn..........",
        ".nsttsn.........",
        ".nnnnnn.........",
    ]
)

FLAG_LIT = grid(
    [
        "..zYz...........",
        "..YzY...........",
        "...vtrrrrrR.....",
        "...vtoYYorrR..z.",
        "...vtozzYoorR...",
        "...vtoYYoorrRR..",
        "...vtrorrrRR....",
        "...vtRRR........",
        "...vt........Y..",
        "...vt...........",
        "...vt...........",
        "...vt...........",
        "...vt...........",
        "..nssn..........",
        ".nsttsn.........",
        ".nnnnnn.........",
    ]
)

GOAL_DOOR = grid(  # an arched portal: touching it ends the level
    [
        ".....nnnnnn.....",
        "...nnuvvvvunn...",
        "..nuvtBBBBtvun..",
        ".nuvBBiiiiBBvun.",
        ".nvBiijjjjiiBvn.",
        "nuvBijjwwjjiBvun",
        "nutBijwjjwjiBtun",
        "nutBijjwwjjiBtun",
        "nutBiijjjjiiBtun",
        "nutBBiijjiiBBtun",
        "nutxBBiiiiBBxtun",
        "nutxxBBBBBBxxtun",
        "nutxxxxxxxxxxtun",
        "nvttttttttttttvn",
        "nuvvvvvvvvvvvvun",
        "nnnnnnnnnnnnnnnn",
    ]
)

BUSH = grid(
    [
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        ".....CCCC.......",
        "...CCgllgCCCC...",
        "..CgllllgglllC..",
        ".CglllgggglllgC.",
        ".CgllgggggglggC.",
        "CggggggGgggggggC",
        "CgGgggGGGgggGggC",
        "CGGGgGGGGGGGGGGC",
        ".CGGGGGGGGGGGGC.",
        "..CCCCCCCCCCCC..",
    ]
)

TUFT = grid(
    [
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "..........l.....",
        "...l.....lg.....",
        "...gl..l.gl..l..",
        "..lgg..gllg.lg..",
        ".lgGg.lgGgGlgG..",
        ".GGGG.GGGGGGGG..",
    ]
)

FLOWERS = grid(
    [
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "..r.............",
        ".rzr.......w....",
        "..r.......wzw...",
        "..g...Y....w....",
        "..g..YzY...g....",
        "..gl..Y...lg....",
        ".lgg..g..lgG.l..",
        ".GGG.GGG.GGG.G..",
    ]
)

CLOUD_LEFT = grid(
    [
        "................",
        "................",
        "................",
        "..........uuuu..",
        ".........uwwwwvu",
        "....uuuuuwwwwwww",
        "...uwwwwwwwwwwww",
        "..uwwwwwwwwwwwww",
        ".uwwwwwwwwwwwwww",
        "uvwwwwwwwwwwwwww",
        "uvvwwwwwwwwwwwww",
        "uvvvvvwwwwwwvvvv",
        ".uuvvvvvvvvvvvvv",
        "..uuuuuuuuuuuuuu",
        "................",
        "................",
    ]
)

CLOUD_RIGHT = grid(
    [
        "................",
        "....uuu.........",
        "...uwwwvu.......",
        "..uwwwwwwu......",
        "uuwwwwwwwvu.....",
        "wwwwwwwwwwvu....",
        "wwwwwwwwwwwvuu..",
        "wwwwwwwwwwwwwvu.",
        "wwwwwwwwwwwwwwvu",
        "wwwwwwwwwwwwwwvu",
        "wwwwwwwwwwwwwvvu",
        "vvwwwwwwwvvvvvvu",
        "vvvvvvvvvvvvvuu.",
        "uuuuuuuuuuuuu...",
        "................",
        "................",
    ]
)

SIGN = grid(  # a wooden arrow sign pointing right: "this way"
    [
        "................",
        "................",
        "................",
        "................",
        "..kkkkkkkkk.....",
        "..keeeeeqeek....",
        "..kbbbbbbqbbk...",
        "..kbqqqqqqqbbbk.",
        "..kbbbbbbqbbk...",
        "..kmmmmmqmmk....",
        "..kkkkbmkkk.....",
        "......bm........",
        "......bm........",
        "......bm........",
        ".....Gbmg.......",
        "....GGdmGG......",
    ]
)

DEEP = recolor(DIRT, {"m": "d", "d": "k", "b": "m", "c": "b"})  # deeper soil, darker

# Index order is the Tiled local tile id and `Level.gfx` value; keep in step with
# src/render/atlas.rs. (name, image, kind) - kind is the .tsx `kind` property, None = decoration.
TILES = [
    # row 0: ground
    ("GROUND_TOP", grass_cap(DIRT), "solid"),
    ("GROUND_TOP_LEFT", grass_cap(DIRT, left_edge=True), "solid"),
    ("GROUND_TOP_RIGHT", grass_cap(DIRT, right_edge=True), "solid"),
    ("GROUND_TOP_SINGLE", grass_cap(DIRT, left_edge=True, right_edge=True), "solid"),
    ("GROUND_FILL", copy(DIRT), "solid"),
    ("GROUND_FILL_LEFT", edge(DIRT, left=True), "solid"),
    ("GROUND_FILL_RIGHT", edge(DIRT, right=True), "solid"),
    ("GROUND_FILL_ALT", copy(DIRT_ALT), "solid"),
    # row 1: blocks, platforms, hazards, objects
    ("BLOCK", BLOCK, "solid"),
    ("ONEWAY_LEFT", PLANK_LEFT, "oneway"),
    ("ONEWAY", PLANK, "oneway"),
    ("ONEWAY_RIGHT", hflip(PLANK_LEFT), "oneway"),
    ("HAZARD", SPIKES, "hazard"),
    ("CHECKPOINT", FLAG_UNLIT, None),
    ("CHECKPOINT_LIT", FLAG_LIT, None),
    ("GOAL", GOAL_DOOR, None),
    # row 2: decoration
    ("BUSH", BUSH, None),
    ("GRASS_TUFT", TUFT, None),
    ("FLOWERS", FLOWERS, None),
    ("CLOUD_LEFT", CLOUD_LEFT, None),
    ("CLOUD_RIGHT", CLOUD_RIGHT, None),
    ("SIGN", SIGN, None),
    ("GROUND_DEEP", DEEP, "solid"),
    ("GROUND_DEEP_ALT", recolor(DIRT_ALT, {"m": "d", "d": "k", "b": "m", "c": "b"}), "solid"),
]

# --------------------------------------------------------------------------------------------
# Player (16 x 24, facing right). The 12 x 22 hitbox is bottom-centred: columns 2..13,
# rows 2..23. Built from a head, a torso and leg/arm poses so every frame stays on model.

HEAD = grid(  # 10 rows: red cap with a brim to the right, dark hair behind, one eye
    [
        ".....kkkkkk.....",
        "....krrrrrrkk...",
        "...krrwwrrrrrk..",
        "...krwrrrrrrrRk.",
        "...kRRRRRRRRRRRk",
        "...kkkkkkkkkkkk.",
        "...kdppppppkppk.",
        "...kdppppppkppk.",
        "...kdcppppppppk.",
        "....kkcpppppck..",
    ]
)

TORSO = grid(  # 7 rows: scarf knot, blue shirt, belt
    [
        "....krrrrrrk....",
        "...kRRrrrrRRk...",
        "...kijiiiiiik...",
        "...kiiiiiiiBk...",
        "...kiiiiiiiBk...",
        "...kBBBBBBBBk...",
        "...knnnnnnnnk...",
    ]
)

LEGS_STAND = grid(  # 5 rows
    [
        "....ksssksssk...",
        "....ksssksssk...",
        "....ksssksssk...",
        "...knnnkknnnnk..",
        "...kkkkkkkkkkk..",
    ]
)
# run cycle legs: stride, passing, stride (other leg), passing
LEGS_RUN = [
    grid(
        [
            "...ksssksssk....",
            "..ksssk.kssssk..",
            ".knnsk...ksssk..",
            ".knnk....knnnnk.",
            "..kk.....kkkkk..",
        ]
    ),
    grid(
        [
            "....ksssssk.....",
            "....ksssssk.....",
            "....kskssnnk....",
            "....knnnnnnk....",
            "....kkkkkkkk....",
        ]
    ),
    grid(
        [
            "...ksssksssk....",
            "..ksssk.kssssk..",
            ".kssk....kssnk..",
            "knnnk.....knnnk.",
            "kkkk.......kkk..",
        ]
    ),
    grid(
        [
            ".....ksssssk....",
            ".....ksssssk....",
            "....knnksssk....",
            "....kkk.knnnnk..",
            "........kkkkk...",
        ]
    ),
]
LEGS_JUMP = grid(  # knees tucked
    [
        "...kssssssssk...",
        "..ksssk.ksssk...",
        "..knnk..knnnk...",
        "..kkk....kkk....",
        "................",
    ]
)
LEGS_WALL = grid(  # wall slide: the front knee bent, its foot braced on the wall (right)
    [
        "....ksssssssk...",
        "....ksssk.ksssk.",
        "....kssk..kssnk.",
        "...knnnk...knnk.",
        "...kkkk.....kkk.",
    ]
)
LEGS_FALL = grid(  # legs apart, reaching for the ground
    [
        "....ksssssssk...",
        "...ksssk.ksssk..",
        "...kssk...kssk..",
        "..knnnk...knnnk.",
        "..kkkk....kkkk..",
    ]
)

# arms: (image, x, y relative to the torso top)
ARM_IDLE = (grid([".kk.", "kiBk", "kiBk", "kBBk", "kppk", ".kk."]), 6, 1)
ARM_FWD = (grid([".kk...", "kiBkk.", ".kiBpk", "..kppk", "...kk."]), 7, 1)
ARM_BACK = (grid(["..kk.", ".kiBk", "kiBk.", "kppk.", ".kk.."]), 3, 1)
ARM_MID = (grid([".kk.", "kiBk", "kBBk", "kppk", ".kk."]), 6, 1)
ARM_SWEPT = (grid(["..kkk", ".kiBk", "kiBk.", "kpk..", ".k..."]), 2, 1)
ARM_REACH = (grid(["...kk", "..kpk", ".kBk.", "kiBk.", "kBk.."]), 11, -2)
# wall slide: the forward hand raised flat against the wall at the sprite's right edge
ARM_WALL = (
    grid([".kk", "kpk", "kpk", "kBk", "kik", "kik", "kik", "kik", "kBk", "kBk", ".k."]),
    13,
    -10,
)

# scarf tails behind the neck, by pose: (image, x, y relative to the torso top)
SCARF = {
    "idle": (grid(["kk.", "kRk", "kRk", ".k."]), 2, 0),
    "run": (grid(["kkkk", "rrRk", "kkk."]), 0, 0),
    "jump": (grid(["kkk", "rRk", "Rk.", "k.."]), 1, 0),
    "fall": (grid(["k...", "rk..", "Rrkk", ".kRk"]), 0, -3),
}


def player_frame(legs, arm, scarf, bob=0):
    """Legs at the bottom, torso and head above them moved by `bob` px (positive: down)."""
    img = blank(PLAYER_W, PLAYER_H)
    torso_y = PLAYER_H - 5 - 7 + 1 + bob  # the belt row overlaps the top leg row
    paste(img, legs, 0, PLAYER_H - 5)
    s_img, sx, sy = SCARF[scarf]
    paste(img, s_img, sx, torso_y + sy)
    paste(img, TORSO, 0, torso_y)
    paste(img, HEAD, 0, torso_y - 10)
    a_img, ax, ay = arm
    paste(img, a_img, ax, torso_y + ay)
    return img


PLAYER_FRAMES = [
    ("idle", player_frame(LEGS_STAND, ARM_IDLE, "idle")),
    ("run0", player_frame(LEGS_RUN[0], ARM_FWD, "run", bob=1)),
    ("run1", player_frame(LEGS_RUN[1], ARM_MID, "run")),
    ("run2", player_frame(LEGS_RUN[2], ARM_BACK, "run", bob=1)),
    ("run3", player_frame(LEGS_RUN[3], ARM_MID, "run")),
    ("jump", player_frame(LEGS_JUMP, ARM_SWEPT, "jump", bob=-1)),
    ("fall", player_frame(LEGS_FALL, ARM_REACH, "fall")),
    ("wallslide", player_frame(LEGS_WALL, ARM_WALL, "fall")),
]


# --------------------------------------------------------------------------------------------
# Entities (16 x 16 cells, facing right; src/present/atlas.rs ENTITY_* in the same order).
# Moving things get the same dark outline as the tiles and the player, and a yellow-black
# stripe (a machine) or a colour of their own, so they read apart from the static tiles.

MACHINE_MID = grid(  # a riveted steel slab with a hazard stripe: a solid moving platform
    [
        "kkkkkkkkkkkkkkkk",
        "vvvvvvvvvvvvvvvv",
        "uuuuuuuuuuuuuuuu",
        "uuunuuuuuuunuuuu",
        "tttttttttttttttt",
        "kkkkkkkkkkkkkkkk",
        "zzkkzzkkzzkkzzkk",
        "zkkzzkkzzkkzzkkz",
        "kkzzkkzzkkzzkkzz",
        "kzzkkzzkkzzkkzzk",
        "kkkkkkkkkkkkkkkk",
        "tttttttttttttttt",
        "tttnttttttttnttt",
        "ssssssssssssssss",
        "nnnnnnnnnnnnnnnn",
        "kkkkkkkkkkkkkkkk",
    ]
)


def machine_end(base, light):
    """A platform's end piece: an outline column and a lit (left) or shaded (right) column
    inside it, corners cut round. Drawn as a left end; the caller mirrors the right one."""
    img = copy(base)
    for y in range(TILE):
        img[y][0] = "k"
        if 1 <= y <= 13 and img[y][1] not in "zk":
            img[y][1] = light
    img[0][0] = "."
    img[TILE - 1][0] = "."
    return img


LIFT_MID = grid(  # a one-way lift: a plank on steel brackets, only its top edge carries
    [
        "kkkkkkkkkkkkkkkk",
        "eeeeeeeeeeeeeeee",
        "bbbbbbbbbbbbbbbb",
        "bbbmbbbbbbbbmbbb",
        "mmmmmmmmmmmmmmmm",
        "kkkkkkkkkkkkkkkk",
        "..kzk......kzk..",
        "...k........k...",
    ]
)


def lift_end(base):
    img = copy(base)
    for y in range(6):
        img[y][0] = "k"
    img[1][1] = "e"
    img[0][0] = "."
    img[5][0] = "."
    img[6] = list("kzk.....") + img[6][8:]
    img[7] = list(".k......") + img[7][8:]
    return img


SPRING_IDLE = grid(  # red pad on a steel coil (16 x 8, the spring's whole box)
    [
        ".kkkkkkkkkkkkkk.",
        ".krrrrrrrrrrrrk.",
        ".kRRRRRRRRRRRRk.",
        "..kkkkkkkkkkkk..",
        "...kvvvvvvvvk...",
        "...kttttttttk...",
        ".kkkkkkkkkkkkkk.",
        ".kssssssssssssk.",
    ]
)

SPRING_DOWN = grid(  # the pad pressed onto the base, the coil squeezed flat
    [
        "................",
        "................",
        ".kkkkkkkkkkkkkk.",
        ".krrrrrrrrrrrrk.",
        ".kRRRRRRRRRRRRk.",
        "..kvvvvvvvvvvk..",
        ".kkkkkkkkkkkkkk.",
        ".kssssssssssssk.",
    ]
)


def sandstone():
    """A whole crumbling block: pale sandstone with a bevel, set apart from the grey bricks."""
    img = blank(TILE, TILE)
    for y in range(TILE):
        for x in range(TILE):
            edge = x in (0, TILE - 1) or y in (0, TILE - 1)
            if edge:
                ch = "k"
            elif x == 1 or y == 1:
                ch = "q"
            elif x == TILE - 2 or y == TILE - 2:
                ch = "b"
            else:
                ch = "c"
            img[y][x] = ch
    for x, y in ((4, 4), (10, 6), (6, 10), (12, 11), (3, 12)):  # specks
        img[y][x] = "e"
    for x, y in ((9, 3), (5, 7), (11, 12)):
        img[y][x] = "b"
    for corner in ((0, 0), (15, 0), (0, 15), (15, 15)):
        img[corner[1]][corner[0]] = "."
    return img


CRUMBLE_WHOLE = sandstone()
CRACK = [(8, 1), (8, 2), (7, 3), (7, 4), (8, 5), (9, 6), (9, 7), (8, 8), (7, 9)]
CRACK_MORE = CRACK + [(6, 10), (6, 11), (5, 12), (10, 6), (11, 5), (12, 5), (8, 9), (9, 10),
                      (10, 11), (10, 12), (3, 6), (4, 6), (5, 7), (6, 7), (2, 5)]


def cracked(points, chipped=()):
    img = copy(CRUMBLE_WHOLE)
    for x, y in points:
        img[y][x] = "d"
    for x, y in chipped:  # bits already fallen off
        img[y][x] = "."
    return img


CRUMBLE_CRACKED = cracked(CRACK)
CRUMBLE_BREAKING = cracked(
    CRACK_MORE,
    chipped=[(1, 0), (2, 0), (1, 1), (0, 1), (14, 0), (13, 0), (14, 1), (15, 1), (15, 14),
             (14, 15), (13, 15), (0, 14), (1, 15)],
)


def saw_blade():
    """A round steel blade with 8 raked teeth and a dark hub (drawn upright; the renderer
    turns it). Teeth: the outer radius ramps from 5.5 to 7.9 px around each eighth."""
    import math

    img = blank(TILE, TILE)
    for y in range(TILE):
        for x in range(TILE):
            dx, dy = x + 0.5 - 8, y + 0.5 - 8
            r = math.hypot(dx, dy)
            a = (math.atan2(dy, dx) / (2 * math.pi)) % 1.0
            outer = 5.5 + 2.4 * ((a * 8) % 1.0)
            if r >= outer:
                continue
            if r > outer - 1.0:
                ch = "n"
            elif r < 1.5:
                ch = "v"
            elif r < 2.6:
                ch = "k"
            elif r < 3.6:
                ch = "s"
            else:
                ch = "v" if dx + dy < -2.5 else ("u" if dx + dy < 2.5 else "t")
            img[y][x] = ch
    return img


SAW = saw_blade()

WALKER_BODY = grid(  # a purple shell beetle with one yellow-rimmed eye looking right
    [
        "....kkkkkkk.....",
        "...kxxxxxxxk....",
        "..kxxvxxxxxxk...",
        ".kxxvvxxxxxxxk..",
        ".kxxxxxxxxzzzk..",
        "kxxxxxxxxzwkwzk.",
        "kxxxxxxxxzwwwzk.",
        "kxxxxxxxxxzzzxk.",
        "kxxxxxxxxxxxxxk.",
        ".kxxxxxxxxxxxk..",
        "..kkkkkkkkkkk...",
    ]
)
WALKER_FEET = [
    grid(["..kk......kk....", ".knnk....knnk...", ".kkkk....kkkk..."]),
    grid(["....kk..kk......", "...knnkknnk.....", "...kkkkkkkk....."]),
    grid(["...kk......kk...", "..knnk....knnk..", "..kkkk....kkkk.."]),
]


def walker_frame(feet, bob):
    img = blank(TILE, TILE)
    paste(img, feet, 0, TILE - 3)
    paste(img, WALKER_BODY, 0, 2 + bob)
    return img


WALKER_SQUASHED = grid(
    [
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "...kkkkkkkkkk...",
        ".kkxxvxxxxxxxkk.",
        "kxxxxxxxxkxkxxxk",
        "kxxxxxxxxxkxxxxk",
        "kxxxxxxxxkxkxxxk",
        ".kkkkkkkkkkkkkk.",
    ]
)

# Index order is the entity cell index; keep in step with src/present/atlas.rs (ENTITY_*).
ENTITIES = [
    ("PLATFORM_LEFT", machine_end(MACHINE_MID, "v")),
    ("PLATFORM_MID", MACHINE_MID),
    ("PLATFORM_RIGHT", hflip(machine_end(hflip(MACHINE_MID), "s"))),
    ("ONEWAY_PLATFORM_LEFT", lift_end(LIFT_MID)),
    ("ONEWAY_PLATFORM_MID", LIFT_MID),
    ("ONEWAY_PLATFORM_RIGHT", hflip(lift_end(LIFT_MID))),
    ("SPRING_IDLE", SPRING_IDLE),
    ("SPRING_COMPRESSED", SPRING_DOWN),
    ("CRUMBLE_WHOLE", CRUMBLE_WHOLE),
    ("CRUMBLE_CRACKED", CRUMBLE_CRACKED),
    ("CRUMBLE_BREAKING", CRUMBLE_BREAKING),
    ("SAW", SAW),
    ("WALKER_WALK0", walker_frame(WALKER_FEET[0], 0)),
    ("WALKER_WALK1", walker_frame(WALKER_FEET[1], 1)),
    ("WALKER_WALK2", walker_frame(WALKER_FEET[2], 0)),
    ("WALKER_WALK3", walker_frame(WALKER_FEET[1], 1)),
    ("WALKER_SQUASHED", WALKER_SQUASHED),
]

# --------------------------------------------------------------------------------------------
# Assembly


def extrude_into(canvas, img, x0, y0):
    """Place img with its inner top-left at (x0, y0) and repeat its edges 1 px outward."""
    h, w = len(img), len(img[0])
    for y in range(-PAD, h + PAD):
        for x in range(-PAD, w + PAD):
            sy = min(max(y, 0), h - 1)
            sx = min(max(x, 0), w - 1)
            canvas[y0 + y][x0 + x] = PALETTE[img[sy][sx]]


def build_atlas():
    rows = (len(TILES) + COLUMNS - 1) // COLUMNS
    assert rows * COLUMNS == len(TILES), "fill every tile row so Tiled's grid matches"
    width = COLUMNS * STRIDE
    assert len(PLAYER_FRAMES) * STRIDE <= width
    player_y = rows * STRIDE
    entity_y = player_y + PLAYER_STRIDE_Y
    entity_rows = (len(ENTITIES) + COLUMNS - 1) // COLUMNS
    height = ATLAS_HEIGHT
    assert entity_y + entity_rows * STRIDE <= height, "the entity cells outgrew the atlas"
    canvas = [[(0, 0, 0, 0)] * width for _ in range(height)]
    for i, (_, img, _) in enumerate(TILES):
        assert len(img) == TILE and all(len(r) == TILE for r in img), TILES[i][0]
        extrude_into(canvas, img, PAD + STRIDE * (i % COLUMNS), PAD + STRIDE * (i // COLUMNS))
    for f, (_, img) in enumerate(PLAYER_FRAMES):
        assert len(img) == PLAYER_H and all(len(r) == PLAYER_W for r in img)
        extrude_into(canvas, img, PAD + STRIDE * f, player_y + PAD)
    for e, (name, img) in enumerate(ENTITIES):
        assert len(img) in (8, TILE) and all(len(r) == TILE for r in img), name
        extrude_into(canvas, img, PAD + STRIDE * (e % COLUMNS), entity_y + PAD + STRIDE * (e // COLUMNS))
    return canvas, rows


def write_png(path, pixels):
    """Write RGBA8 rows of (r, g, b, a) tuples as a PNG (no filtering, zlib level 9)."""
    height, width = len(pixels), len(pixels[0])
    raw = bytearray()
    for row in pixels:
        raw.append(0)  # filter type: none
        for px in row:
            raw.extend(px)

    def chunk(tag, data):
        body = tag + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
    png += chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b"")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(png)


def write_tsx(path, width, height, rows):
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<!-- Generated by scripts/make-atlas.py: edit the script, not this file. -->',
        f'<tileset version="1.10" tiledversion="1.10.2" name="ledge" tilewidth="{TILE}" '
        f'tileheight="{TILE}" spacing="{2 * PAD}" margin="{PAD}" tilecount="{len(TILES)}" '
        f'columns="{COLUMNS}">',
        f' <image source="../sprites/atlas.png" width="{width}" height="{height}"/>',
    ]
    for i, (name, _, kind) in enumerate(TILES):
        lines.append(f' <tile id="{i}">')
        lines.append("  <properties>")
        if kind is not None:
            lines.append(f'   <property name="kind" value="{kind}"/>')
        lines.append(f'   <property name="name" value="{name.lower()}"/>')
        lines.append("  </properties>")
        lines.append(" </tile>")
    lines.append("</tileset>")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")


# --------------------------------------------------------------------------------------------
# Preview


def sky():
    return tuple(int(SKY[i : i + 2], 16) for i in (0, 2, 4)) + (255,)


def over(dst, src):
    if src[3] == 0:
        return dst
    return src


def preview(path, atlas, scale):
    """The atlas (with its padding) on sky, then a mock scene built from the tiles."""
    names = {name: i for i, (name, _, _) in enumerate(TILES)}
    scene_rows = [
        "................................",
        "..........[]..............[]....",
        "................................",
        "...............................G",
        "...........<==>..........LT.....",
        "......S...................AT...",
        "....C.............B.....AATTT...",
        "LTTTTTTR..LTR..^^TTTTTTTTTTTTTTT",
        "AFFFFFFE..AFE..#######FFFFFFFFFF",
        "AFFXFFFE..AFE..#######FFFFFXFFFF",
    ]
    legend = {
        "T": "GROUND_TOP",
        "L": "GROUND_TOP_LEFT",
        "R": "GROUND_TOP_RIGHT",
        "F": "GROUND_FILL",
        "X": "GROUND_FILL_ALT",
        "A": "GROUND_FILL_LEFT",
        "E": "GROUND_FILL_RIGHT",
        "#": "GROUND_DEEP",
        "<": "ONEWAY_LEFT",
        "=": "ONEWAY",
        ">": "ONEWAY_RIGHT",
        "^": "HAZARD",
        "C": "CHECKPOINT",
        "G": "GOAL",
        "B": "BUSH",
        "S": "SIGN",
        "[": "CLOUD_LEFT",
        "]": "CLOUD_RIGHT",
    }
    scene_w = max(len(r) for r in scene_rows) * TILE
    scene_h = len(scene_rows) * TILE
    aw, ah = len(atlas[0]), len(atlas)
    width = max(aw * 2, scene_w)
    height = ah * 2 + 8 + scene_h
    s = sky()
    img = [[s] * width for _ in range(height)]
    for y in range(ah * 2):  # the atlas at 2x (so 2x * scale overall)
        for x in range(aw * 2):
            img[y][x] = over(s, atlas[y // 2][x // 2])
    top = ah * 2 + 8
    for ty, row in enumerate(scene_rows):
        for tx, ch in enumerate(row):
            if ch == ".":
                continue
            if ch == "^":  # the spike pit has soil behind it
                pass
            tile = TILES[names[legend[ch]]][1]
            for y in range(TILE):
                for x in range(TILE):
                    px = PALETTE[tile[y][x]]
                    if px[3]:
                        img[top + ty * TILE + y][tx * TILE + x] = px
    # the player frames standing on the scene's ground, spread out
    for f, (_, frame) in enumerate(PLAYER_FRAMES):
        x0 = 4 + f * 20
        y0 = top + 7 * TILE - PLAYER_H
        for y in range(PLAYER_H):
            for x in range(PLAYER_W):
                px = PALETTE[frame[y][x]]
                if px[3]:
                    img[y0 + y][x0 + x] = px
    scaled = []
    for row in img:
        srow = [px for px in row for _ in range(scale)]
        for _ in range(scale):
            scaled.append(srow)
    write_png(path, scaled)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preview", help="also write a scaled-up preview PNG here")
    parser.add_argument("--scale", type=int, default=3, help="preview scale (default 3)")
    args = parser.parse_args()

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    atlas, rows = build_atlas()
    png_path = os.path.join(root, "assets", "sprites", "atlas.png")
    tsx_path = os.path.join(root, "assets", "tilesets", "ledge.tsx")
    write_png(png_path, atlas)
    write_tsx(tsx_path, len(atlas[0]), len(atlas), rows)
    print(f"wrote {png_path} ({len(atlas[0])}x{len(atlas)}), {tsx_path} ({len(TILES)} tiles)")
    for i, (name, _, kind) in enumerate(TILES):
        print(f"  tile {i:2}: {name:18} {kind or '-'}")
    for f, (name, _) in enumerate(PLAYER_FRAMES):
        print(f"  player {f}: {name}")
    for e, (name, img) in enumerate(ENTITIES):
        print(f"  entity {e:2}: {name} ({len(img[0])}x{len(img)})")
    if args.preview:
        preview(args.preview, atlas, args.scale)
        print(f"wrote preview {args.preview}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
