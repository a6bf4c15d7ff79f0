// lab: per --lab FILE, index.html?lab=lab/NAME.lab until window.ledgeLabReport; prints
// `HASH NAME STATE_HASH`, which must match --expect's when given. One run, `lab NAME`, a script.

import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fail } from '../lib/fail.mjs';
import { needGame } from '../lib/page.mjs';
import { fromRoot } from '../lib/paths.mjs';

export const labNeeds = (opts) => (opts.labs.length === 0 ? 'the lab check needs --lab FILE.lab' : null);

// Before the server starts: the scripts of --lab (copied to DIR/lab/NAME.lab) with their expected
// hashes from --expect: [{ name, file, expect }]; exit status 2 on a bad one.
export function prepareLab(ctx) {
  const { opts, served } = ctx;
  const labs = [];
  let expect = {};
  if (opts.expect) {
    try {
      expect = JSON.parse(readFileSync(fromRoot(opts.expect), 'utf8'));
    } catch (e) {
      console.error(`run.mjs: --expect ${opts.expect}: ${e.message}`);
      process.exit(2);
    }
  }
  for (const file of opts.labs) {
    const name = basename(file, '.lab');
    if (!existsSync(fromRoot(file))) { console.error(`run.mjs: no lab script ${file}`); process.exit(2); }
    if (labs.some((l) => l.name === name)) { console.error(`run.mjs: two lab scripts named ${name}.lab`); process.exit(2); }
    labs.push({ name, file, expect: expect[file] ?? expect[name] ?? null });
  }
  if (existsSync(join(served, 'index.html'))) {
    mkdirSync(join(served, 'lab'), { recursive: true });
    for (const l of labs) copyFileSync(fromRoot(l.file), join(served, 'lab', `${l.name}.lab`));
  }
  return labs;
}

// The runs: `lab NAME` for each script prepareLab gave.
export const labRuns = (ctx) => ctx.prepared.map((l) => [`lab ${l.name}`, (c) => labCheck(c, l)]);

async function labCheck(ctx, lab) {
  const { origin } = ctx;
  needGame(ctx);
  return ctx.withBrowser(`lab-${lab.name}`, async (page, log) => {
    await page.goto(`${origin}/index.html?lab=lab/${encodeURIComponent(lab.name)}.lab`);
    try {
      await page.waitForFunction(() => window.ledgeLabReport !== undefined || window.ledgeError !== undefined,
        null, { timeout: 120_000, polling: 100 });
    } catch {
      fail('no window.ledgeLabReport after 120 s');
    }
    const [report, err] = await page.evaluate(() => [window.ledgeLabReport, window.ledgeError]);
    if (err !== undefined) fail(`window.ledgeError: ${err}`);
    const obj = typeof report === 'string' ? JSON.parse(report) : report;
    const hash = obj?.summary?.state_hash;
    if (typeof hash !== 'string') fail(`ledgeLabReport has no summary.state_hash: ${JSON.stringify(obj).slice(0, 200)}`);
    console.log(`HASH ${lab.name} ${hash}`);
    if (!log.some((m) => m.type === 'log' && m.text.includes(hash))) fail('the report was not console.log-ged');
    if (lab.expect !== null && hash !== lab.expect) fail(`state_hash ${hash}, expected ${lab.expect}`);
  });
}
