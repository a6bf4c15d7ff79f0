// gamepad: ?record with a fake standard pad behind navigator.getGamepads (d-pad right ~3 s, A
// once, the left stick right 1 s), after, with practice on (settings.toml in localStorage), the
// pad's practice buttons first: the left stick click saves the state at the spawn, d-pad right
// 0.4 s, the right stick click loads it; Escape, q: the recording has the pad's lines and the savestate lines,
// replays natively to the page's state_hash, and the player moved right and jumped.

import { fail, sleep } from '../lib/fail.mjs';
import { needLedge, replay, sameHash } from '../lib/native.mjs';
import { needGame } from '../lib/page.mjs';
import { quit, startRecording } from '../lib/record.mjs';
import { SETTINGS } from './practice.mjs';

// Practice on, nothing else: the pad's default practice buttons (LeftThumb, RightThumb).
const PRACTICE_ONLY = SETTINGS.replace('invincible = true', 'invincible = false')
  .replace('input_display = true', 'input_display = false');

// A fake standard-mapping pad behind navigator.getGamepads (gilrs-core's wasm backend polls
// getGamepads() every event-loop iteration and reads id, index, mapping, buttons[i].pressed and
// .value, axes; it needs no gamepadconnected event). window.ledgeTestPad.set(button, pressed)
// and .axis(i, v) change it.
const FAKE_PAD = () => {
  const pad = {
    id: 'Ledge test pad (STANDARD GAMEPAD Vendor: 1ed6 Product: 0001)', index: 0, connected: true,
    mapping: 'standard', timestamp: 0, vibrationActuator: null,
    buttons: Array.from({ length: 17 }, () => ({ pressed: false, touched: false, value: 0 })),
    axes: [0, 0, 0, 0],
  };
  const touch = () => { pad.timestamp = performance.now(); };
  window.ledgeTestPad = {
    polls: 0,
    set(i, pressed) { pad.buttons[i] = { pressed, touched: pressed, value: pressed ? 1 : 0 }; touch(); },
    axis(i, v) { pad.axes[i] = v; touch(); },
  };
  const getGamepads = function () { window.ledgeTestPad.polls++; return [pad, null, null, null]; };
  Object.defineProperty(Navigator.prototype, 'getGamepads', { value: getGamepads, configurable: true, writable: true });
  window.addEventListener('load', () => {
    touch();
    const e = new Event('gamepadconnected');
    e.gamepad = pad;
    window.dispatchEvent(e);
  });
};

export async function gamepadCheck(ctx) {
  needGame(ctx);
  needLedge();
  return ctx.withBrowser('gamepad', async (page) => {
    await page.addInitScript(`localStorage.setItem('settings.toml', ${JSON.stringify(PRACTICE_ONLY)});`);
    await startRecording(ctx, page, FAKE_PAD);
    await sleep(500);
    const pad = (f, ...a) => page.evaluate(([f, a]) => window.ledgeTestPad[f](...a), [f, a]);
    await pad('set', 10, true);      // the left stick click: save the state at the spawn
    await sleep(150);
    await pad('set', 10, false);
    await pad('set', 15, true);      // d-pad right 0.4 s
    await sleep(400);
    await pad('set', 15, false);
    await pad('set', 11, true);      // the right stick click: back to the spawn
    await sleep(150);
    await pad('set', 11, false);
    await sleep(300);
    await pad('set', 15, true);      // d-pad right, ~3 s
    await sleep(1500);
    await pad('set', 0, true);       // A (South): jump
    await sleep(250);
    await pad('set', 0, false);
    await sleep(1250);
    await pad('set', 15, false);
    await pad('axis', 0, 1);         // the left stick right, 1 s
    await sleep(1000);
    await pad('axis', 0, 0);
    await sleep(300);
    const polls = await page.evaluate(() => window.ledgeTestPad.polls);
    if (polls === 0) fail('navigator.getGamepads() was never called');
    const { summary, recording } = await quit(page);
    const lines = recording.split('\n');
    const want = ['pad connect', 'press right pad', 'release right pad', 'press jump pad', 'axis X 1.0',
      'savestate practice', 'loadstate practice'];
    const missing = want.filter((w) => !lines.some((l) => l.startsWith(w)));
    if (missing.length) fail(`no ${missing.map((m) => JSON.stringify(m)).join(', ')} line in the recording (OUT/gamepad.lab)`);
    const native = replay(ctx, 'gamepad', recording);
    sameHash('gamepad', summary, native);
    if (!(summary.player_x > summary.start_x + 100)) fail(`the player did not move right: x ${summary.player_x}, spawn ${summary.start_x}`);
    if (!(summary.jumps >= 1)) fail(`${summary.jumps} jumps after A`);
    return `${polls} getGamepads() polls, x ${summary.start_x} -> ${summary.player_x.toFixed(1)}, ${summary.jumps} jumps, ` +
      `state_hash ${summary.state_hash} native = page`;
  });
}
