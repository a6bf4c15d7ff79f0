#!/usr/bin/env python3
"""Play a lab script's input into a running Ledge window with xdotool, in real time.

Usage: xdo-play-lab.py SCRIPT.lab [--display :N]   (the Ledge window must have the focus)

Reads the script's `press/release ACTION` lines (+0 offsets after `frame MS xN` lines, as the
level solver writes them) and sends the same keys at the same wall-clock offsets from now:
a player's hands, with the operating system's timing jitter. Used to check by hand that the
levels are playable under Xvfb (the suite replays the scripts exactly through the lab).
"""
import subprocess, sys, time

KEYS = {"left": "Left", "right": "Right", "up": "Up", "down": "Down", "jump": "space"}

def main(argv):
    if len(argv) < 1:
        sys.exit(__doc__)
    script = argv[0]
    env_display = argv[argv.index("--display") + 1] if "--display" in argv else None
    events, t = [], 0.0
    for raw in open(script):
        line = raw.split("#")[0].split()
        if not line:
            continue
        if line[0] == "frame":
            n = int(line[2][1:]) if len(line) > 2 else 1
            t += float(line[1]) * n
        elif line[0] in ("press", "release") and line[1] in KEYS:
            events.append((t, "keydown" if line[0] == "press" else "keyup", KEYS[line[1]]))
    base = ["xdotool"] if env_display is None else ["env", f"DISPLAY={env_display}", "xdotool"]
    start = time.monotonic()
    for at, verb, key in events:
        delay = start + at / 1000.0 - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        subprocess.run(base + [verb, key], check=True)
    print(f"sent {len(events)} key events over {t / 1000.0:.2f} s")

if __name__ == "__main__":
    main(sys.argv[1:])
