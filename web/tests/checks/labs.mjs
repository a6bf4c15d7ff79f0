// labs: every script of --labs LIST (`PATH [--recut R]` a line) in one page, index.html?labs=:
// one `LABHASH PATH [--recut R] HASH` line each (`ERROR: LINE` for one the lab refuses):
// scripts/determinism's browser column.

import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fail } from '../lib/fail.mjs';
import { needGame } from '../lib/page.mjs';
import { fromRoot } from '../lib/paths.mjs';

export const labsNeeds = (opts) => (opts.list ? null : 'the labs check needs --labs LIST');

// Before the server starts: LIST's scripts copied under DIR/labs/ with DIR/labs/list.txt naming
// them: [{ file, recut, url }]; exit status 2 on a missing script.
// LIST: one `PATH [--recut R]` a line (PATH relative to the repository root, or absolute).
export function prepareLabs(ctx) {
  const { opts, served } = ctx;
  const batch = [];
  const lines = readFileSync(fromRoot(opts.list), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const names = new Map();
  for (const line of lines) {
    const [file, recut] = line.split(' --recut ').map((x) => x.trim());
    if (!existsSync(fromRoot(file))) { console.error(`run.mjs: --labs ${opts.list}: no lab script ${file}`); process.exit(2); }
    if (!names.has(file)) names.set(file, `labs/${names.size}-${basename(file)}`);
    batch.push({ file, recut: recut ?? null, url: names.get(file) });
  }
  if (existsSync(join(served, 'index.html'))) {
    mkdirSync(join(served, 'labs'), { recursive: true });
    for (const [file, url] of names) copyFileSync(fromRoot(file), join(served, url));
    writeFileSync(join(served, 'labs', 'list.txt'),
      batch.map((b) => `${b.url}${b.recut ? ` --recut ${b.recut}` : ''}\n`).join(''));
  }
  return batch;
}

// The page's reports for prepareLabs's batch, in its order.
export async function labsCheck(ctx) {
  const { origin, prepared: batch } = ctx;
  needGame(ctx);
  return ctx.withBrowser('labs', async (page) => {
    await page.goto(`${origin}/index.html?labs=labs/list.txt`);
    try {
      await page.waitForFunction(() => window.ledgeLabReports !== undefined || window.ledgeError !== undefined,
        null, { timeout: 600_000, polling: 250 });
    } catch {
      fail('no window.ledgeLabReports after 600 s');
    }
    const [reports, err] = await page.evaluate(() => [window.ledgeLabReports, window.ledgeError]);
    if (err !== undefined) fail(`window.ledgeError: ${err}`);
    if (!Array.isArray(reports) || reports.length !== batch.length) fail(`${reports?.length} reports for ${batch.length} runs`);
    let errors = 0;
    batch.forEach((b, i) => {
      const r = reports[i];
      const what = r.state_hash ?? `ERROR: ${r.error}`;
      if (r.state_hash === undefined) errors++;
      console.log(`LABHASH ${b.file}${b.recut ? ` --recut ${b.recut}` : ''} ${what}`);
    });
    return `${batch.length} runs, ${errors} refused`;
  });
}
