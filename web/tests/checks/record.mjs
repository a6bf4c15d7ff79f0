// record: index.html?record, ~20 s of real keys (ArrowRight held, Space tapped at irregular
// times, ArrowLeft now and then), Escape, q; the page's recording (OUT/record.lab) replayed
// natively ends on the page's state_hash, with > 600 ticks and press lines in it.

import { fail, sleep } from '../lib/fail.mjs';
import { needLedge, replay, sameHash } from '../lib/native.mjs';
import { needGame } from '../lib/page.mjs';
import { quit, startRecording } from '../lib/record.mjs';

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

export async function recordCheck(ctx) {
  needGame(ctx);
  needLedge();
  return ctx.withBrowser('record', async (page) => {
    await startRecording(ctx, page);
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
    const native = replay(ctx, 'record', recording);
    sameHash('record', summary, native);
    if (presses < 10) fail(`only ${presses} press lines in ${native.file}`);
    if (!(summary.ticks > 600)) fail(`${summary.ticks} ticks (want > 600)`);
    return `state_hash ${summary.state_hash} native = page, ${summary.ticks} ticks, ${presses} presses, ` +
      `${summary.jumps} jumps, ${summary.respawns} respawns, ${native.file}`;
  });
}
