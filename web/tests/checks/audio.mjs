// audio: index.html twice, every AudioContext kept by an init script: with autoplay allowed one
// runs after the first key; with the default policy #ledge-start shows and frames are drawn
// before any key, and a key hides it. The note gives the AudioContext states.

import { fail } from '../lib/fail.mjs';
import { framesOver, needGame } from '../lib/page.mjs';

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
async function audioRun(ctx, name, extraArgs) {
  const { origin } = ctx;
  return ctx.withBrowser(name, async (page) => {
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

export async function audioCheck(ctx) {
  needGame(ctx);
  const show = (s) => `[${s.join(', ')}]`;
  const a = await audioRun(ctx, 'audio-autoplay', ['--autoplay-policy=no-user-gesture-required']);
  if (a.after.length === 0) fail('autoplay allowed: no AudioContext after the first key');
  if (!a.after.every((s) => s === 'running')) fail(`autoplay allowed: AudioContext states after the first key ${show(a.after)}`);
  const b = await audioRun(ctx, 'audio', []);
  return `AudioContexts before/after the first key: autoplay allowed ${show(a.before)} -> ${show(a.after)}, ` +
    `default policy ${show(b.before)} -> ${show(b.after)}`;
}
