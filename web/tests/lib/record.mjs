// ?record pages (record, gamepad, hidden): start one playing level 1, and quit it (Escape, q)
// for the page's window.ledgeExitSummary and window.ledgeRecording.

import { fail, sleep } from './fail.mjs';
import { framesOver } from './page.mjs';

// index.html?record (playing level 1 at once) with `init` run before the page's scripts; waits
// for frames and focuses the canvas.
export async function startRecording(ctx, page, init) {
  if (init) await page.addInitScript(init);
  await page.goto(`${ctx.origin}/index.html?record`);
  await framesOver(page, 30);
  await page.locator('#ledge').focus();
}

// Escape (pause; skipped when `paused`), then q (quit while paused): window.ledgeExitSummary
// and window.ledgeRecording.
export async function quit(page, paused = false) {
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
