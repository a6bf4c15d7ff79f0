#!/usr/bin/env python3
"""Write Ledge's Tiled levels (assets/levels/*.tmx) from the ASCII drawings below.

Standard library only. Run from anywhere:

  python3 scripts/make-levels.py [--preview DIR] [--scale N]

The drawings use the lab's inline-map legend (LAB.md), plus decoration:

  #  ground (solid; drawn grass-topped where nothing solid is above, edges finished)
  B  stone block (solid)
  -  one-way plank            ^  spikes (hazard)
  P  player spawn             C  checkpoint            G  goal
  b  bush   t  grass tuft   f  flowers   s  sign   ( )  cloud (left and right halves)
  .  empty

Each level becomes a finite orthogonal map of 16 x 16 px tiles using ../tilesets/ledge.tsx
(written by scripts/make-atlas.py), with a CSV tile layer `tiles` and an object layer
`objects`: the spawn is a point at the bottom-centre of its tile (where the player's feet
stand); checkpoints and the goal are tile objects covering their tile. The maps stay
editable in Tiled; rerunning this script overwrites them.

Levels 4 and up are drawn in scripts/levels/levelN.py (TITLE, SKY, ROWS, ENTITIES), one file
each, read by this script. Every map gets the string property `sky` (its parallax backdrop:
hills, forest, caves, tower or dusk; SKIES below for levels 1-3).

Entities: a level may list entity objects beside its drawing (a third item, a list made with
the helpers `platform`, `crumble`, `spring`, `saw`, `walker` below, in tile units: column,
row, width in tiles). Each becomes an object in the `objects` layer with its class and the
custom properties that src/level/tiled_entities.rs reads (docs/levels.md "Moving things"): a
platform is a rectangle (its w x h), with `to` (string "X2,Y2", pixels: its box's top-left at
the other end), `speed`, `wait` (float) and `oneway` (bool); a crumble a rectangle 16 px high
with `delay`, `back`; a spring, saw or walker a point at its box's top-left, with `speed`
(and a saw's `r`, `to`). Only the properties given are written (the game has LAB.md's
defaults). Object ids: spawn, checkpoints and goal first, then the entities in list order.

Tile ids are the atlas indices of src/render/atlas.rs (the TILES table of make-atlas.py).
`--preview DIR` also draws each level to DIR/NAME.png (scaled) for judging it by eye (tiles,
spawn, checkpoints and goal; the entities show in `cargo run --example level_shots`).

The game plays level1, level2, ... in order (the next one is `levelN+1.tmx` beside the
current). Each level has a finishing run, tests/levels/NAME.lab, found by examples/solve and
replayed by tests/level_runs.rs: after changing a level, remake its run with the command in
that file's header (and the pictures in docs/ with `cargo run --example level_shots`).
"""

import argparse
import importlib.util
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TILE = 16


def load_atlas_module():
    sys.dont_write_bytecode = True  # no __pycache__ in scripts/
    path = os.path.join(ROOT, "scripts", "make-atlas.py")
    spec = importlib.util.spec_from_file_location("make_atlas", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ATLAS = load_atlas_module()
ID = {name: i for i, (name, _, _) in enumerate(ATLAS.TILES)}


def _props(**kv):
    """Custom properties (name, Tiled type, value text), in the order given; None = not written."""
    out = []
    for k, v in kv.items():
        if v is None:
            continue
        if isinstance(v, bool):
            out.append((k, "bool", "true" if v else "false"))
        elif isinstance(v, tuple):  # a point in tiles -> "X2,Y2" pixels
            out.append((k, None, f"{v[0]},{v[1]}"))
        else:
            out.append((k, "float", repr(float(v)).removesuffix(".0")))
    return out


def platform(col, row, w, to=None, speed=None, wait=None, oneway=False, h=None):
    """A moving platform: top-left at tile (col, row), w tiles wide, 16 px high (solid) or 8 px
    (one-way lift); `to` = the tile its top-left travels to."""
    h = h or (8 if oneway else TILE)
    to_px = None if to is None else (to[0] * TILE, to[1] * TILE)
    props = _props(to=to_px, speed=speed, wait=wait, oneway=True if oneway else None)
    return ("platform", col * TILE, row * TILE, w * TILE, h, props)


def crumble(col, row, w=1, delay=None, back=None):
    """A crumbling block, w tiles wide, filling tile row `row`."""
    return ("crumble", col * TILE, row * TILE, w * TILE, TILE, _props(delay=delay, back=back))


def spring(col, row, speed=None):
    """A spring (16 x 8) sitting on the bottom of tile (col, row)."""
    return ("spring", col * TILE, row * TILE + TILE // 2, 0, 0, _props(speed=speed))


def saw(col, row, to=None, speed=None, r=8):
    """A saw centred on tile (col, row) (radius r px), travelling to be centred on tile `to`."""
    off = TILE // 2 - r
    to_px = None if to is None else (to[0] * TILE + off, to[1] * TILE + off)
    props = _props(to=to_px, speed=speed, r=None if r == 8 else r)
    return ("saw", col * TILE + off, row * TILE + off, 0, 0, props)


def walker(col, row, speed=None):
    """A walker standing in tile (col, row) (its 16 x 16 box); negative speed starts left."""
    return ("walker", col * TILE, row * TILE, 0, 0, _props(speed=speed))


# Each level's backdrop, the map property `sky` (src/level/mod.rs Sky; docs/levels.md "Skies"):
# levels 1-3 here, the others as SKY in scripts/levels/levelN.py.
SKIES = {"level1": "hills", "level2": "forest", "level3": "dusk"}
KNOWN_SKIES = ("hills", "forest", "caves", "tower", "dusk")

# name -> (title, drawing[, entities]). Rows may be ragged; they are padded with '.'.
LEVELS = {
    # First Steps. Ground top at row 18. Spawn (3, 17); a 3-tile gap (15-17); 1-tile steps
    # (24-32, short hops); a 3-tile ledge (33-40, a full jump); plank, block, plank over a
    # spike pit (41-59); the checkpoint (63, 17); 2 spikes to hop (68-69); planks stacked 3
    # tiles apart to climb (72-75); a high route (block 78-81) or a running jump over the
    # 4-tile pit (77-80); a 3-tile wall (86-88); a 3-tile pit (89-91); a plank bridge over a
    # pit (101-104); the goal (115, 17).
    "level1": (
        "First Steps",
        [
            "........................................................................................................................",
            "........................................................................................................................",
            "..............................................()........................................................................",
            ".....()...................................................................................()............................",
            "................................................................()......................................................",
            "......................()....................................................................................()..........",
            "........................................................................................................................",
            "........................................................................................................................",
            "........................................................................................................................",
            "........................................................................----..BBBB......................................",
            "........................................................................................................................",
            "...................................b..t..........BBB....................................................................",
            ".................................########...............................----............................................",
            ".................................########..----.........................................................................",
            ".................................########.............----..............................................................",
            "............................f.###########...............................----..........BBB......f..b.....................",
            "...........................##############.............................................BBB...#########----...............",
            ".t.P...s...b.f......t...#################....................t.C..f.^^....b........t..BBB...#########......t....s..G..b.",
            "###############...#######################^^^^^^^^^^^^^^^^^^^#################....########...#########....###############",
            "###############...###########################################################....########...#########....###############",
            "###############...###########################################################....########...#########....###############",
            "###############...###########################################################....########...#########....###############",
        ],
    ),
    # Planks and Spikes. 140 x 34; ground top at row 29. Spawn (2, 28) under a plank to jump
    # up through (9-12, row 26); planks over a spike pit (15-25); a scaffold of planks 3 rows
    # apart against a cliff (27-34, rows 26 to 14) up to the cliff top (35-44, row 11) and
    # checkpoint 1 (38, 10); planks over a spiked canyon (45-60) to a pillar (61-62); a plank
    # walkway (63-72, row 11) against a hill too tall to climb (73-80, top row 2): Down+Jump
    # drops through it to the corridor (row 17) that tunnels under the hill (rows 14-16);
    # spikes to hop (82-83); a shaft of three plank floors (86-91, rows 17, 21, 25) to drop
    # through, between the corridor's ground and a second hill (92-99, rows 8-25), out
    # through the tunnel under that hill (rows 26-28) to checkpoint 2 (101, 28); a spike
    # field with planks (105-119); a plank step (123-125) up to the goal ledge (128-139, row
    # 23) and the goal (136, 22).
    "level2": (
        "Planks and Spikes",
        [
            "............................................................................................................................................",
            "..........................................................................t.b..f............................................................",
            ".........................................................................########...........................................................",
            "..................................................().....................########...........................................................",
            ".........................................................................########...........................................................",
            ".........................................................................########...()......................................................",
            ".........................................................................########...........................................................",
            ".........................................................................########............b.t..f.........................()..............",
            ".........................................................................########...........########........................................",
            ".........................................................................########...........########........................................",
            "....................................t.C..b.f........---......t...........########...........########........................................",
            "...................................##########................##----------########...........########........................................",
            "...................................##########..---.......---.##..........########...........########()......................................",
            "...................................##########................##..........########...........########........................................",
            "....................().........----##########................##.............................########..................................()....",
            "...................................##########................##.............................########........................................",
            "...................................##########................##.s..t..b......f...t..........########........................................",
            "...........................----....##########................#####################^^##------########........................................",
            "...................................##########................#########################......########............()..........................",
            "...................................##########................#########################......########........................................",
            "....().........................----##########................#########################......########........................................",
            "...................................##########................#########################------########........................................",
            "...................................##########.............().#########################......########.............................t.b.f..G.t.",
            "...........................----....##########................#########################......########............................############",
            "...................................##########................#########################......########...........---..............############",
            "..........ft.......................##########................#########################------########............................############",
            ".........----........---.......----##########................#########################....................---.......---....---..############",
            "................---................##########................#########################..........................................############",
            "t.P..s.b.....t.............f.b...t.##########................#########################..t.......f...tC.s.................tf...b.############",
            "###############^^^^^^^^^^^###################................############################################^^^^^^^^^^^^^^^####################",
            "#############################################................###############################################################################",
            "#############################################................###############################################################################",
            "#############################################^^^^^^^^^^^^^^^^###############################################################################",
            "############################################################################################################################################",
        ],
    ),
    # Leap of Faith. 128 x 24; ground top at row 20. Spawn (2, 19); warm-up pits (12-14,
    # 23-27). Coyote time: a tunnel (floor 28-44) whose roof (33-45, rows 12-17, 10 px over
    # the player's head) ends one tile past the ledge: a jump from the ledge bonks, so run off
    # and jump in the air over the pit (45-51). Checkpoint 1 (55, 19); coyote time again: a
    # 9-tile gap (63-71) to ground one row lower, too long for any jump from the ledge - jump
    # late. Checkpoint 2 (75, 20); jump buffering: a stone-roofed corridor (roof 78-103, rows
    # 15-17, 26 px of headroom) whose floor is 1-tile steps between 3-tile spike runs (82-100):
    # hop from step to step, pressing jump just before each landing. Checkpoint 3 (105, 20);
    # corner correction: a chimney of stone slabs (rows 18, 15, 12) with 1-tile holes at
    # columns 113, 119, 113: jump up through each; a head that clips a hole's edge by up to
    # 4 px slides past it. The goal (124, 11) is on the top slab.
    "level3": (
        "Leap of Faith",
        [
            "................................................................................................................................",
            "................................................................................................................................",
            "................................................................................................................................",
            "................................................()....................................................................()........",
            "......()................................................................................()......................................",
            "................................................................................................................................",
            "................................................................................................................................",
            "................................................................................................................................",
            "......................()..........................................................................()............................",
            "..................................................................().......................................B....................",
            "...........................................................................................................B....................",
            "...................................t..b..f..t..............................................................B..f.......t.b...G...",
            ".................................#############.............................................................BBBBBB.BBBBBBBBBBBBBB",
            ".................................#############.............................................................B....................",
            ".................................#############.............................................................B..b..............t..",
            ".................................#############................................BBBBBBBBBBBBBBBBBBBBBBBBBB...BBBBBBBBBBBB.BBBBBBBB",
            ".................................#############................................BBBBBBBBBBBBBBBBBBBBBBBBBB...B....................",
            ".................................#############................................BBBBBBBBBBBBBBBBBBBBBBBBBB...B.......t.....f......",
            ".................t..f......................................................................................BBBBBB.BBBBBBBBBBBBBB",
            "t.P.s.f..b.....########......b.s.....................t.C..f.s...................................................................",
            "############...########.....#################.......###########..........t.C.b..........................fCt.....................",
            "############...########.....#################.......###########.........##########^^^#^^^#^^^#^^^#^^^###########################",
            "############...########.....#################.......###########.........########################################################",
            "############^^^########^^^^^#################^^^^^^^###########^^^^^^^^^########################################################",
        ],
    ),
}



def load_level_files():
    """The levels drawn in scripts/levels/levelN.py (TITLE, SKY, ROWS, ENTITIES; the entity
    helpers above are in scope there), in number order after the ones drawn in this file."""
    folder = os.path.join(ROOT, "scripts", "levels")
    helpers = {f.__name__: f for f in (platform, crumble, spring, saw, walker)}
    names = [n[:-3] for n in os.listdir(folder) if n.startswith("level") and n.endswith(".py")]
    for name in sorted(names, key=lambda n: int(n[5:])):
        scope = dict(helpers)
        with open(os.path.join(folder, name + ".py"), encoding="utf-8") as f:
            exec(compile(f.read(), f.name, "exec"), scope)
        LEVELS[name] = (scope["TITLE"], scope["ROWS"], scope["ENTITIES"])
        SKIES[name] = scope["SKY"]


load_level_files()

SOLID = "#B"
DECOR = {
    "b": "BUSH",
    "t": "GRASS_TUFT",
    "f": "FLOWERS",
    "s": "SIGN",
    "(": "CLOUD_LEFT",
    ")": "CLOUD_RIGHT",
}
OBJECTS = {"P": "spawn", "C": "checkpoint", "G": "goal"}


def pad(rows):
    width = max(len(r) for r in rows)
    return [r.ljust(width, ".") for r in rows]


def autotile(rows):
    """ASCII rows -> grid of atlas tile ids (None: nothing drawn)."""
    height, width = len(rows), len(rows[0])

    def solid(x, y):
        if x < 0 or x >= width:
            return True  # the level's side walls: no finished edge against them
        if y < 0 or y >= height:
            return False
        return rows[y][x] in SOLID

    def ground(x, y):
        return 0 <= x < width and 0 <= y < height and rows[y][x] == "#" or x < 0 or x >= width

    out = [[None] * width for _ in range(height)]
    for y in range(height):
        for x in range(width):
            ch = rows[y][x]
            if ch == "#":
                left, right = ground(x - 1, y), ground(x + 1, y)
                if not solid(x, y - 1):
                    name = {
                        (True, True): "GROUND_TOP",
                        (False, True): "GROUND_TOP_LEFT",
                        (True, False): "GROUND_TOP_RIGHT",
                        (False, False): "GROUND_TOP_SINGLE",
                    }[(left, right)]
                elif not left:
                    name = "GROUND_FILL_LEFT"
                elif not right:
                    name = "GROUND_FILL_RIGHT"
                else:
                    depth = 0  # ground tiles above this one (blocks standing on it don't count)
                    while ground(x, y - depth - 1) and y - depth - 1 >= 0:
                        depth += 1
                    alt = (x * 7 + y * 13) % 11 == 0
                    if depth >= 3:
                        name = "GROUND_DEEP_ALT" if alt else "GROUND_DEEP"
                    else:
                        name = "GROUND_FILL_ALT" if alt else "GROUND_FILL"
                out[y][x] = ID[name]
            elif ch == "B":
                out[y][x] = ID["BLOCK"]
            elif ch == "-":
                left = x > 0 and rows[y][x - 1] == "-"
                right = x + 1 < width and rows[y][x + 1] == "-"
                name = "ONEWAY" if left == right else ("ONEWAY_LEFT" if right else "ONEWAY_RIGHT")
                out[y][x] = ID[name]
            elif ch == "^":
                out[y][x] = ID["HAZARD"]
            elif ch in DECOR:
                out[y][x] = ID[DECOR[ch]]
            elif ch in OBJECTS or ch == ".":
                pass
            else:
                raise SystemExit(f"unknown map character {ch!r} at ({x}, {y})")
    return out


def objects_of(rows):
    """(class, name, x, y, gid or None) for each object, pixels, Tiled's conventions."""
    found = []
    counts = {}
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch not in OBJECTS:
                continue
            cls = OBJECTS[ch]
            counts[cls] = counts.get(cls, 0) + 1
            if cls == "spawn":
                # a point where the player's feet stand: the tile's bottom-centre
                found.append((cls, "start", x * TILE + TILE // 2, (y + 1) * TILE, None))
            else:
                # a tile object: Tiled anchors it at its bottom-left corner
                gid = 1 + ID["CHECKPOINT" if cls == "checkpoint" else "GOAL"]
                name = f"{cls} {counts[cls]}" if cls == "checkpoint" else "goal"
                found.append((cls, name, x * TILE, (y + 1) * TILE, gid))
    if counts.get("spawn", 0) != 1:
        raise SystemExit(f"need exactly one P, found {counts.get('spawn', 0)}")
    if counts.get("goal", 0) > 1:
        raise SystemExit("more than one G")
    return found


def xml_escape(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def entity_lines(entities, first_id, width, height):
    """The <object> lines of the entities, ids from first_id; each must lie inside the map."""
    lines = []
    for i, (cls, x, y, w, h, props) in enumerate(entities, start=first_id):
        if x < 0 or y < 0 or x + max(w, TILE) > width * TILE or y + max(h, 8) > height * TILE:
            raise SystemExit(f"{cls} at ({x}, {y}) px is outside the map")
        shape = f' width="{w}" height="{h}"' if w else ""
        head = f'  <object id="{i}" name="{cls} {i}" type="{cls}" x="{x}" y="{y}"{shape}'
        if not props and w:
            lines.append(head + "/>")
            continue
        lines.append(head + ">")
        if props:
            lines.append("   <properties>")
            for name, kind, value in props:
                typ = f' type="{kind}"' if kind else ""
                lines.append(f'    <property name="{name}"{typ} value="{value}"/>')
            lines.append("   </properties>")
        if not w:
            lines.append("   <point/>")
        lines.append("  </object>")
    return lines


def write_tmx(path, title, rows, entities=(), sky="hills"):
    if sky not in KNOWN_SKIES:
        raise SystemExit(f"{path}: unknown sky {sky!r} (expected {', '.join(KNOWN_SKIES)})")
    height, width = len(rows), len(rows[0])
    tiles = autotile(rows)
    objects = objects_of(rows)
    csv_rows = []
    for y, row in enumerate(tiles):
        cells = ",".join(str(0 if t is None else t + 1) for t in row)
        csv_rows.append(cells + ("," if y + 1 < height else ""))
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        "<!-- Generated by scripts/make-levels.py from its ASCII drawing; edit either. -->",
        f'<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" '
        f'renderorder="right-down" width="{width}" height="{height}" tilewidth="{TILE}" '
        f'tileheight="{TILE}" infinite="0" nextlayerid="3" '
        f'nextobjectid="{len(objects) + len(entities) + 1}">',
        " <properties>",
        f'  <property name="name" value="{xml_escape(title)}"/>',
        f'  <property name="sky" value="{sky}"/>',
        " </properties>",
        ' <tileset firstgid="1" source="../tilesets/ledge.tsx"/>',
        f' <layer id="1" name="tiles" width="{width}" height="{height}">',
        '  <data encoding="csv">',
        *csv_rows,
        "</data>",
        " </layer>",
        ' <objectgroup id="2" name="objects">',
    ]
    for i, (cls, name, x, y, gid) in enumerate(objects, start=1):
        if gid is None:
            lines.append(f'  <object id="{i}" name="{name}" type="{cls}" x="{x}" y="{y}">')
            lines.append("   <point/>")
            lines.append("  </object>")
        else:
            lines.append(
                f'  <object id="{i}" name="{name}" type="{cls}" gid="{gid}" '
                f'x="{x}" y="{y}" width="{TILE}" height="{TILE}"/>'
            )
    lines += entity_lines(entities, len(objects) + 1, width, height)
    lines += [" </objectgroup>", "</map>"]
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    return tiles


def preview(path, rows, tiles, scale):
    sky = ATLAS.sky()
    height, width = len(rows), len(rows[0])
    img = [[sky] * (width * TILE) for _ in range(height * TILE)]

    def draw(tile_id, tx, ty, dy=0):
        art = ATLAS.TILES[tile_id][1]
        for y in range(TILE):
            for x in range(TILE):
                px = ATLAS.PALETTE[art[y][x]]
                if px[3]:
                    img[ty * TILE + y + dy][tx * TILE + x] = px

    for ty, row in enumerate(tiles):
        for tx, t in enumerate(row):
            if t is not None:
                draw(t, tx, ty)
    for cls, _, x, y, gid in objects_of(rows):
        if gid is not None:
            draw(gid - 1, x // TILE, y // TILE - 1)
        else:  # the idle player frame, feet on the spawn point
            frame = ATLAS.PLAYER_FRAMES[0][1]
            for fy in range(ATLAS.PLAYER_H):
                for fx in range(ATLAS.PLAYER_W):
                    px = ATLAS.PALETTE[frame[fy][fx]]
                    if px[3]:
                        img[y - ATLAS.PLAYER_H + fy][x - ATLAS.PLAYER_W // 2 + fx] = px
    scaled = []
    for row in img:
        srow = [px for px in row for _ in range(scale)]
        scaled.extend([srow] * scale)
    ATLAS.write_png(path, scaled)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preview", help="also draw each level to DIR/NAME.png")
    parser.add_argument("--scale", type=int, default=1, help="preview scale (default 1)")
    args = parser.parse_args()
    for name, (title, drawing, *rest) in LEVELS.items():
        rows = pad(drawing)
        path = os.path.join(ROOT, "assets", "levels", f"{name}.tmx")
        tiles = write_tmx(path, title, rows, rest[0] if rest else (), SKIES[name])
        print(f"wrote {path} ({len(rows[0])}x{len(rows)} tiles)")
        if args.preview:
            out = os.path.join(args.preview, f"{name}.png")
            preview(out, rows, tiles, args.scale)
            print(f"wrote preview {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
