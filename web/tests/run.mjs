#!/usr/bin/env node
// Ledge in the browser, tested in a real one (issue #19): serves target/web (scripts/web builds
// it) on a free 127.0.0.1 port and drives Debian's headless Chromium through playwright-core
// (web/package.json; no browser download). One line per check: `PASS name` or
// `FAIL name: reason`, then `web: N passed, N failed`; exit status 1 on any failure, 2 on a
// bad argument.
//
//   node web/tests/run.mjs [CHECK...] [--dir DIR] [--out DIR] [--lab FILE.lab]... [--labs LIST]
//                          [--expect FILE.json]
//                          [--chromium PATH]
//
// Checks (all of them when none is named; `lab` only with --lab, `labs` only with --labs):
//   browser         Chromium starts headless; WebGL2 (SwiftShader) and a WebGPU adapter exist
//                   (prints `INFO browser ...` with what they are). Needs no game.
//   start-webgl2    index.html?backend=webgl2: ledgeFrames > 30 within 60 s, ledgeBackend is
//   start-webgpu    "WebGL2" (plain index.html: "WebGPU"); Enter, Enter (title, then level 1 from
//                   the level select) and window.ledgeScreen is "playing level1.tmx"; the canvas
//                   at 1280x720 (OUT/NAME.png) is not blank and matches the native golden image
//                   tests/golden/level1-start.png (tests/common/golden.rs's tolerance: a channel
//                   off by more than 24 in at most 0.2 % of the pixels; the HUD's box left out).
//                   Prints the time to the first frame and level 1's mean frame time over 5 s,
//                   then index.html?bare's (clear and present only) on the same backend, and
//                   level 1's as a multiple of it; ?bare must present frames.
//   playthrough     from the title to the end of level 1 with the keyboard: Enter, Enter, then
//                   tests/levels/level1.lab's presses and releases sent as real keys at their
//                   times from the level's start (arrows and Space); passes when
//                   window.ledgeScreen becomes "playing level2.tmx", and then the run is shared:
//                   Escape, "Copy run link" sets window.ledgeRunLink, "Watch every attempt"
//                   draws the replay window over the game (OUT/every-attempt.png) until Escape, `ledge replay LINK
//                   --headless` reaches the goal natively, and the link opened in the page
//                   replays headless to the same state_hash and draws its replay window
//                   (OUT/run-link.png). Real-time keys reach the
//                   game 0-2 ticks late, which the script survives in 95 % of its solver's
//                   trials: up to 3 attempts, each in a fresh browser.
//   lab             per --lab FILE (copied to DIR/lab/NAME.lab): index.html?lab=lab/NAME.lab
//                   until window.ledgeLabReport; prints `HASH NAME STATE_HASH`; with --expect
//                   (a JSON object: NAME or FILE -> state_hash) the hash must match.
//   labs            every script of LIST (`PATH [--recut R]` a line) in one page,
//                   index.html?labs=: one `LABHASH PATH [--recut R] HASH` line each (`ERROR:
//                   LINE` for one the lab refuses): scripts/determinism's browser column.
//   storage         progress.toml (level 2 unlocked) in localStorage before the load: the game
//                   starts and the item is still there, not set aside as bad.
//   storage-corrupt "not toml [" as progress.toml: after the load progress.toml.bad-1 holds it
//                   and a console warning names progress.toml.
//   record          index.html?record (level 1, playing): ~20 s of real keys (ArrowRight held,
//                   Space tapped at irregular times, ArrowLeft now and then), Escape, q; the
//                   page's window.ledgeRecording (OUT/record.lab) replayed natively
//                   (target/debug/ledge lab FILE --summary, from the repository root) ends on
//                   window.ledgeExitSummary.state_hash; > 600 ticks, press lines in it.
//   gamepad         ?record with a fake standard pad behind navigator.getGamepads (with
//                   practice on in localStorage: the left stick click, d-pad right, the right
//                   stick click; then d-pad right ~3 s, A once, the left stick right 1 s),
//                   Escape, q: the recording has its `pad connect`, `press right pad`, `press
//                   jump pad`, `axis X`, `savestate practice`, `loadstate practice` lines,
//                   replays natively to the page's state_hash, and the player moved right and
//                   jumped.
//   hidden          ?record, 2 s of ArrowRight, then the tab hidden for 10 s (a visibilitychange
//                   with document.hidden redefined, the page frozen over CDP: headless Chromium
//                   cannot hide a tab for real), shown again: the game is paused (q quits) and
//                   the summary's game time (ticks / 60) leaves the 10 s out (paused_s > 9).
//   audio           index.html twice, every AudioContext kept by an init script: with
//                   --autoplay-policy=no-user-gesture-required, after the first key one exists and
//                   is "running"; with the default policy, #ledge-start shows and frames are
//                   drawn before any key, a key hides it, no ledgeError. Prints the states.
//   race            target/debug/ledge serve, a headless native peer and the page
//                   (?net=ws://…/ROOM&players=2&exit_after=8, WebRTC on loopback, Chromium's mDNS
//                   host candidates off) race level 1: window.ledgeRaceSummary and the native exit
//                   lines give one state_hash at tick 480; the native --record replays to it.
//   device-lost     ?record in a Chromium with --disable-gpu (every WebGPU device is lost at once):
//                   the page recreates the device, then falls back to WebGL2 on a fresh canvas and
//                   plays on; `device lost, recreated` in the console, level 1 on the canvas
//                   (OUT/device-lost.png), ~6 s of keys, Escape, q: summary.device_losses >= 1 and
//                   the recording replays natively to the page's state_hash.
//   practice        settings.toml in localStorage with savestates, the input display and
//                   invincibility on, then ?record: F7, 1.5 s of ArrowRight, F8; the canvas
//                   (OUT/practice.png) not blank, Escape, q: the recording has
//                   `config assist_invincible 1`, `savestate practice` and `loadstate practice`
//                   and replays natively to the page's state_hash, the player back at the spawn.
//   links           every tests/levels/*.lab as a link (`ledge replay --link`) opened as
//                   index.html#run=…: window.ledgeLabReport's state_hash is the native one (the
//                   page then plays the run in its replay window); an edited level's link sets
//                   window.ledgeLabError.
//   bench           index.html?bench=rollback: the race's re-simulation cost in the page (8 ticks,
//                   4 players, the largest level); prints window.ledgeBench's figures.
//
// Paths given are relative to the repository root. --dir defaults to target/web, --out to
// target/web-test (the screenshots, the recordings NAME.lab and each check's console,
// NAME.console.txt). playthrough, record, gamepad, device-lost, practice and links need
// target/debug/ledge (cargo build).
// Every check gets a fresh Chromium with a fresh --user-data-dir (so a fresh localStorage).
//
// This file: the arguments, the table of checks and the main loop. checks/ holds one module per
// check (or family of checks), lib/ the machinery they share: the server, Chromium, page helpers,
// PNG and golden images, ?record pages, the native replay.

import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { audioCheck } from './checks/audio.mjs';
import { browserCheck } from './checks/browser.mjs';
import { gamepadCheck } from './checks/gamepad.mjs';
import { hiddenCheck } from './checks/hidden.mjs';
import { labNeeds, labRuns, prepareLab } from './checks/lab.mjs';
import { labsCheck, labsNeeds, prepareLabs } from './checks/labs.mjs';
import { playthroughCheck } from './checks/playthrough.mjs';
import { recordCheck } from './checks/record.mjs';
import { startWebgl2, startWebgpu } from './checks/start.mjs';
import { storageCheck, storageCorruptCheck } from './checks/storage.mjs';
import { loadChromium, makeWithBrowser } from './lib/browser.mjs';
import { Fail } from './lib/fail.mjs';
import { fromRoot, root } from './lib/paths.mjs';
import { startServer } from './lib/server.mjs';
import { raceCheck } from './checks/race.mjs';
import { benchCheck } from './checks/bench.mjs';
import { deviceLostCheck } from './checks/device.mjs';
import { practiceCheck } from './checks/practice.mjs';
import { linksCheck } from './checks/links.mjs';

// --- the checks ---------------------------------------------------------------------------------
// One entry a check, in the order `checks:` in the usage lists them (all run when none is named).
// Adding a check: write checks/NAME.mjs exporting `async function nameCheck(ctx)`, add
// `{ name: 'NAME', run: nameCheck }` here, and document it in the comment at the top.
//   name     the check's argument and its name in `PASS name` / `FAIL name: reason`.
//   run      async (ctx) => note | undefined: resolves to a note (`PASS name (note) 1.2s`) or
//            nothing to pass; fails by throwing fail(reason) (lib/fail.mjs: `FAIL name: reason`;
//            any other error: `FAIL name: ` and its message's first line).
//   ctx      { name, opts, served, out, origin, withBrowser, prepared }: name the run's name; opts
//            the parsed arguments (opts.dir, opts.out, opts.chromium, ...); served, out: --dir and
//            --out as absolute paths; origin: the server's http://127.0.0.1:PORT (serving
//            `served`); withBrowser(name, fn, extraArgs): fn(page, log) in a fresh Chromium, the
//            console in log and OUT/NAME.console.txt (lib/browser.mjs); prepared: see prepare.
//            Helpers to import: lib/fail.mjs (fail, sleep), lib/page.mjs (needGame(ctx),
//            framesOver), lib/server.mjs (BLANK), lib/paths.mjs (root, fromRoot), lib/png.mjs,
//            lib/record.mjs (?record pages), lib/native.mjs (target/debug/ledge lab replays).
// Optional, for a check that needs arguments or set-up (lab, labs):
//   needs    (opts) => message | null: a message makes naming the check a bad argument (exit 2)
//            and leaves it out when no check is named.
//   prepare  (ctx) => value, once before the server starts (ctx has no origin yet) when the check
//            is named; the value is ctx.prepared. It may exit 2 on a bad argument.
//   runs     (ctx) => [[name, run], ...]: several runs, each with its own name, instead of `run`.
const CHECKS = [
  { name: 'browser', run: browserCheck },
  { name: 'start-webgl2', run: startWebgl2 },
  { name: 'start-webgpu', run: startWebgpu },
  { name: 'playthrough', run: playthroughCheck },
  { name: 'lab', needs: labNeeds, prepare: prepareLab, runs: labRuns },
  { name: 'labs', needs: labsNeeds, prepare: prepareLabs, run: labsCheck },
  { name: 'storage', run: storageCheck },
  { name: 'storage-corrupt', run: storageCorruptCheck },
  { name: 'record', run: recordCheck },
  { name: 'gamepad', run: gamepadCheck },
  { name: 'hidden', run: hiddenCheck },
  { name: 'audio', run: audioCheck },
  { name: 'race', run: raceCheck },
  { name: 'device-lost', run: deviceLostCheck },
  { name: 'practice', run: practiceCheck },
  { name: 'links', run: linksCheck },
  { name: 'bench', run: benchCheck },
];

// --- arguments ----------------------------------------------------------------------------------
const ALL = CHECKS.map((c) => c.name);
const usage = 'usage: node web/tests/run.mjs [CHECK...] [--dir DIR] [--out DIR] [--lab FILE.lab]... [--labs LIST] ' +
  `[--expect FILE.json] [--chromium PATH]; checks: ${ALL.join(' ')}`;
const opts = { dir: 'target/web', out: 'target/web-test', labs: [], list: null, expect: null,
  chromium: process.env.LEDGE_CHROMIUM || '/usr/bin/chromium', checks: [] };
{
  const argv = process.argv.slice(2);
  const bad = (msg) => { console.error(`run.mjs: ${msg} (${usage})`); process.exit(2); };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => (i + 1 < argv.length ? argv[++i] : bad(`${a} needs a value`));
    if (a === '--dir') opts.dir = value();
    else if (a === '--out') opts.out = value();
    else if (a === '--lab') opts.labs.push(value());
    else if (a === '--labs') opts.list = value();
    else if (a === '--expect') opts.expect = value();
    else if (a === '--chromium') opts.chromium = value();
    else if (a === '-h' || a === '--help') { console.log(usage); process.exit(0); }
    else if (ALL.includes(a)) opts.checks.push(a);
    else bad(`unknown argument ${a}`);
  }
  if (opts.checks.length === 0) opts.checks = CHECKS.filter((c) => !c.needs?.(opts)).map((c) => c.name);
  for (const c of CHECKS) {
    const why = opts.checks.includes(c.name) ? c.needs?.(opts) : null;
    if (why) bad(why);
  }
}
const served = fromRoot(opts.dir);
const out = fromRoot(opts.out);
mkdirSync(out, { recursive: true });
const chromium = loadChromium(root, opts.chromium);
const ctx = { opts, served, out, withBrowser: makeWithBrowser(chromium, opts.chromium, out) };

// --- set-up, the server, the runs ---------------------------------------------------------------
const prepared = new Map();
for (const c of CHECKS) {
  if (c.prepare && opts.checks.includes(c.name)) prepared.set(c.name, await c.prepare({ ...ctx, name: c.name }));
}
const { server, origin } = await startServer(served);
const runs = [];
for (const name of opts.checks) {
  const check = CHECKS.find((c) => c.name === name);
  const base = { ...ctx, name, origin, prepared: prepared.get(name) };
  const each = check.runs ? check.runs(base) : [[name, check.run]];
  for (const [n, run] of each) runs.push([n, () => run({ ...base, name: n })]);
}
let passed = 0, failed = 0;
for (const [name, fn] of runs) {
  rmSync(join(out, `${name.replace(' ', '-')}.console.txt`), { force: true });
  const t0 = Date.now();
  try {
    const note = await fn();
    passed++;
    console.log(`PASS ${name}${note ? ` (${note})` : ''} ${((Date.now() - t0) / 1000).toFixed(1)}s`);
  } catch (e) {
    failed++;
    const why = e instanceof Fail ? e.message : `${e?.message ?? e}`.split('\n')[0];
    const log = join(out, `${name.replace(' ', '-')}.console.txt`);
    console.log(`FAIL ${name}: ${why}${existsSync(log) ? ` (console: ${log})` : ''}`);
  }
}
server.close();
console.log(`web: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
