// playthrough: from the title to the end of level 1 with the keyboard, tests/levels/level1.lab's
// presses and releases sent as real keys at their times; up to 3 attempts, each in a fresh browser.

import { readFileSync } from 'node:fs';
import { fail, sleep } from '../lib/fail.mjs';
import { framesOver, needGame } from '../lib/page.mjs';
import { fromRoot } from '../lib/paths.mjs';

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
      return done ? null : `after the script's ${(events.at(-1)?.t_ms / 1000).toFixed(1)} s: ${screen}`;
    });
    if (why === null) return `level 1 finished by keyboard on attempt ${attempt}${tries.length ? ` (before: ${tries.join('; ')})` : ''}`;
    tries.push(why);
  }
  fail(`level 1 not finished in 3 attempts: ${tries.join('; ')}`);
}
