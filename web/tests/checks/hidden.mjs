// hidden: ?record, 2 s of ArrowRight, the tab hidden for 10 s (faked: see setHidden), shown
// again: the game paused (q quits at once) and its game time leaves the 10 s out.

import { fail, sleep } from '../lib/fail.mjs';
import { framesOver, needGame } from '../lib/page.mjs';
import { quit, startRecording } from '../lib/record.mjs';

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

export async function hiddenCheck(ctx) {
  needGame(ctx);
  return ctx.withBrowser('hidden', async (page, log) => {
    await startRecording(ctx, page);
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
