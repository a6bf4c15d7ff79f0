// Page helpers: needGame (the built game is there to serve) and framesOver (wait for the page's
// window.ledgeFrames to pass a count, failing on window.ledgeError).

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fail } from './fail.mjs';

// Fails unless ctx.served holds the game scripts/web builds (named as ctx.opts.dir gives it).
export function needGame(ctx) {
  for (const f of ['index.html', 'ledge.js', 'ledge_bg.wasm', 'assets/manifest.txt']) {
    if (!existsSync(join(ctx.served, f))) fail(`no ${join(ctx.opts.dir, f)} (build it: scripts/web)`);
  }
}

// Waits for window.ledgeFrames > n (or ledgeError, or the timeout): the frame count reached.
export async function framesOver(page, n, timeoutMs = 60_000) {
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
