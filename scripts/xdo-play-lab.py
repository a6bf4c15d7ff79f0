#!/usr/bin/env python3
"""Play lab scripts' key input into a running Ledge window in real time, as synthetic X keys.

Usage:
  xdo-play-lab.py SCRIPT.lab [SCRIPT.lab ...] [--display :N] [--gap MS] [--sync-lag TICKS]
                  [--follow GAME-STDERR] [--log FILE.json] [--xdotool]

The Ledge window must have the keyboard focus (`xdotool windowfocus --sync WID`; Xvfb has no
window manager). Reads each script's `press/release ACTION` lines (events written after
`frame MS xN` lines, as examples/solve writes them) and sends the same keys at the same
wall-clock offsets from now: a player's hands, with the operating system's timing jitter.

Several scripts are played one after another, as one playthrough. The game loads the next
level by itself on the tick the goal is touched, and its moving things (platforms, saws) run
from that tick on, so a script for a level with such things (an object of class platform, saw
or walker in its .tmx) must start on it: script k+1 starts on script k's goal tick G plus
`--sync-lag` ticks (default 1), and at that moment every key script k still holds is released
(its later events, the finish hold's release, are dropped). G comes from the header examples/solve writes: the run's length N ("Finishes ...:
N ticks") minus its `--finish-hold` K. (The lag: real-time keys reach the game 0-2 ticks late,
the previous goal's keys too, and the runs are made to survive edges 0-2 ticks late, not
early.) A script without that header, or followed by one for a level with nothing that moves with
time, is followed after `--gap` ms (default 1000) past its *last* frame, as before levels had
moving things: the player stands still at the next spawn until its script starts.

`--follow FILE` closes the loop instead: FILE is the game's stderr, logging at info for
`ledge` (`RUST_LOG=warn,ledge=info`), and each next script starts the moment its level's load
shows there ("level complete; now playing ..." is logged in the frame whose tick touched the
goal; the file is polled every millisecond), so a script that reached its goal a few ticks
late or early (real-time keys) does not carry that drift into the next level; with platforms
and saws running from the load, the next script is then 0-1 tick late against them (the frame
that logged the load, at `--fps-cap 60`), which its run survives. Each script but the last is
cut at its goal tick (the finish hold is dropped), its held keys stay down until the load,
and then are released. If the load does not show within 15 s after the cut (a death, a
missed jump), the driver exits 1.

How keys are sent: by default through XTest directly (libXtst's XTestFakeKeyEvent on one
display connection, flushed at once: what `xdotool keydown/keyup` calls, without spawning a
process per key, which measured 34 ms mean, 61 ms worst per call on the project's loaded
2-core machine). Each event is due at start + its script time; the driver sleeps until 2 ms
before and spins the rest. `--xdotool` sends each key with one `xdotool keydown|keyup`
process instead (the old way, kept for comparison).

`--log FILE.json` writes one record per event: script_ms (its time in the script chain),
sent_ms (when it was sent, ms after the start), kind, action, script index. Compare with a
`ledge --record` file of the same session to measure the delivery jitter.

Standard library and ctypes only (libX11.so.6, libXtst.so.6).
"""
import ctypes
import json
import os
import re
import subprocess
import sys
import time

# X keysym names (XStringToKeysym) of the game's bindings, src/input/keyboard.rs.
KEYS = {"left": "Left", "right": "Right", "up": "Up", "down": "Down", "jump": "space"}
# Sleep until this long before an event's time, then spin (sleep overshoots by ~1 ms).
SPIN_S = 0.002


def goal_tick(path):
    """The tick on which a solver-written script touches the goal (N - finish hold), or None."""
    ticks = hold = None
    for raw in open(path):
        if not raw.startswith("#"):
            break
        m = re.search(r"with no deaths: (\d+) ticks", raw)
        if m:
            ticks = int(m.group(1))
        if "cargo run" in raw and "--example solve" in raw:
            h = re.search(r"--finish-hold (\d+)", raw)
            hold = int(h.group(1)) if h else 0
    return None if ticks is None or hold is None else ticks - hold


def parse(path):
    """(events, duration_ms): events are (ms, 'press'|'release', action) in script order."""
    events, t = [], 0.0
    for raw in open(path):
        line = raw.split("#")[0].split()
        if not line:
            continue
        if line[0] == "frame":
            n = int(line[2][1:]) if len(line) > 2 else 1
            t += float(line[1]) * n
        elif line[0] in ("press", "release") and len(line) > 1 and line[1] in KEYS:
            if any(w.startswith(("@", "+")) for w in line[2:]):
                sys.exit(f"{path}: only events at frame boundaries are supported: {raw.strip()}")
            events.append((t, line[0], line[1]))
    return events, t


def timed(path):
    """True when the script's level (its `level FILE.tmx` line, from the repository root) has
    things that move with game time (platforms, saws, walkers)."""
    for raw in open(path):
        line = raw.split("#")[0].split()
        if line and line[0] == "level" and len(line) > 1:
            root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
            with open(os.path.join(root, line[1])) as f:
                return re.search(r'type="(platform|saw|walker)"', f.read()) is not None
    return False


def goal_frames(path):
    """The number of frames a script plays (each a tick in solver scripts)."""
    n = 0
    for raw in open(path):
        line = raw.split("#")[0].split()
        if line and line[0] == "frame":
            n += int(line[2][1:]) if len(line) > 2 else 1
    return n


def plan_segments(scripts, gap, lag, follow):
    """One (events, wait_load, budget_ms) per segment: its events as (ms from the segment's
    start, kind, action); whether the segment first waits for the game's log to show its
    level loaded; how long, past that, the wait may last before the run counts as failed.

    Without `--follow` everything is one segment on one time line: a script is cut at its
    goal tick + `lag` when the next one's level has things that move with time (the next
    starts there, and what the cut script still held is released), else followed by `gap` ms
    after its end. With `--follow` there is a segment per script: each but the last is cut at
    its goal tick (its later events, the finish hold, are dropped; its held keys stay down
    until the game loads the next level, then are released) and the next starts on the load."""
    if follow:
        segments = []
        for k, path in enumerate(scripts):
            events, duration = parse(path)
            goal = goal_tick(path)
            if goal is not None and k + 1 < len(scripts):
                cut = goal * duration / max(goal_frames(path), 1)
                events = [e for e in events if e[0] < cut - 1e-6]
            segments.append((events, k > 0, 5000.0))
        return segments
    plan, offset = [], 0.0
    for k, path in enumerate(scripts):
        events, duration = parse(path)
        goal = goal_tick(path)
        if goal is None or k + 1 == len(scripts) or not timed(scripts[k + 1]):
            plan += [(offset + t, kind, action) for t, kind, action in events]
            offset += duration + gap
            continue
        cut = (goal + lag) * duration / max(goal_frames(path), 1)
        held = set()
        for t, kind, action in events:
            if t >= cut - 1e-6:
                break
            plan.append((offset + t, kind, action))
            (held.add if kind == "press" else held.discard)(action)
        plan += [(offset + cut, "release", action) for action in sorted(held)]
        offset += cut
    return [(plan, False, 0.0)]


LOAD_LINE = "level complete; now playing"


def await_level_load(log_path, n, deadline):
    """Wait until the game's log (its stderr, `RUST_LOG` at info for ledge) shows the n-th level
    load; return the time.monotonic() it was seen (polled every millisecond). Exits 1 at
    `deadline` (the run did not reach that goal: a death, a missed jump)."""
    while True:
        try:
            with open(log_path, errors="replace") as f:
                if f.read().count(LOAD_LINE) >= n:
                    return time.monotonic()
        except FileNotFoundError:
            pass
        if time.monotonic() > deadline:
            sys.exit(f"xdo-play-lab: the game did not load level {n + 1} of the chain in time "
                     f"(no {n}th '{LOAD_LINE}' line in {log_path})")
        time.sleep(0.001)


class XTest:
    """One X connection sending XTest key events."""

    def __init__(self, display):
        self.x11 = ctypes.CDLL("libX11.so.6")
        self.xtst = ctypes.CDLL("libXtst.so.6")
        self.x11.XOpenDisplay.restype = ctypes.c_void_p
        self.x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
        self.x11.XStringToKeysym.restype = ctypes.c_ulong
        self.x11.XStringToKeysym.argtypes = [ctypes.c_char_p]
        self.x11.XKeysymToKeycode.restype = ctypes.c_ubyte
        self.x11.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
        self.x11.XFlush.argtypes = [ctypes.c_void_p]
        self.x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
        self.xtst.XTestFakeKeyEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
        self.dpy = self.x11.XOpenDisplay(display.encode() if display else None)
        if not self.dpy:
            sys.exit(f"cannot open X display {display or '$DISPLAY'}")
        self.codes = {}
        for action, name in KEYS.items():
            code = self.x11.XKeysymToKeycode(self.dpy, self.x11.XStringToKeysym(name.encode()))
            if code == 0:
                sys.exit(f"no keycode for {name} on this display")
            self.codes[action] = code

    def send(self, kind, action):
        # delay 0 = CurrentTime: the server handles it now
        self.xtst.XTestFakeKeyEvent(self.dpy, self.codes[action], 1 if kind == "press" else 0, 0)
        self.x11.XFlush(self.dpy)

    def close(self):
        self.x11.XCloseDisplay(self.dpy)


class Xdotool:
    """One `xdotool keydown|keyup KEY` process per event."""

    def __init__(self, display):
        self.base = ["xdotool"] if display is None else ["env", f"DISPLAY={display}", "xdotool"]

    def send(self, kind, action):
        verb = "keydown" if kind == "press" else "keyup"
        subprocess.run(self.base + [verb, KEYS[action]], check=True)

    def close(self):
        pass


def main(argv):
    opts = {"--display": None, "--gap": "1000", "--log": None, "--sync-lag": "1", "--follow": None}
    scripts, use_xdotool, i = [], False, 0
    while i < len(argv):
        if argv[i] in opts and i + 1 < len(argv):
            opts[argv[i]] = argv[i + 1]
            i += 2
        elif argv[i] == "--xdotool":
            use_xdotool, i = True, i + 1
        elif argv[i].startswith("-"):
            sys.exit(__doc__)
        else:
            scripts.append(argv[i])
            i += 1
    if not scripts:
        sys.exit(__doc__)
    gap = float(opts["--gap"])
    lag = int(opts["--sync-lag"])
    segments = plan_segments(scripts, gap, lag, follow=opts["--follow"] is not None)
    sender = (Xdotool if use_xdotool else XTest)(opts["--display"])
    log, held = [], set()
    start = time.monotonic()
    try:
        for k, (events, wait_load, budget_ms) in enumerate(segments):
            seg_start = time.monotonic()
            if wait_load:
                # release what the previous script still held once the game shows the load
                seg_start = await_level_load(opts["--follow"], k, seg_start + budget_ms / 1000.0 + 10.0)
                for action in sorted(held):
                    sender.send("release", action)
                    log.append({"script": k - 1, "script_ms": None, "sent_ms": (time.monotonic() - start) * 1000.0,
                                "kind": "release", "action": action})
                held.clear()
            for at, kind, action in events:
                due = seg_start + at / 1000.0
                left = due - time.monotonic()
                if left > SPIN_S:
                    time.sleep(left - SPIN_S)
                while time.monotonic() < due:
                    pass
                sent = time.monotonic()
                sender.send(kind, action)
                (held.add if kind == "press" else held.discard)(action)
                log.append({"script": k, "script_ms": (seg_start - start) * 1000.0 + at,
                            "sent_ms": (sent - start) * 1000.0, "kind": kind, "action": action})
    finally:
        # never leave a key down (an interrupted run)
        for action in sorted(held):
            sender.send("release", action)
        sender.close()
    offset = (time.monotonic() - start) * 1000.0
    if opts["--log"]:
        with open(opts["--log"], "w") as f:
            json.dump(log, f, indent=0)
    late = [e["sent_ms"] - e["script_ms"] for e in log if e["script_ms"] is not None]
    print(f"sent {len(log)} key events from {len(scripts)} script(s) over {offset / 1000.0:.2f} s; "
          f"sent late by mean {sum(late) / max(len(late), 1):.2f} ms, max {max(late, default=0):.2f} ms")


if __name__ == "__main__":
    main(sys.argv[1:])
