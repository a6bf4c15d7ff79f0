// playthrough: from the title to the end of level 1 with the keyboard, tests/levels/level1.lab's
// presses and releases sent as real keys at their times; up to 3 attempts, each in a fresh browser.
// Then the run shared from the page and back: on level 2, Escape and the pause menu's "Copy run
// link" set window.ledgeRunLink ("Watch every attempt" above it opens the replay window over
// the game, OUT/every-attempt.png, and Escape leaves it); `ledge replay LINK --headless` plays it natively to level 1's
// goal; the link opened in the page replays headless to the same state_hash and draws the run in
// its replay window (OUT/run-link.png, the bar along the bottom).

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fail, sleep } from '../lib/fail.mjs';
import { needLedge } from '../lib/native.mjs';
import { framesOver, needGame } from '../lib/page.mjs';
import { fromRoot, root } from '../lib/paths.mjs';
import { decodePng } from '../lib/png.mjs';
import { BLANK } from '../lib/server.mjs';

// The replay bar's filled part (src/ui/replay_bar.rs FILLED, sRGB).
const FILLED = [60, 110, 200];

// Pixels of the bar's colour in the bottom 8 % of a screenshot.
function barPixels(buf) {
  const { width, height, rgb } = decodePng(buf);
  let n = 0;
  for (let y = Math.floor(height * 0.92); y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      if (rgb[i] === FILLED[0] && rgb[i + 1] === FILLED[1] && rgb[i + 2] === FILLED[2]) n++;
    }
  }
  return n;
}

// Level 2 is playing: Escape, "Copy run link" (the pause menu's sixth item after a level:
// Resume, Restart, Settings, Skip level, Watch every attempt, Copy run link); the link played
// natively and opened in the page again.
async function shareRun(ctx, page) {
  await page.keyboard.press('Escape');
  await sleep(300);
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press('ArrowDown');
    await sleep(60);
  }
  await page.keyboard.press('Enter');
  const link = await page.waitForFunction(() => window.ledgeRunLink, null, { timeout: 5_000, polling: 100 })
    .then((h) => h.jsonValue(), () => fail('no window.ledgeRunLink after "Copy run link"'));
  if (!link.startsWith(`${ctx.origin}/index.html#run=`)) fail(`the link is ${link.slice(0, 80)}`);
  // The item above it: "Watch every attempt", the replay window over the game.
  await page.keyboard.press('ArrowUp');
  await sleep(60);
  await page.keyboard.press('Enter');
  await sleep(800);
  const watching = join(ctx.out, 'every-attempt.png');
  const watchBar = barPixels(await page.locator('#ledge').screenshot({ path: watching }));
  if (watchBar < 200) fail(`no replay bar while watching every attempt (${watchBar} px; ${watching})`);
  await page.keyboard.press('Escape');
  await sleep(400);
  const back = barPixels(await page.locator('#ledge').screenshot());
  if (back > 0) fail('Escape did not leave "Watch every attempt"');
  const r = spawnSync(join(root, 'target', 'debug', 'ledge'), ['replay', link, '--headless'],
    { cwd: root, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) fail(`ledge replay LINK --headless: exit ${r.status}: ${(r.stderr || '').trim()}`);
  if (!r.stdout.includes('level_complete=true')) fail(`natively the link does not reach the goal: ${r.stdout.trim()}`);
  const native = r.stdout.match(/state_hash=([0-9a-f]{16})/)?.[1];
  await page.goto(ctx.origin + BLANK);
  await page.goto(link);
  await page.waitForFunction(() => window.ledgeLabReport !== undefined || window.ledgeLabError !== undefined,
    null, { timeout: 60_000, polling: 100 });
  const [report, err] = await page.evaluate(() => [window.ledgeLabReport, window.ledgeLabError]);
  if (err !== undefined) fail(`the page refuses its own link: ${err}`);
  if (report?.summary?.state_hash !== native) fail(`the link ends on ${report?.summary?.state_hash} in the page, ${native} natively`);
  await framesOver(page, 30);
  const png = join(ctx.out, 'run-link.png');
  const bar = barPixels(await page.locator('#ledge').screenshot({ path: png }));
  if (bar < 200) fail(`no replay bar on the page playing its link (${bar} px; ${png})`);
  return `watched every attempt; ${link.length}-character link: natively level_complete=true, page = native state_hash ${native}, replay window drawn`;
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

export async function playthroughCheck(ctx) {
  const { origin } = ctx;
  needGame(ctx);
  needLedge();
  const events = scriptKeys('tests/levels/level1.lab');
  const tries = [];
  for (let attempt = 1; attempt <= 3; attempt++) {
    const why = await ctx.withBrowser(`playthrough-${attempt}`, async (page) => {
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
      return done ? { shared: await shareRun(ctx, page) } : `after the script's ${(events.at(-1)?.t_ms / 1000).toFixed(1)} s: ${screen}`;
    });
    if (why?.shared) return `level 1 finished by keyboard on attempt ${attempt}${tries.length ? ` (before: ${tries.join('; ')})` : ''}; ${why.shared}`;
    tries.push(why);
  }
  fail(`level 1 not finished in 3 attempts: ${tries.join('; ')}`);
}
