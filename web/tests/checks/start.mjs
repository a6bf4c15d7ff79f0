// start-webgl2, start-webgpu: the game starts on the backend, Enter, Enter reach level 1, and the
// canvas (OUT/NAME.png) is not blank and matches the native golden image level1-start; the note
// gives the time to the first frame, level 1's mean frame time over 5 s, and, in the same
// browser on the same backend, the frame time of `?bare` (clear and present only: the page's
// floor) and level 1's as a multiple of it (docs/speed.md).

import { join } from 'node:path';
import { fail, sleep } from '../lib/fail.mjs';
import { framesOver, needGame } from '../lib/page.mjs';
import { GOLDEN_MAX_DIFFERENT, goldenDifference, pngColours } from '../lib/png.mjs';

const MIN_COLOURS = 48;  // the title over a level: sky, tiles, sprites, text; a blank canvas has 1

export const startWebgl2 = (ctx) => startCheck(ctx, '?backend=webgl2', 'WebGL2');
export const startWebgpu = (ctx) => startCheck(ctx, '', 'WebGPU');

// index.html + `query` must run on `backend` (window.ledgeBackend); ctx.name names the files.
async function startCheck(ctx, query, backend) {
  const { name, origin, out } = ctx;
  needGame(ctx);
  return ctx.withBrowser(name, async (page) => {
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
    const bareMs = await bareFrameMs(page, origin, query);
    return `${backend}, first frame ${firstFrameMs} ms after the load began, level 1 at ${frameMs.toFixed(1)} ms a ` +
      `frame (${f1 - f0} frames in 5 s), ?bare at ${bareMs.toFixed(1)} ms (level 1 = ` +
      `${(frameMs / bareMs).toFixed(2)}x), ${colours} colours, golden level1-start: ${golden.why}, ${png}`;
  });
}

// `?bare` on the same backend in `page` (after the level's screenshot): its mean frame time
// over 5 s, milliseconds.
async function bareFrameMs(page, origin, query) {
  await page.goto(`${origin}/index.html?bare${query.replace('?', '&')}`);
  await framesOver(page, 30);
  const f0 = await page.evaluate(() => window.ledgeFrames);
  const t0 = Date.now();
  await sleep(5000);
  const f1 = await page.evaluate(() => window.ledgeFrames);
  if (!(f1 > f0)) fail(`?bare presented no frame in 5 s (${f0} -> ${f1})`);
  return (Date.now() - t0) / (f1 - f0);
}
