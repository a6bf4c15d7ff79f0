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
//                   Prints the time to the first frame and level 1's mean frame time over 5 s.
//   playthrough     from the title to the end of level 1 with the keyboard: Enter, Enter, then
//                   tests/levels/level1.lab's presses and releases sent as real keys at their
//                   times from the level's start (arrows and Space); passes when
//                   window.ledgeScreen becomes "playing level2.tmx". Real-time keys reach the
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
//   gamepad         ?record with a fake standard pad behind navigator.getGamepads (d-pad right
//                   ~3 s, A once, the left stick right 1 s), Escape, q: the recording has its
//                   `pad connect`, `press right pad`, `press jump pad`, `axis X` lines, replays
//                   natively to the page's state_hash, and the player moved right and jumped.
//   hidden          ?record, 2 s of ArrowRight, then the tab hidden for 10 s (a visibilitychange
//                   with document.hidden redefined, the page frozen over CDP: headless Chromium
//                   cannot hide a tab for real), shown again: the game is paused (q quits) and
//                   the summary's game time (ticks / 60) leaves the 10 s out (paused_s > 9).
//   audio           index.html twice, every AudioContext kept by an init script: with
//                   --autoplay-policy=no-user-gesture-required, after the first key one exists and
//                   is "running"; with the default policy, #ledge-start shows and frames are
//                   drawn before any key, a key hides it, no ledgeError. Prints the states.
//
// Paths given are relative to the repository root. --dir defaults to target/web, --out to
// target/web-test (the screenshots, the recordings NAME.lab and each check's console,
// NAME.console.txt). record and gamepad need target/debug/ledge (cargo build).
// Every check gets a fresh Chromium with a fresh --user-data-dir (so a fresh localStorage).

import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, isAbsolute, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const fromRoot = (p) => (isAbsolute(p) ? p : resolve(root, p));

// --- arguments ----------------------------------------------------------------------------------
const ALL = ['browser', 'start-webgl2', 'start-webgpu', 'playthrough', 'lab', 'labs', 'storage', 'storage-corrupt',
  'record', 'gamepad', 'hidden', 'audio'];
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
  if (opts.checks.length === 0) {
    opts.checks = ALL.filter((c) => (c !== 'lab' || opts.labs.length > 0) && (c !== 'labs' || opts.list));
  }
  if (opts.checks.includes('lab') && opts.labs.length === 0) bad('the lab check needs --lab FILE.lab');
  if (opts.checks.includes('labs') && !opts.list) bad('the labs check needs --labs LIST');
}
const served = fromRoot(opts.dir);
const out = fromRoot(opts.out);
mkdirSync(out, { recursive: true });

let chromium;
try {
  chromium = createRequire(join(root, 'web', 'package.json'))('playwright-core').chromium;
} catch {
  console.error('run.mjs: no playwright-core: run `npm ci --prefix web` (web/package-lock.json)');
  process.exit(1);
}
if (!existsSync(opts.chromium)) {
  console.error(`run.mjs: no Chromium at ${opts.chromium}: apt-get install chromium (scripts/lib/packages.sh web_packages)`);
  process.exit(1);
}

// --- the lab scripts, served under lab/ ---------------------------------------------------------
const labs = [];
if (opts.checks.includes('lab')) {
  let expect = {};
  if (opts.expect) {
    try {
      expect = JSON.parse(readFileSync(fromRoot(opts.expect), 'utf8'));
    } catch (e) {
      console.error(`run.mjs: --expect ${opts.expect}: ${e.message}`);
      process.exit(2);
    }
  }
  for (const file of opts.labs) {
    const name = basename(file, '.lab');
    if (!existsSync(fromRoot(file))) { console.error(`run.mjs: no lab script ${file}`); process.exit(2); }
    if (labs.some((l) => l.name === name)) { console.error(`run.mjs: two lab scripts named ${name}.lab`); process.exit(2); }
    labs.push({ name, file, expect: expect[file] ?? expect[name] ?? null });
  }
  if (existsSync(join(served, 'index.html'))) {
    mkdirSync(join(served, 'lab'), { recursive: true });
    for (const l of labs) copyFileSync(fromRoot(l.file), join(served, 'lab', `${l.name}.lab`));
  }
}

// --- the batch of lab scripts (--labs LIST), served under labs/ ----------------------------------
// LIST: one `PATH [--recut R]` a line (PATH relative to the repository root, or absolute).
const batch = [];
if (opts.checks.includes('labs')) {
  const lines = readFileSync(fromRoot(opts.list), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const names = new Map();
  for (const line of lines) {
    const [file, recut] = line.split(' --recut ').map((x) => x.trim());
    if (!existsSync(fromRoot(file))) { console.error(`run.mjs: --labs ${opts.list}: no lab script ${file}`); process.exit(2); }
    if (!names.has(file)) names.set(file, `labs/${names.size}-${basename(file)}`);
    batch.push({ file, recut: recut ?? null, url: names.get(file) });
  }
  if (existsSync(join(served, 'index.html'))) {
    mkdirSync(join(served, 'labs'), { recursive: true });
    for (const [file, url] of names) copyFileSync(fromRoot(file), join(served, url));
    writeFileSync(join(served, 'labs', 'list.txt'),
      batch.map((b) => `${b.url}${b.recut ? ` --recut ${b.recut}` : ''}\n`).join(''));
  }
}

// --- the server ---------------------------------------------------------------------------------
const MIME = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm', '.json': 'application/json', '.png': 'image/png',
  '.wav': 'audio/wav', '.ttf': 'font/ttf', '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8', '.lab': 'text/plain; charset=utf-8',
  '.toml': 'text/plain; charset=utf-8', '.tmx': 'application/xml', '.tsx': 'application/xml',
};
const BLANK = '/__blank.html';  // a page on the game's origin: localStorage before the game loads
const server = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  const send = (status, type, body) => {
    res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
  if (path === BLANK) return send(200, MIME['.html'], '<!doctype html><link rel="icon" href="data:,"><title>blank</title>');
  let file = resolve(served, `.${path.endsWith('/') ? `${path}index.html` : path}`);
  if (file !== served && !file.startsWith(served + sep)) return send(403, 'text/plain', 'forbidden');
  try {
    if (statSync(file).isDirectory()) file = join(file, 'index.html');
    send(200, MIME[extname(file)] ?? 'application/octet-stream', readFileSync(file));
  } catch {
    send(404, 'text/plain', 'not found');
  }
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const origin = `http://127.0.0.1:${server.address().port}`;

// --- the browser --------------------------------------------------------------------------------
// Not --disable-gpu: with it, Chromium 156's GPU process cannot make the shared image a WebGPU
// canvas presents into, and the device is lost at the first present ("Could not find
// SharedImageBackingFactory ... WebgpuSwapChainTexture"). SwiftShader's Vulkan instead: Dawn
// (WebGPU) and ANGLE (WebGL2) both on the CPU, no real GPU needed. Playwright's own
// --enable-features is replaced by one list holding it and Vulkan (the last such flag wins).
const PLAYWRIGHT_FEATURES = '--enable-features=CDPScreenshotNewSurface';
const ARGS = [
  '--headless', '--no-sandbox', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
  '--use-angle=swiftshader', '--use-vulkan=swiftshader', '--enable-features=Vulkan,CDPScreenshotNewSurface',
  '--enable-unsafe-swiftshader',  // WebGL2 on the CPU
  '--enable-unsafe-webgpu',       // WebGPU (Dawn on SwiftShader's Vulkan)
];

// withBrowser(name, fn, extraArgs): fn(page, log) in a fresh Chromium (fresh --user-data-dir,
// 1280x720; ARGS and extraArgs), its console kept in log (and written to OUT/NAME.console.txt).
async function withBrowser(name, fn, extraArgs = []) {
  const profile = mkdtempSync(join(tmpdir(), 'ledge-web-test-'));
  const log = [];
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: opts.chromium, headless: true, args: [...ARGS, ...extraArgs], ignoreDefaultArgs: [PLAYWRIGHT_FEATURES],
      viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1, timeout: 60_000,
    });
    const page = context.pages()[0] ?? await context.newPage();
    page.on('console', (m) => log.push({ type: m.type(), text: m.text() }));
    page.on('pageerror', (e) => log.push({ type: 'pageerror', text: String(e?.stack ?? e) }));
    return await fn(page, log);
  } finally {
    writeFileSync(join(out, `${name}.console.txt`), log.map((m) => `[${m.type}] ${m.text}\n`).join(''));
    await context?.close().catch(() => {});
    // Chromium's last writes to the profile can land after close() (seen under load: ENOTEMPTY,
    // which replaced the run's result): retry the removal a while.
    rmSync(profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
  }
}

class Fail extends Error {}
const fail = (reason) => { throw new Fail(reason); };
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

function needGame() {
  for (const f of ['index.html', 'ledge.js', 'ledge_bg.wasm', 'assets/manifest.txt']) {
    if (!existsSync(join(served, f))) fail(`no ${join(opts.dir, f)} (build it: scripts/web)`);
  }
}

// Waits for window.ledgeFrames > n (or ledgeError, or the timeout): the frame count reached.
async function framesOver(page, n, timeoutMs = 60_000) {
  try {
    await page.waitForFunction((n) => window.ledgeFrames > n || window.ledgeError !== undefined, n,
      { timeout: timeoutMs, polling: 100 });
  } catch {
    const [frames, backend] = await page.evaluate(() => [window.ledgeFrames, window.ledgeBackend]);
    fail(`window.ledgeFrames = ${frames} after ${timeoutMs / 1000} s (want > ${n}; ledgeBackend = ${backend})`);
  }
  const err = await page.evaluate(() => window.ledgeError);
  if (err !== undefined) fail(`window.ledgeError: ${err}`);
  return page.evaluate(() => window.ledgeFrames);
}

// A PNG's pixels as RGB (8-bit RGB or RGBA, not interlaced: what Chromium and Ledge write):
// { width, height, rgb } with rgb a Buffer of width * height * 3 bytes.
function decodePng(buf) {
  let at = 8, width = 0, height = 0, type = 0, depth = 0, interlace = 0;
  const idat = [];
  while (at < buf.length) {
    const len = buf.readUInt32BE(at), kind = buf.toString('ascii', at + 4, at + 8);
    const data = buf.subarray(at + 8, at + 8 + len);
    if (kind === 'IHDR') {
      width = data.readUInt32BE(0); height = data.readUInt32BE(4);
      depth = data[8]; type = data[9]; interlace = data[12];
    } else if (kind === 'IDAT') idat.push(data);
    at += 12 + len;
  }
  const bpp = { 2: 3, 6: 4 }[type];
  if (depth !== 8 || !bpp || interlace) throw new Error(`PNG colour type ${type}, depth ${depth}, interlace ${interlace}`);
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * bpp;
  let prev = Buffer.alloc(stride);
  const rgb = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? line[x - bpp] : 0, b = prev[x], c = x >= bpp ? prev[x - bpp] : 0;
      let p = 0;
      if (filter === 1) p = a;
      else if (filter === 2) p = b;
      else if (filter === 3) p = (a + b) >> 1;
      else if (filter === 4) {
        const pa = Math.abs(b - c), pb = Math.abs(a - c), pc = Math.abs(a + b - 2 * c);
        p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      line[x] = (line[x] + p) & 0xff;
    }
    for (let x = 0, o = y * width * 3; x < stride; x += bpp, o += 3) {
      rgb[o] = line[x]; rgb[o + 1] = line[x + 1]; rgb[o + 2] = line[x + 2];
    }
    prev = line;
  }
  return { width, height, rgb };
}

// The distinct colours of a PNG.
function pngColours(buf) {
  const { rgb } = decodePng(buf);
  const colours = new Set();
  for (let o = 0; o < rgb.length; o += 3) colours.add((rgb[o] << 16) | (rgb[o + 1] << 8) | rgb[o + 2]);
  return colours.size;
}

// The fraction of pixels of `shot` (a PNG) that differ from the native golden image
// tests/golden/NAME.png by more than tests/common/golden.rs's CHANNEL_TOLERANCE (24 of 255) in
// a channel, leaving out the HUD's box in the top-left corner (its clock differs: the golden is
// drawn at a fixed frame, the page at whatever time the keys reached the level).
const GOLDEN_CHANNEL_TOLERANCE = 24;
const GOLDEN_MAX_DIFFERENT = 0.002;  // as tests/common/golden.rs: 0.2 % of the pixels
const HUD_BOX = { w: 260, h: 64 };
function goldenDifference(shot, name) {
  const a = decodePng(shot), b = decodePng(readFileSync(join(root, 'tests', 'golden', `${name}.png`)));
  if (a.width !== b.width || a.height !== b.height) return { frac: 1, why: `${a.width}x${a.height} against ${b.width}x${b.height}` };
  let different = 0, counted = 0;
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      if (x < HUD_BOX.w && y < HUD_BOX.h) continue;
      counted++;
      const o = (y * a.width + x) * 3;
      if ([0, 1, 2].some((c) => Math.abs(a.rgb[o + c] - b.rgb[o + c]) > GOLDEN_CHANNEL_TOLERANCE)) different++;
    }
  }
  return { frac: different / counted, why: `${different} of ${counted} pixels differ` };
}

// --- the checks ---------------------------------------------------------------------------------
const MIN_COLOURS = 48;  // the title over a level: sky, tiles, sprites, text; a blank canvas has 1

async function browserCheck() {
  return withBrowser('browser', async (page) => {
    await page.goto(origin + BLANK);
    const info = await page.evaluate(async () => {
      const r = { secure: window.isSecureContext, ua: navigator.userAgent };
      const gl = document.createElement('canvas').getContext('webgl2');
      if (gl) {
        const dbg = gl.getExtension('WEBGL_debug_renderer_info');
        r.webgl2 = dbg ? gl.getParameter(dbg.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
      }
      if (!navigator.gpu) { r.webgpu = 'no navigator.gpu'; return r; }
      const adapter = await navigator.gpu.requestAdapter().catch((e) => null);
      if (!adapter) { r.webgpu = 'requestAdapter() gave null'; return r; }
      const i = adapter.info ?? {};
      r.adapter = { vendor: i.vendor, architecture: i.architecture, device: i.device,
        description: i.description, fallback: adapter.isFallbackAdapter ?? i.isFallbackAdapter,
        maxTextureDimension2D: adapter.limits.maxTextureDimension2D };
      try {
        const device = await adapter.requestDevice();
        r.device = true;
        device.destroy();
      } catch (e) { r.device = String(e); }
      return r;
    });
    const version = page.context().browser()?.version() ?? '';
    console.log(`INFO browser chromium ${version || info.ua}; WebGL2: ${info.webgl2 ?? 'none'}; ` +
      `WebGPU adapter: ${info.adapter ? JSON.stringify(info.adapter) : info.webgpu}; device: ${info.device}`);
    if (!info.secure) fail(`${origin} is not a secure context (WebGPU needs one)`);
    if (!info.webgl2) fail('no WebGL2 context (--enable-unsafe-swiftshader)');
    if (!info.adapter) fail(`no WebGPU adapter: ${info.webgpu}`);
    if (info.device !== true) fail(`WebGPU requestDevice: ${info.device}`);
  });
}

async function startCheck(name, query, backend) {
  needGame();
  return withBrowser(name, async (page) => {
    const t0 = Date.now();
    await page.goto(`${origin}/index.html${query}`);
    await framesOver(page, 0);
    const firstFrameMs = Date.now() - t0;
    await framesOver(page, 30);
    const got = await page.evaluate(() => window.ledgeBackend);
    if (got !== backend) fail(`window.ledgeBackend = ${JSON.stringify(got)}, want "${backend}"`);
    // The title (any key: the level select), then the level select's first item: level 1.
    await page.locator('#ledge').focus();
    await page.keyboard.press('Enter');
    await sleep(700);
    await page.keyboard.press('Enter');
    await sleep(1500);
    const screen = await page.evaluate(() => window.ledgeScreen);
    if (screen !== 'playing level1.tmx') fail(`window.ledgeScreen = ${JSON.stringify(screen)} after Enter, Enter`);
    // The frame time on level 1 at 1280x720: frames presented over 5 s of wall time.
    const f0 = await page.evaluate(() => window.ledgeFrames);
    const t1 = Date.now();
    await sleep(5000);
    const f1 = await page.evaluate(() => window.ledgeFrames);
    const frameMs = (Date.now() - t1) / Math.max(1, f1 - f0);
    if (!(await page.locator('#ledge-start').isHidden())) fail('#ledge-start still shows after a key');
    const png = join(out, `${name}.png`);
    const shot = await page.locator('#ledge').screenshot({ path: png });
    const colours = pngColours(shot);
    if (colours < MIN_COLOURS) fail(`the canvas looks blank: ${colours} colours (want >= ${MIN_COLOURS}), ${png}`);
    const golden = goldenDifference(shot, 'level1-start');
    if (golden.frac > GOLDEN_MAX_DIFFERENT) fail(`${png} against tests/golden/level1-start.png: ${golden.why}`);
    return `${backend}, first frame ${firstFrameMs} ms after the load began, level 1 at ${frameMs.toFixed(1)} ms a ` +
      `frame (${f1 - f0} frames in 5 s), ${colours} colours, golden level1-start: ${golden.why}, ${png}`;
  });
}

// The key events of a lab script written by examples/solve: [{ t_ms, down, key }] with t_ms from
// the level's first tick (events after `frame MS xN` lines come MS * N later).
const ACTION_KEYS = { right: 'ArrowRight', left: 'ArrowLeft', jump: 'Space' };
function scriptKeys(file) {
  const events = [];
  let t = 0;
  for (const line of readFileSync(fromRoot(file), 'utf8').split('\n')) {
    const f = line.match(/^frame ([0-9.]+)(?: x(\d+))?$/);
    if (f) t += Number(f[1]) * Number(f[2] ?? 1);
    const e = line.match(/^(press|release) (\w+)$/);
    if (e && ACTION_KEYS[e[2]]) events.push({ t_ms: t, down: e[1] === 'press', key: ACTION_KEYS[e[2]] });
  }
  return events;
}

async function playthroughCheck() {
  needGame();
  const events = scriptKeys('tests/levels/level1.lab');
  const tries = [];
  for (let attempt = 1; attempt <= 3; attempt++) {
    const why = await withBrowser(`playthrough-${attempt}`, async (page) => {
      await page.goto(`${origin}/index.html`);
      await framesOver(page, 10);
      await page.locator('#ledge').focus();
      await page.keyboard.press('Enter');
      await sleep(700);
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => window.ledgeScreen === 'playing level1.tmx', null, { timeout: 10_000, polling: 'raf' })
        .catch(() => fail('level 1 did not start after Enter, Enter'));
      const t0 = Date.now();
      for (const e of events) {
        const wait = t0 + e.t_ms - Date.now();
        if (wait > 0) await sleep(wait);
        await (e.down ? page.keyboard.down(e.key) : page.keyboard.up(e.key));
      }
      const done = await page.waitForFunction(() => window.ledgeScreen === 'playing level2.tmx', null,
        { timeout: 10_000, polling: 100 }).then(() => true, () => false);
      const screen = await page.evaluate(() => window.ledgeScreen);
      return done ? null : `after the script's ${(events.at(-1)?.t_ms / 1000).toFixed(1)} s: ${screen}`;
    });
    if (why === null) return `level 1 finished by keyboard on attempt ${attempt}${tries.length ? ` (before: ${tries.join('; ')})` : ''}`;
    tries.push(why);
  }
  fail(`level 1 not finished in 3 attempts: ${tries.join('; ')}`);
}

async function labCheck(lab) {
  needGame();
  return withBrowser(`lab-${lab.name}`, async (page, log) => {
    await page.goto(`${origin}/index.html?lab=lab/${encodeURIComponent(lab.name)}.lab`);
    try {
      await page.waitForFunction(() => window.ledgeLabReport !== undefined || window.ledgeError !== undefined,
        null, { timeout: 120_000, polling: 100 });
    } catch {
      fail('no window.ledgeLabReport after 120 s');
    }
    const [report, err] = await page.evaluate(() => [window.ledgeLabReport, window.ledgeError]);
    if (err !== undefined) fail(`window.ledgeError: ${err}`);
    const obj = typeof report === 'string' ? JSON.parse(report) : report;
    const hash = obj?.summary?.state_hash;
    if (typeof hash !== 'string') fail(`ledgeLabReport has no summary.state_hash: ${JSON.stringify(obj).slice(0, 200)}`);
    console.log(`HASH ${lab.name} ${hash}`);
    if (!log.some((m) => m.type === 'log' && m.text.includes(hash))) fail('the report was not console.log-ged');
    if (lab.expect !== null && hash !== lab.expect) fail(`state_hash ${hash}, expected ${lab.expect}`);
  });
}

// labs: every script of --labs LIST in one page (`?labs=`), one `LABHASH PATH [--recut R] HASH`
// line each (`ERROR: line` for a script the lab refuses): scripts/determinism's browser column.
async function labsCheck() {
  needGame();
  return withBrowser('labs', async (page) => {
    await page.goto(`${origin}/index.html?labs=labs/list.txt`);
    try {
      await page.waitForFunction(() => window.ledgeLabReports !== undefined || window.ledgeError !== undefined,
        null, { timeout: 600_000, polling: 250 });
    } catch {
      fail('no window.ledgeLabReports after 600 s');
    }
    const [reports, err] = await page.evaluate(() => [window.ledgeLabReports, window.ledgeError]);
    if (err !== undefined) fail(`window.ledgeError: ${err}`);
    if (!Array.isArray(reports) || reports.length !== batch.length) fail(`${reports?.length} reports for ${batch.length} runs`);
    let errors = 0;
    batch.forEach((b, i) => {
      const r = reports[i];
      const what = r.state_hash ?? `ERROR: ${r.error}`;
      if (r.state_hash === undefined) errors++;
      console.log(`LABHASH ${b.file}${b.recut ? ` --recut ${b.recut}` : ''} ${what}`);
    });
    return `${batch.length} runs, ${errors} refused`;
  });
}

const PROGRESS = `# Ledge progress, written by the game (docs/playing.md "Saved data"). Times are ticks at 60 Hz.

version = 1
unlocked = ["level2"]
records = 1

[[level]]
id = "level1"
best_ticks = 582
fewest_deaths = 0
deathless = true
`;
const CORRUPT = 'not toml [';

// Loads the game with localStorage holding `items` first; returns localStorage after.
async function withStorage(page, items) {
  await page.goto(origin + BLANK);
  await page.evaluate((items) => {
    localStorage.clear();
    for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v);
  }, items);
  await page.goto(`${origin}/index.html`);
  await framesOver(page, 30);
  return page.evaluate(() => Object.fromEntries(Object.entries(localStorage)));
}

async function storageCheck() {
  needGame();
  return withBrowser('storage', async (page, log) => {
    const after = await withStorage(page, { 'progress.toml': PROGRESS });
    const text = after['progress.toml'];
    if (text === undefined) fail(`progress.toml is gone from localStorage (keys: ${Object.keys(after).join(', ')})`);
    if (!/^unlocked = \[[^\]]*"level2"/m.test(text)) fail(`progress.toml lost level 2: ${JSON.stringify(text)}`);
    const bad = Object.keys(after).filter((k) => k.startsWith('progress.toml.bad'));
    if (bad.length) fail(`a good progress.toml was set aside as ${bad.join(', ')}`);
    const warned = log.find((m) => m.type === 'warning' && m.text.includes('progress.toml'));
    if (warned) fail(`a warning about a good progress.toml: ${warned.text}`);
  });
}

async function storageCorruptCheck() {
  needGame();
  return withBrowser('storage-corrupt', async (page, log) => {
    const after = await withStorage(page, { 'progress.toml': CORRUPT });
    const kept = after['progress.toml.bad-1'];
    if (kept === undefined) fail(`no progress.toml.bad-1 in localStorage (keys: ${Object.keys(after).join(', ') || 'none'})`);
    if (kept !== CORRUPT) fail(`progress.toml.bad-1 holds ${JSON.stringify(kept)}, not the bad file`);
    const warned = log.find((m) => m.type === 'warning' && m.text.includes('progress.toml'));
    if (!warned) {
      const other = log.find((m) => m.text.includes('progress.toml'));
      fail(other ? `progress.toml named in console.${other.type}, not console.warn: ${other.text}`
        : 'no console warning names progress.toml');
    }
  });
}

// --- ?record: real play, quit, the native replay -------------------------------------------------
const LEDGE = join(root, 'target', 'debug', 'ledge');

function needLedge() {
  if (!existsSync(LEDGE)) fail('no target/debug/ledge for the native replay (cargo build)');
}

// index.html?record (playing level 1 at once) with `init` run before the page's scripts; waits
// for frames and focuses the canvas.
async function startRecording(page, init) {
  if (init) await page.addInitScript(init);
  await page.goto(`${origin}/index.html?record`);
  await framesOver(page, 30);
  await page.locator('#ledge').focus();
}

// Escape (pause; skipped when `paused`), then q (quit while paused): window.ledgeExitSummary
// and window.ledgeRecording.
async function quit(page, paused = false) {
  if (!paused) {
    await page.keyboard.press('Escape');
    await sleep(400);
  }
  await page.keyboard.press('q');
  try {
    await page.waitForFunction(() => (window.ledgeExitSummary !== undefined && window.ledgeRecording !== undefined)
      || window.ledgeError !== undefined, null, { timeout: 15_000, polling: 100 });
  } catch {
    const [s, r] = await page.evaluate(() => [window.ledgeExitSummary !== undefined, window.ledgeRecording !== undefined]);
    fail(`no window.ledgeExitSummary (${s}) / ledgeRecording (${r}) 15 s after Escape, q`);
  }
  const [summary, recording, err] = await page.evaluate(() => [window.ledgeExitSummary, window.ledgeRecording, window.ledgeError]);
  if (err !== undefined) fail(`window.ledgeError: ${err}`);
  if (typeof summary?.state_hash !== 'string' || !/^[0-9a-f]{16}$/.test(summary.state_hash)) {
    fail(`ledgeExitSummary.state_hash is ${JSON.stringify(summary?.state_hash)}`);
  }
  if (typeof recording !== 'string') fail(`ledgeRecording is a ${typeof recording}`);
  return { summary, recording };
}

// The recording written to OUT/NAME.lab and replayed natively (`target/debug/ledge lab FILE
// --summary`, from the repository root: its `level assets/...` line resolves from there).
function replay(name, recording) {
  const file = join(out, `${name}.lab`);
  writeFileSync(file, recording);
  const r = spawnSync(LEDGE, ['lab', file, '--summary'], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) fail(`ledge lab ${file} --summary: exit ${r.status}: ${(r.stderr || r.stdout).trim().split('\n')[0]}`);
  try {
    return { file, summary: JSON.parse(r.stdout).summary };
  } catch {
    fail(`ledge lab ${file} --summary printed no JSON: ${r.stdout.slice(0, 200)}`);
  }
}

// The native replay must end on the page's state_hash.
function sameHash(name, page, native) {
  if (native.summary?.state_hash !== page.state_hash) {
    fail(`the native replay of ${native.file} ends on ${native.summary?.state_hash}, the page on ${page.state_hash}` +
      ` (ticks: replay ${native.summary?.ticks}, page ${page.ticks})`);
  }
}

// A small fixed-seed generator: irregular, but the same timings every run.
function prng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const between = (rand, lo, hi) => Math.round(lo + rand() * (hi - lo));

async function recordCheck() {
  needGame();
  needLedge();
  return withBrowser('record', async (page) => {
    await startRecording(page);
    // ~20 s of the default keys (src/save/settings.rs): hold ArrowRight, tap Space at irregular
    // intervals and for irregular lengths, now and then ArrowLeft for a moment instead.
    const rand = prng(19);
    const t0 = Date.now();
    await page.keyboard.down('ArrowRight');
    while (Date.now() - t0 < 20_000) {
      await sleep(between(rand, 120, 900));
      if (rand() < 0.15) {
        await page.keyboard.up('ArrowRight');
        await page.keyboard.down('ArrowLeft');
        await sleep(between(rand, 200, 700));
        await page.keyboard.up('ArrowLeft');
        await page.keyboard.down('ArrowRight');
      } else {
        await page.keyboard.down('Space');
        await sleep(between(rand, 40, 350));
        await page.keyboard.up('Space');
      }
    }
    await page.keyboard.up('ArrowRight');
    const { summary, recording } = await quit(page);
    const presses = recording.split('\n').filter((l) => /^press /.test(l)).length;
    const native = replay('record', recording);
    sameHash('record', summary, native);
    if (presses < 10) fail(`only ${presses} press lines in ${native.file}`);
    if (!(summary.ticks > 600)) fail(`${summary.ticks} ticks (want > 600)`);
    return `state_hash ${summary.state_hash} native = page, ${summary.ticks} ticks, ${presses} presses, ` +
      `${summary.jumps} jumps, ${summary.respawns} respawns, ${native.file}`;
  });
}

// A fake standard-mapping pad behind navigator.getGamepads (gilrs-core's wasm backend polls
// getGamepads() every event-loop iteration and reads id, index, mapping, buttons[i].pressed and
// .value, axes; it needs no gamepadconnected event). window.ledgeTestPad.set(button, pressed)
// and .axis(i, v) change it.
const FAKE_PAD = () => {
  const pad = {
    id: 'Ledge test pad (STANDARD GAMEPAD Vendor: 1ed6 Product: 0001)', index: 0, connected: true,
    mapping: 'standard', timestamp: 0, vibrationActuator: null,
    buttons: Array.from({ length: 17 }, () => ({ pressed: false, touched: false, value: 0 })),
    axes: [0, 0, 0, 0],
  };
  const touch = () => { pad.timestamp = performance.now(); };
  window.ledgeTestPad = {
    polls: 0,
    set(i, pressed) { pad.buttons[i] = { pressed, touched: pressed, value: pressed ? 1 : 0 }; touch(); },
    axis(i, v) { pad.axes[i] = v; touch(); },
  };
  const getGamepads = function () { window.ledgeTestPad.polls++; return [pad, null, null, null]; };
  Object.defineProperty(Navigator.prototype, 'getGamepads', { value: getGamepads, configurable: true, writable: true });
  window.addEventListener('load', () => {
    touch();
    const e = new Event('gamepadconnected');
    e.gamepad = pad;
    window.dispatchEvent(e);
  });
};

async function gamepadCheck() {
  needGame();
  needLedge();
  return withBrowser('gamepad', async (page) => {
    await startRecording(page, FAKE_PAD);
    await sleep(500);
    const pad = (f, ...a) => page.evaluate(([f, a]) => window.ledgeTestPad[f](...a), [f, a]);
    await pad('set', 15, true);      // d-pad right, ~3 s
    await sleep(1500);
    await pad('set', 0, true);       // A (South): jump
    await sleep(250);
    await pad('set', 0, false);
    await sleep(1250);
    await pad('set', 15, false);
    await pad('axis', 0, 1);         // the left stick right, 1 s
    await sleep(1000);
    await pad('axis', 0, 0);
    await sleep(300);
    const polls = await page.evaluate(() => window.ledgeTestPad.polls);
    if (polls === 0) fail('navigator.getGamepads() was never called');
    const { summary, recording } = await quit(page);
    const lines = recording.split('\n');
    const want = ['pad connect', 'press right pad', 'release right pad', 'press jump pad', 'axis X 1.0'];
    const missing = want.filter((w) => !lines.some((l) => l.startsWith(w)));
    if (missing.length) fail(`no ${missing.map((m) => JSON.stringify(m)).join(', ')} line in the recording (OUT/gamepad.lab)`);
    const native = replay('gamepad', recording);
    sameHash('gamepad', summary, native);
    if (!(summary.player_x > summary.start_x + 100)) fail(`the player did not move right: x ${summary.player_x}, spawn ${summary.start_x}`);
    if (!(summary.jumps >= 1)) fail(`${summary.jumps} jumps after A`);
    return `${polls} getGamepads() polls, x ${summary.start_x} -> ${summary.player_x.toFixed(1)}, ${summary.jumps} jumps, ` +
      `state_hash ${summary.state_hash} native = page`;
  });
}

// Hiding the tab. Headless Chromium 156 has no way to make document.hidden true for real
// (Page.bringToFront of another tab, Browser.setWindowBounds minimized and
// Page.setWebLifecycleState leave visibilityState "visible", headless or headful under Xvfb), so:
// document.hidden / visibilityState are redefined and a visibilitychange dispatched (what the
// game and winit read), and for the 10 s hidden the page is frozen (CDP
// Page.setWebLifecycleState "frozen": no requestAnimationFrame, no timers, as a hidden tab's
// throttled ones), then made active and visible again.
async function setHidden(page, hidden) {
  await page.evaluate((hidden) => {
    const state = hidden ? 'hidden' : 'visible';
    Object.defineProperty(document, 'hidden', { get: () => hidden, configurable: true });
    Object.defineProperty(document, 'visibilityState', { get: () => state, configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}

async function hiddenCheck() {
  needGame();
  return withBrowser('hidden', async (page, log) => {
    await startRecording(page);
    await page.keyboard.down('ArrowRight');
    await sleep(2000);
    await page.keyboard.up('ArrowRight');
    await setHidden(page, true);
    await sleep(200);
    const cdp = await page.context().newCDPSession(page);
    const f0 = await page.evaluate(() => window.ledgeFrames);
    await cdp.send('Page.setWebLifecycleState', { state: 'frozen' });
    await sleep(10_000);
    await cdp.send('Page.setWebLifecycleState', { state: 'active' });
    await setHidden(page, false);
    const f1 = await page.evaluate(() => window.ledgeFrames);
    await sleep(1000);
    await framesOver(page, f1, 10_000);  // still drawing (the pause screen)
    if (!log.some((m) => m.text.includes('tab hidden: paused'))) fail('no "tab hidden: paused" in the console');
    // Paused: q quits at once (while playing it would do nothing).
    const { summary } = await quit(page, true);
    const game = summary.ticks / 60;
    const played = summary.wall_s - summary.paused_s;
    // The game time is the time played (not paused), and the 10 s hidden are not in it.
    if (!(game < summary.wall_s - 8 && game < played + 0.5)) {
      fail(`${summary.ticks} ticks (${game.toFixed(2)} s) simulated in ${summary.wall_s.toFixed(2)} s wall ` +
        `(${played.toFixed(2)} s played), 10 s of it hidden`);
    }
    if (!(summary.paused_s > 9)) fail(`paused_s ${summary.paused_s} (want > 9: the hidden 10 s)`);
    return `${summary.ticks} ticks = ${game.toFixed(2)} s game time, wall_s ${summary.wall_s.toFixed(2)}, ` +
      `paused_s ${summary.paused_s.toFixed(2)}, played ${played.toFixed(2)} s; ${f1 - f0} frames while frozen`;
  });
}

// --- sound ----------------------------------------------------------------------------------------
// Keeps every AudioContext the page makes in window.ledgeTestAudio (wasm-bindgen's glue looks
// up the global AudioContext at each `new`).
const HOOK_AUDIO = () => {
  window.ledgeTestAudio = [];
  for (const name of ['AudioContext', 'webkitAudioContext']) {
    const Orig = window[name];
    if (typeof Orig !== 'function') continue;
    window[name] = class extends Orig {
      constructor(...args) {
        super(...args);
        window.ledgeTestAudio.push(this);
      }
    };
  }
};
const audioStates = (page) => page.evaluate(() => window.ledgeTestAudio.map((c) => c.state));

// One run of the audio check: frames before any key (with #ledge-start showing), then a key;
// the AudioContext states before and after (a second after the key, or once all run).
async function audioRun(name, extraArgs) {
  return withBrowser(name, async (page) => {
    await page.addInitScript(HOOK_AUDIO);
    await page.goto(`${origin}/index.html`);
    const f0 = await framesOver(page, 30);
    await framesOver(page, f0 + 10, 10_000);
    if (await page.locator('#ledge-start').isHidden()) fail('#ledge-start is hidden before any key');
    const before = await audioStates(page);
    await page.locator('#ledge').focus();
    await page.keyboard.press('ArrowDown');  // on the title: any key, no level started
    try {
      await page.waitForFunction(() => window.ledgeTestAudio.length > 0
        && window.ledgeTestAudio.every((c) => c.state === 'running'), null, { timeout: 5_000, polling: 100 });
    } catch { /* the states are reported below */ }
    const f1 = await page.evaluate(() => window.ledgeFrames);
    await framesOver(page, f1 + 10, 10_000);
    if (!(await page.locator('#ledge-start').isHidden())) fail('#ledge-start still shows after a key');
    const err = await page.evaluate(() => window.ledgeError);
    if (err !== undefined) fail(`window.ledgeError: ${err}`);
    return { before, after: await audioStates(page) };
  }, extraArgs);
}

async function audioCheck() {
  needGame();
  const show = (s) => `[${s.join(', ')}]`;
  const a = await audioRun('audio-autoplay', ['--autoplay-policy=no-user-gesture-required']);
  if (a.after.length === 0) fail('autoplay allowed: no AudioContext after the first key');
  if (!a.after.every((s) => s === 'running')) fail(`autoplay allowed: AudioContext states after the first key ${show(a.after)}`);
  const b = await audioRun('audio', []);
  return `AudioContexts before/after the first key: autoplay allowed ${show(a.before)} -> ${show(a.after)}, ` +
    `default policy ${show(b.before)} -> ${show(b.after)}`;
}

// --- run ----------------------------------------------------------------------------------------
const runs = [];
for (const c of opts.checks) {
  if (c === 'browser') runs.push(['browser', browserCheck]);
  if (c === 'start-webgl2') runs.push([c, () => startCheck(c, '?backend=webgl2', 'WebGL2')]);
  if (c === 'start-webgpu') runs.push([c, () => startCheck(c, '', 'WebGPU')]);
  if (c === 'playthrough') runs.push([c, playthroughCheck]);
  if (c === 'lab') for (const l of labs) runs.push([`lab ${l.name}`, () => labCheck(l)]);
  if (c === 'labs') runs.push([c, labsCheck]);
  if (c === 'storage') runs.push([c, storageCheck]);
  if (c === 'storage-corrupt') runs.push([c, storageCorruptCheck]);
  if (c === 'record') runs.push([c, recordCheck]);
  if (c === 'gamepad') runs.push([c, gamepadCheck]);
  if (c === 'hidden') runs.push([c, hiddenCheck]);
  if (c === 'audio') runs.push([c, audioCheck]);
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
