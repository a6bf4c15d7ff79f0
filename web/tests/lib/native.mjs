// The native replay of a page's recording: target/debug/ledge lab FILE --summary, whose
// state_hash must be the page's.

import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fail } from './fail.mjs';
import { root } from './paths.mjs';

const LEDGE = join(root, 'target', 'debug', 'ledge');

export function needLedge() {
  if (!existsSync(LEDGE)) fail('no target/debug/ledge for the native replay (cargo build)');
}

// The recording written to OUT/NAME.lab (OUT: ctx.out) and replayed natively (`target/debug/ledge
// lab FILE --summary`, from the repository root: its `level assets/...` line resolves from there).
export function replay(ctx, name, recording) {
  const file = join(ctx.out, `${name}.lab`);
  writeFileSync(file, recording);
  const r = spawnSync(LEDGE, ['lab', file, '--summary'], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) fail(`ledge lab ${file} --summary: exit ${r.status}: ${(r.stderr || r.stdout).trim().split('\n')[0]}`);
  try {
    return { file, summary: JSON.parse(r.stdout).summary };
  } catch {
    fail(`ledge lab ${file} --summary printed no JSON: ${r.stdout.slice(0, 200)}`);
  }
}

// The native replay must end on the page's state_hash.
export function sameHash(name, page, native) {
  if (native.summary?.state_hash !== page.state_hash) {
    fail(`the native replay of ${native.file} ends on ${native.summary?.state_hash}, the page on ${page.state_hash}` +
      ` (ticks: replay ${native.summary?.ticks}, page ${page.ticks})`);
  }
}

