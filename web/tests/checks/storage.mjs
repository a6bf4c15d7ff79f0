// storage, storage-corrupt: progress.toml in localStorage before the game loads. A good one
// (level 2 unlocked) is still there after the load, not set aside; "not toml [" is moved to
// progress.toml.bad-1 and a console warning names progress.toml.

import { fail } from '../lib/fail.mjs';
import { framesOver, needGame } from '../lib/page.mjs';
import { BLANK } from '../lib/server.mjs';

const PROGRESS = `# Ledge progress, written by the game (docs/playing.md "Saved data"). Times are ticks at 60 Hz.

version = 1
unlocked = ["level2"]
records = 1

[[level]]
id = "level1"
best_ticks = 582
fewest_deaths = 0
deathless = true
`;
const CORRUPT = 'not toml [';

// Loads the game with localStorage holding `items` first; returns localStorage after.
async function withStorage(ctx, page, items) {
  const { origin } = ctx;
  await page.goto(origin + BLANK);
  await page.evaluate((items) => {
    localStorage.clear();
    for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v);
  }, items);
  await page.goto(`${origin}/index.html`);
  await framesOver(page, 30);
  return page.evaluate(() => Object.fromEntries(Object.entries(localStorage)));
}

export async function storageCheck(ctx) {
  needGame(ctx);
  return ctx.withBrowser('storage', async (page, log) => {
    const after = await withStorage(ctx, page, { 'progress.toml': PROGRESS });
    const text = after['progress.toml'];
    if (text === undefined) fail(`progress.toml is gone from localStorage (keys: ${Object.keys(after).join(', ')})`);
    if (!/^unlocked = \[[^\]]*"level2"/m.test(text)) fail(`progress.toml lost level 2: ${JSON.stringify(text)}`);
    const bad = Object.keys(after).filter((k) => k.startsWith('progress.toml.bad'));
    if (bad.length) fail(`a good progress.toml was set aside as ${bad.join(', ')}`);
    const warned = log.find((m) => m.type === 'warning' && m.text.includes('progress.toml'));
    if (warned) fail(`a warning about a good progress.toml: ${warned.text}`);
  });
}

export async function storageCorruptCheck(ctx) {
  needGame(ctx);
  return ctx.withBrowser('storage-corrupt', async (page, log) => {
    const after = await withStorage(ctx, page, { 'progress.toml': CORRUPT });
    const kept = after['progress.toml.bad-1'];
    if (kept === undefined) fail(`no progress.toml.bad-1 in localStorage (keys: ${Object.keys(after).join(', ') || 'none'})`);
    if (kept !== CORRUPT) fail(`progress.toml.bad-1 holds ${JSON.stringify(kept)}, not the bad file`);
    const warned = log.find((m) => m.type === 'warning' && m.text.includes('progress.toml'));
    if (!warned) {
      const other = log.find((m) => m.text.includes('progress.toml'));
      fail(other ? `progress.toml named in console.${other.type}, not console.warn: ${other.text}`
        : 'no console warning names progress.toml');
    }
  });
}
