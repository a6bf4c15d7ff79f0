#!/usr/bin/env python3
"""Synthesise Ledge's sounds into assets/sounds/ (16-bit mono WAV, 22050 Hz).

Every sound is made here from oscillators and a seeded noise generator, so the files are
ours (same licence as the code) and the same bytes come out on every run. Python stdlib only.

    scripts/make-sounds.py            write assets/sounds/*.wav
    scripts/make-sounds.py --check    exit 1 if a file differs from what this script makes

Effects (one per cue name, src/sim/cues.rs): jump, wall_jump, land, death, respawn,
checkpoint, goal, spring, crumble, walker_stomp, menu_move, menu_confirm. Every effect starts
at full level in its first millisecond (no fade-in), so the latency test
(tests/sound_e2e.rs) sees its energy at once. Music: music_level and music_menu, chiptune
loops of whole bars that loop without a click (each note's envelope ends at 0).
"""
import math
import os
import struct
import sys
import wave

RATE = 22050
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OUT = os.path.join(ROOT, "assets", "sounds")


class Noise:
    """A 32-bit xorshift generator: white noise in [-1, 1], the same on every run."""

    def __init__(self, seed):
        self.s = seed or 1

    def next(self):
        s = self.s
        s ^= (s << 13) & 0xFFFFFFFF
        s ^= s >> 17
        s ^= (s << 5) & 0xFFFFFFFF
        self.s = s
        return s / 0x7FFFFFFF - 1.0


def square(phase, duty=0.5):
    return 1.0 if (phase % 1.0) < duty else -1.0


def triangle(phase):
    p = phase % 1.0
    return 4.0 * p - 1.0 if p < 0.5 else 3.0 - 4.0 * p


def sweep(dur, f0, f1, wave_fn=square, decay=6.0, level=0.5):
    """A tone sliding from f0 to f1 Hz (exponentially) over dur s, decaying from full level."""
    n = int(dur * RATE)
    out, phase = [], 0.0
    for i in range(n):
        t = i / n
        f = f0 * (f1 / f0) ** t
        phase += f / RATE
        env = math.exp(-decay * t) * (1.0 - t)
        out.append(level * env * wave_fn(phase))
    return out


def noise_burst(dur, seed, decay=8.0, level=0.5, lowpass=0.3):
    """Low-passed noise, decaying from full level (thuds, crumbles)."""
    n, g, y, out = int(dur * RATE), Noise(seed), 0.0, []
    for i in range(n):
        t = i / n
        y += lowpass * (g.next() - y)
        out.append(level * math.exp(-decay * t) * (1.0 - t) * y * 2.0)
    return out


def notes(seq, note_dur, wave_fn=square, level=0.4, duty=0.5):
    """Notes (Hz, 0 = rest) of note_dur s each; each decays to 0 by its end (no clicks)."""
    out = []
    n = int(note_dur * RATE)
    for f in seq:
        phase = 0.0
        for i in range(n):
            t = i / n
            phase += f / RATE
            env = (1.0 - t) ** 1.5
            out.append(0.0 if f == 0 else level * env * wave_fn(phase, duty) if wave_fn is square
                       else level * env * wave_fn(phase))
    return out


def mix(*tracks):
    n = max(len(t) for t in tracks)
    return [sum(t[i] for t in tracks if i < len(t)) for i in range(n)]


def then(*parts):
    out = []
    for p in parts:
        out.extend(p)
    return out


def hz(semitones_from_a4):
    return 440.0 * 2.0 ** (semitones_from_a4 / 12.0)


def chord_arp(roots, steps, note_dur, pattern=(0, 4, 7, 12)):
    seq = []
    for r in roots:
        for k in range(steps):
            seq.append(hz(r + pattern[k % len(pattern)]))
    return notes(seq, note_dur, square, level=0.18, duty=0.25)


def bass(roots, per_root, note_dur):
    seq = [hz(r - 24) for r in roots for _ in range(per_root)]
    return notes(seq, note_dur, triangle, level=0.35)


def level_music():
    # 4 bars of 8th notes at 150 bpm (0.2 s each): i - VI - III - VII in A minor, 6.4 s.
    roots = [0, -4, 3, -2]
    arp = chord_arp(roots, 8, 0.2, pattern=(0, 3, 7, 12, 7, 3, 0, 3))
    low = bass(roots, 4, 0.4)
    return mix(arp, low)


def menu_music():
    # Slower, major: I - vi - IV - V in C, quarter notes at 100 bpm (0.3 s), 4.8 s.
    roots = [3, 0, -4, -2]
    arp = chord_arp(roots, 4, 0.3, pattern=(0, 4, 7, 4))
    low = bass(roots, 2, 0.6)
    return mix(arp, low)


SOUNDS = {
    "jump": lambda: sweep(0.16, 300, 700, level=0.5),
    "wall_jump": lambda: mix(sweep(0.18, 250, 800, level=0.45), noise_burst(0.05, 7, level=0.3)),
    "land": lambda: noise_burst(0.08, 3, decay=10.0, level=0.6, lowpass=0.15),
    "death": lambda: then(sweep(0.12, 600, 200, level=0.5, decay=1.0), sweep(0.3, 300, 60, level=0.5)),
    "respawn": lambda: notes([hz(3), hz(7), hz(10), hz(15)], 0.06, square, level=0.35),
    "checkpoint": lambda: notes([hz(7), hz(12), hz(19)], 0.09, square, level=0.35, duty=0.25),
    "goal": lambda: notes([hz(3), hz(7), hz(10), hz(15), 0, hz(15)], 0.1, square, level=0.35),
    "spring": lambda: sweep(0.25, 200, 1200, wave_fn=triangle, decay=3.0, level=0.6),
    "crumble": lambda: noise_burst(0.3, 11, decay=4.0, level=0.5, lowpass=0.08),
    "walker_stomp": lambda: mix(sweep(0.1, 400, 120, level=0.5), noise_burst(0.06, 5, level=0.4)),
    "menu_move": lambda: notes([hz(15)], 0.04, square, level=0.25, duty=0.25),
    "menu_confirm": lambda: notes([hz(10), hz(22)], 0.06, square, level=0.3),
    "music_level": level_music,
    "music_menu": menu_music,
}


def encode(samples):
    """16-bit little-endian PCM bytes, clipped to [-1, 1]."""
    return b"".join(struct.pack("<h", int(max(-1.0, min(1.0, s)) * 32767)) for s in samples)


def wav_bytes(samples):
    import io

    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(encode(samples))
    return buf.getvalue()


def main(argv):
    check = "--check" in argv
    os.makedirs(OUT, exist_ok=True)
    differ = []
    for name, make in SOUNDS.items():
        data = wav_bytes(make())
        path = os.path.join(OUT, name + ".wav")
        if check:
            try:
                with open(path, "rb") as f:
                    if f.read() != data:
                        differ.append(path)
            except OSError:
                differ.append(path)
        else:
            with open(path, "wb") as f:
                f.write(data)
    if differ:
        print("make-sounds: differs from the script: " + ", ".join(differ), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
