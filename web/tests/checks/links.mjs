// links: every level script of tests/levels as a link (`target/debug/ledge replay --link`),
// opened as index.html#run=…: the page replays the run the link holds, headless, and
// window.ledgeLabReport's state_hash is the native lab's; an edited level's link (made here
// with node's zlib: `ledge replay --link` makes no link of a run that does not play) sets
// window.ledgeLabError to the lab's one line.

import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { fail } from '../lib/fail.mjs';
import { needLedge } from '../lib/native.mjs';
import { needGame } from '../lib/page.mjs';
import { root } from '../lib/paths.mjs';
import { BLANK } from '../lib/server.mjs';

const LEDGE = join(root, 'target', 'debug', 'ledge');

function native(args) {
  const r = spawnSync(LEDGE, args, { cwd: root, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) fail(`ledge ${args.join(' ')}: exit ${r.status}: ${(r.stderr || '').trim().split('\n')[0]}`);
  return r.stdout.trim();
}

export async function linksCheck(ctx) {
  needGame(ctx);
  needLedge();
  const dir = join(root, 'tests', 'levels');
  const scripts = readdirSync(dir).filter((f) => f.endsWith('.lab')).sort();
  return ctx.withBrowser('links', async (page) => {
    let longest = 0;
    for (const name of scripts) {
      const file = join('tests', 'levels', name);
      const link = native(['replay', '--link', file]);
      longest = Math.max(longest, link.length);
      const want = native(['replay', file, '--headless']).match(/state_hash=([0-9a-f]{16})/)?.[1];
      await page.goto(ctx.origin + BLANK);
      await page.goto(`${ctx.origin}/${link}`);
      await page.waitForFunction(() => window.ledgeLabReport !== undefined || window.ledgeLabError !== undefined,
        null, { timeout: 60_000, polling: 100 });
      const [report, err] = await page.evaluate(() => [window.ledgeLabReport, window.ledgeLabError]);
      if (err !== undefined) fail(`${name}: window.ledgeLabError: ${err}`);
      if (report?.summary?.state_hash !== want) fail(`${name}: the page's link ends on ${report?.summary?.state_hash}, natively ${want}`);
    }
    // A link naming another version of its level is refused in one line.
    const edited = 'level assets/levels/level1.tmx sha256=' + '0'.repeat(64) + '\nframe 16.666667 x10\n';
    // The link's own format (src/lab/link.rs): raw DEFLATE, base64url without padding.
    const bad = `index.html#run=${deflateRawSync(Buffer.from(edited)).toString('base64url')}`;
    await page.goto(ctx.origin + BLANK);
    await page.goto(`${ctx.origin}/${bad}`);
    await page.waitForFunction(() => window.ledgeLabError !== undefined || window.ledgeLabReport !== undefined,
      null, { timeout: 60_000, polling: 100 });
    const err = await page.evaluate(() => window.ledgeLabError);
    if (!String(err).includes('has changed since this script was made')) fail(`the edited level's link: ledgeLabError ${JSON.stringify(err)}`);
    return `${scripts.length} level scripts: each link's replay in the page = native (longest link ${longest} characters); an edited level refused`;
  });
}
