// device-lost: index.html?record in a Chromium started with --disable-gpu, whose WebGPU devices
// are all lost at once (Chromium 156: "Device was destroyed"). The page recreates the device,
// loses it again, and falls back to WebGL2 on a fresh canvas in the same page, then plays on:
// ledgeBackend becomes "WebGL2", frames are presented, the console has `device lost, recreated`,
// the canvas (OUT/device-lost.png) shows level 1 (not blank), ~6 s of real keys, Escape, q: the
// summary counts the losses and the recording (OUT/device-lost.lab) replays natively to the
// page's state_hash (the simulation never noticed).

import { join } from 'node:path';
import { fail, sleep } from '../lib/fail.mjs';
import { needLedge, replay, sameHash } from '../lib/native.mjs';
import { framesOver, needGame } from '../lib/page.mjs';
import { pngColours } from '../lib/png.mjs';
import { quit } from '../lib/record.mjs';

const MIN_COLOURS = 48;  // level 1: sky, tiles, sprites, HUD text; a blank canvas has 1

export async function deviceLostCheck(ctx) {
  needGame(ctx);
  needLedge();
  const { origin, out } = ctx;
  return ctx.withBrowser('device-lost', async (page, log) => {
    await page.goto(`${origin}/index.html?record`);
    try {
      await page.waitForFunction(() => window.ledgeBackend === 'WebGL2' || window.ledgeError !== undefined,
        null, { timeout: 60_000, polling: 100 });
    } catch {
      const got = await page.evaluate(() => window.ledgeBackend);
      fail(`window.ledgeBackend is ${JSON.stringify(got)} 60 s after the load, want "WebGL2" after the losses`);
    }
    const err = await page.evaluate(() => window.ledgeError);
    if (err !== undefined) fail(`window.ledgeError: ${err}`);
    const f0 = await page.evaluate(() => window.ledgeFrames);
    await framesOver(page, f0 + 30);
    await page.locator('#ledge').focus();
    await page.keyboard.down('ArrowRight');
    for (let i = 0; i < 8; i++) {
      await sleep(400);
      await page.keyboard.down('Space');
      await sleep(120 + 40 * (i % 3));
      await page.keyboard.up('Space');
    }
    await page.keyboard.up('ArrowRight');
    await sleep(500);
    const png = join(out, 'device-lost.png');
    const colours = pngColours(await page.locator('#ledge').screenshot({ path: png }));
    if (colours < MIN_COLOURS) fail(`the canvas looks blank after the fallback: ${colours} colours, ${png}`);
    const { summary, recording } = await quit(page);
    const lines = log.filter((m) => m.text.startsWith('device lost, recreated')).map((m) => m.text);
    if (lines.length === 0) fail('no `device lost, recreated` in the console');
    if (!(summary.device_losses >= 1)) fail(`ledgeExitSummary.device_losses = ${summary.device_losses}`);
    if (!(summary.jumps >= 1)) fail(`no jump after the fallback (${summary.jumps})`);
    const native = replay(ctx, 'device-lost', recording);
    sameHash('device-lost', summary, native);
    return `${lines.join('; ')}; ${summary.device_losses} losses, ${summary.presented} frames presented, ` +
      `${colours} colours (${png}), state_hash ${summary.state_hash} native = page, ${summary.jumps} jumps`;
  }, ['--disable-gpu']);
}
