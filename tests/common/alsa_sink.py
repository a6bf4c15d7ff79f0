#!/usr/bin/env python3
"""A sound card in software for the sound tests (tests/sound_e2e.rs):
`alsa_sink.py FIFO OUT.raw TIMES.txt`. ALSA's `file` plugin writes the game's output into the
named pipe FIFO (`file "FIFO"`); this reads it at the real-time rate, as a DAC would, and
writes the samples to OUT.raw and, for each chunk read, one line "MONOTONIC_NS FRAMES_BEFORE"
to TIMES.txt: the time that chunk was "played" (CLOCK_MONOTONIC). Both files are flushed
after every chunk, so killing the sink loses nothing. The FIFO is opened read-write, so the
game opening and closing the device (cpal probes it before it plays) never ends the stream.

Without this the null device takes samples as fast as they come, so the game would render
sound far ahead of real time and a sample's place in the file would say nothing about when
it would have been heard. The pipe is shrunk to one page (4 KiB = 1024 frames of S16 stereo,
21 ms at 48 kHz) so that it holds no more than a real card's buffer.

Format: S16_LE, 2 channels, 48000 Hz (the ALSA config's `plug` converts to it).
"""
import fcntl
import os
import sys
import time

RATE, CHANNELS, WIDTH = 48000, 2, 2
FRAME = CHANNELS * WIDTH
CHUNK_FRAMES = 240  # 5 ms
F_SETPIPE_SZ = 1031


def shrink(fd):
    """Shrink the pipe to one page. It fails (EBUSY) while it holds more than that: should a
    writer already be at it, drop what is there (the start of the stream) and try again."""
    os.set_blocking(fd, False)
    while True:
        try:
            fcntl.fcntl(fd, F_SETPIPE_SZ, 4096)
            break
        except OSError:
            try:
                os.read(fd, 1 << 20)
            except BlockingIOError:
                pass
    os.set_blocking(fd, True)


def main(fifo, out_path, times_path):
    fd = os.open(fifo, os.O_RDWR)
    shrink(fd)
    # OUT.raw appears only now: the test waits for it before it starts the game.
    frames = 0
    start = None
    pending = b""
    with open(out_path, "wb") as out, open(times_path, "w") as times:
        while True:
            want = CHUNK_FRAMES * FRAME - len(pending)
            data = os.read(fd, want)
            if not data:
                break
            pending += data
            if len(pending) < CHUNK_FRAMES * FRAME:
                continue
            now = time.monotonic_ns()
            if start is None:
                start = now
            # Play at the real-time rate: this chunk is due at start + frames / RATE.
            due = start + frames * 1_000_000_000 // RATE
            if due > now:
                time.sleep((due - now) / 1e9)
                now = time.monotonic_ns()
            elif now - due > 50_000_000:
                # The writer fell behind (an underrun): restart the schedule from now.
                start = now - frames * 1_000_000_000 // RATE
            times.write(f"{now} {frames}\n")
            out.write(pending)
            times.flush()
            out.flush()
            frames += len(pending) // FRAME
            pending = b""
        out.write(pending)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])
