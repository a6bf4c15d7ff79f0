// practice: the speedrunner's tools in the page. settings.toml in localStorage with the
// savestates (`practice = true`), the input display and invincibility on, then index.html?record:
// F7 keeps the state at the spawn, ~1.5 s of ArrowRight, F8 loads it; the HUD's notice and the
// input display are on the canvas (OUT/practice.png); Escape, q: the recording (OUT/practice.lab)
// starts with `config assist_invincible 1`, has `savestate practice` and `loadstate practice`,
// and replays natively to the page's state_hash, the player back at the spawn.

import { join } from 'node:path';
import { fail, sleep } from '../lib/fail.mjs';
import { needLedge, replay, sameHash } from '../lib/native.mjs';
import { needGame } from '../lib/page.mjs';
import { pngColours } from '../lib/png.mjs';
import { quit, startRecording } from '../lib/record.mjs';

// The default settings.toml (src/save/settings.rs) with three switches on.
export const SETTINGS = `version = 1

[volume]
master = 1.0
music = 1.0
effects = 1.0

[display]
vsync = true
fullscreen = false
fps_cap = 0.0
reduced_motion = false
screen_shake = "full"
flashes = true
visual_effects = true
game_speed = 100
invincible = true
input_display = true
practice = true

[keys.keyboard]
left = ["ArrowLeft", "KeyA"]
right = ["ArrowRight", "KeyD"]
up = ["ArrowUp", "KeyW"]
down = ["ArrowDown", "KeyS"]
jump = ["Space", "KeyZ", "ArrowUp", "KeyW"]
rewind = ["KeyR"]

[keys.pad]
left = ["DPadLeft"]
right = ["DPadRight"]
up = ["DPadUp"]
down = ["DPadDown"]
jump = ["South"]
rewind = ["LeftTrigger"]
`;

export async function practiceCheck(ctx) {
  needGame(ctx);
  needLedge();
  return ctx.withBrowser('practice', async (page, log) => {
    // Before the page's scripts, on every load: the settings (the game reads them at start).
    await startRecording(ctx, page, `localStorage.setItem('settings.toml', ${JSON.stringify(SETTINGS)});`);
    await sleep(500);
    await page.keyboard.press('F7');
    await sleep(300);
    await page.keyboard.down('ArrowRight');
    await sleep(1500);
    await page.keyboard.up('ArrowRight');
    await sleep(200);
    await page.keyboard.press('F8');
    await sleep(400);
    const png = join(ctx.out, 'practice.png');
    const colours = pngColours(await page.locator('#ledge').screenshot({ path: png }));
    if (colours < 48) fail(`the canvas looks blank: ${colours} colours, ${png}`);
    const { summary, recording } = await quit(page);
    for (const line of ['config assist_invincible 1', 'savestate practice', 'loadstate practice']) {
      if (!recording.split('\n').includes(line)) fail(`no \`${line}\` line in the recording`);
    }
    const bad = log.find((m) => m.text.includes('settings.toml') && m.type === 'warning');
    if (bad) fail(`the settings were refused: ${bad.text}`);
    if (Math.abs(summary.player_x - summary.start_x) > 1) {
      fail(`the player is at x ${summary.player_x}, not back at the spawn (${summary.start_x}) after F8`);
    }
    const native = replay(ctx, 'practice', recording);
    sameHash('practice', summary, native);
    return `state_hash ${summary.state_hash} native = page, back at x ${summary.player_x}, ${colours} colours (${png})`;
  });
}
