#!/usr/bin/env node
// Ledge in the browser, tested in a real one (issue #19): serves target/web (scripts/web builds
// it) on a free 127.0.0.1 port and drives Debian's headless Chromium through playwright-core
// (web/package.json; no browser download). One line per check: `PASS name` or
// `FAIL name: reason`, then `web: N passed, N failed`; exit status 1 on any failure, 2 on a
// bad argument.
//
//   node web/tests/run.mjs [CHECK...] [--dir DIR] [--out DIR] [--lab FILE.lab]... [--expect FILE.json]
//                          [--chromium PATH]
//
// Checks (all of them when none is named; `lab` only with --lab):
//   browser         Chromium starts headless; WebGL2 (SwiftShader) and a WebGPU adapter exist
//                   (prints `INFO browser ...` with what they are). Needs no game.
//   start-webgl2    index.html?backend=webgl2: ledgeFrames > 30 within 60 s, ledgeBackend is
//   start-webgpu    "WebGL2" (plain index.html: "WebGPU"); Enter, Enter (title, then level 1 from
//                   the level select); the canvas at 1280x720 is not blank (OUT/NAME.png).
//   lab             per --lab FILE (copied to DIR/lab/NAME.lab): index.html?lab=lab/NAME.lab
//                   until window.ledgeLabReport; prints `HASH NAME STATE_HASH`; with --expect
//                   (a JSON object: NAME or FILE -> state_hash) the hash must match.
//   storage         progress.toml (level 2 unlocked) in localStorage before the load: the game
//                   starts and the item is still there, not set aside as bad.
//   storage-corrupt "not toml [" as progress.toml: after the load progress.toml.bad-1 holds it
//                   and a console warning names progress.toml.
//
// Paths given are relative to the repository root. --dir defaults to target/web, --out to
// target/web-test (the screenshots and each check's console, NAME.console.txt).
// Every check gets a fresh Chromium with a fresh --user-data-dir (so a fresh localStorage).

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
const ALL = ['browser', 'start-webgl2', 'start-webgpu', 'lab', 'storage', 'storage-corrupt'];
const usage = 'usage: node web/tests/run.mjs [CHECK...] [--dir DIR] [--out DIR] [--lab FILE.lab]... ' +
  `[--expect FILE.json] [--chromium PATH]; checks: ${ALL.join(' ')}`;
const opts = { dir: 'target/web', out: 'target/web-test', labs: [], expect: null,
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
    else if (a === '--expect') opts.expect = value();
    else if (a === '--chromium') opts.chromium = value();
    else if (a === '-h' || a === '--help') { console.log(usage); process.exit(0); }
    else if (ALL.includes(a)) opts.checks.push(a);
    else bad(`unknown argument ${a}`);
  }
  if (opts.checks.length === 0) opts.checks = ALL.filter((c) => c !== 'lab' || opts.labs.length > 0);
  if (opts.checks.includes('lab') && opts.labs.length === 0) bad('the lab check needs --lab FILE.lab');
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

// withBrowser(name, fn): fn(page, log) in a fresh Chromium (fresh --user-data-dir, 1280x720),
// its console kept in log (and written to OUT/NAME.console.txt).
async function withBrowser(name, fn) {
  const profile = mkdtempSync(join(tmpdir(), 'ledge-web-test-'));
  const log = [];
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: opts.chromium, headless: true, args: ARGS, ignoreDefaultArgs: [PLAYWRIGHT_FEATURES],
      viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1, timeout: 60_000,
    });
    const page = context.pages()[0] ?? await context.newPage();
    page.on('console', (m) => log.push({ type: m.type(), text: m.text() }));
    page.on('pageerror', (e) => log.push({ type: 'pageerror', text: String(e?.stack ?? e) }));
    return await fn(page, log);
  } finally {
    writeFileSync(join(out, `${name}.console.txt`), log.map((m) => `[${m.type}] ${m.text}\n`).join(''));
    await context?.close().catch(() => {});
    rmSync(profile, { recursive: true, force: true });
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

// The distinct colours of a PNG (8-bit RGB or RGBA, not interlaced: what Chromium writes).
function pngColours(buf) {
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
  const colours = new Set();
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
    for (let x = 0; x < stride; x += bpp) colours.add((line[x] << 16) | (line[x + 1] << 8) | line[x + 2]);
    prev = line;
  }
  return colours.size;
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
    await page.goto(`${origin}/index.html${query}`);
    await framesOver(page, 30);
    const got = await page.evaluate(() => window.ledgeBackend);
    if (got !== backend) fail(`window.ledgeBackend = ${JSON.stringify(got)}, want "${backend}"`);
    // The title (any key: the level select), then the level select's first item: level 1.
    await page.locator('#ledge').focus();
    await page.keyboard.press('Enter');
    await sleep(700);
    await page.keyboard.press('Enter');
    await sleep(2500);
    const before = await page.evaluate(() => window.ledgeFrames);
    const after = await framesOver(page, before + 10, 10_000);
    if (!(await page.locator('#ledge-start').isHidden())) fail('#ledge-start still shows after a key');
    const png = join(out, `${name}.png`);
    const shot = await page.locator('#ledge').screenshot({ path: png });
    const colours = pngColours(shot);
    if (colours < MIN_COLOURS) fail(`the canvas looks blank: ${colours} colours (want >= ${MIN_COLOURS}), ${png}`);
    return `${backend}, ${after} frames, ${colours} colours, ${png}`;
  });
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

const PROGRESS = `# Ledge progress, written by the game (README.md "Saved data"). Times are ticks at 60 Hz.

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

// --- run ----------------------------------------------------------------------------------------
const runs = [];
for (const c of opts.checks) {
  if (c === 'browser') runs.push(['browser', browserCheck]);
  if (c === 'start-webgl2') runs.push([c, () => startCheck(c, '?backend=webgl2', 'WebGL2')]);
  if (c === 'start-webgpu') runs.push([c, () => startCheck(c, '', 'WebGPU')]);
  if (c === 'lab') for (const l of labs) runs.push([`lab ${l.name}`, () => labCheck(l)]);
  if (c === 'storage') runs.push([c, storageCheck]);
  if (c === 'storage-corrupt') runs.push([c, storageCorruptCheck]);
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
