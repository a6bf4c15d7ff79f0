// race: a native peer and the page race through `ledge serve` (NET.md "How it is checked"):
// target/debug/ledge serve 127.0.0.1:0; a headless native peer (`--net ws://…/ROOM --players 2
// --headless --autoplay tests/levels/level1.lab --exit-after 8 --record OUT/race-native.lab`);
// the page at index.html?net=ws://…/ROOM&players=2&exit_after=8 (WebRTC on loopback, no STUN:
// Chromium's mDNS host-candidate hiding off). Passes when window.ledgeRaceSummary and the native
// peer's exit lines give one state_hash at confirmed_tick 480, and the native record replays in
// the lab to it. OUT/race.png is the page mid-race.

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fail, sleep } from '../lib/fail.mjs';
import { needLedge, replay } from '../lib/native.mjs';
import { needGame } from '../lib/page.mjs';
import { root } from '../lib/paths.mjs';
import { readFileSync } from 'node:fs';

const LEDGE = join(root, 'target', 'debug', 'ledge');
const EXIT_AFTER = 8;
const TICKS = EXIT_AFTER * 60;
// Chromium hides host candidates behind mDNS names, which webrtc-rs cannot resolve: off.
const BROWSER_ARGS = ['--disable-features=WebRtcHideLocalIpsWithMdns'];

// Starts `ledge ARGS`; resolves to { child, lines: stdout lines so far, err: stderr so far,
// done: a promise of the exit code }.
function start(args) {
  const child = spawn(LEDGE, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const proc = { child, lines: [], err: '' };
  createInterface({ input: child.stdout }).on('line', (l) => proc.lines.push(l));
  child.stderr.on('data', (d) => { proc.err += d; });
  proc.done = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  return proc;
}

// The value of `key=` in the line of `lines` starting with `prefix`.
function field(lines, prefix, key) {
  const line = lines.find((l) => l.startsWith(prefix)) ?? '';
  return line.split(' ').find((w) => w.startsWith(`${key}=`))?.slice(key.length + 1);
}

export async function raceCheck(ctx) {
  needGame(ctx);
  needLedge();
  const server = start(['serve', '127.0.0.1:0']);
  let peer;
  try {
    for (let i = 0; i < 100 && server.lines.length === 0; i++) await sleep(100);
    const url = server.lines[0]?.replace('ledge serve: listening on ', '');
    if (!url?.startsWith('ws://')) fail(`ledge serve printed ${JSON.stringify(server.lines[0])}: ${server.err}`);
    const room = `${url}/web-race`;
    const record = join(ctx.out, 'race-native.lab');
    peer = start(['--net', room, '--players', '2', '--headless', '--autoplay', 'tests/levels/level1.lab',
      '--exit-after', `${EXIT_AFTER}`, '--record', record]);
    return await ctx.withBrowser(ctx.name, async (page) => {
      const t0 = Date.now();
      await page.goto(`${ctx.origin}/index.html?net=${encodeURIComponent(room)}&players=2&exit_after=${EXIT_AFTER}`);
      // Mid-race: the page's runner stands at the spawn, the native one runs.
      await page.waitForFunction(() => window.ledgeFrames > 0 || window.ledgeError !== undefined,
        null, { timeout: 60_000, polling: 100 });
      const shot = join(ctx.out, 'race.png');
      try {
        await page.waitForFunction(() => window.ledgeRaceSummary || window.ledgeRaceError || window.ledgeError,
          null, { timeout: 90_000, polling: 100 }).then(() => {}, () => {});
      } finally {
        await page.locator('#ledge').screenshot({ path: shot }).catch(() => {});
      }
      const [summary, raceError, error] = await page.evaluate(
        () => [window.ledgeRaceSummary, window.ledgeRaceError, window.ledgeError]);
      if (error !== undefined) fail(`window.ledgeError: ${error}`);
      if (raceError !== undefined) fail(`window.ledgeRaceError: ${raceError}`);
      if (!summary) fail(`no window.ledgeRaceSummary after ${((Date.now() - t0) / 1000).toFixed(0)} s`);
      const code = await Promise.race([peer.done, sleep(30_000).then(() => 'timeout')]);
      if (code !== 0) fail(`the native peer: exit ${code}: ${peer.err.trim().split('\n').pop()}`);
      const hash = field(peer.lines, 'ledge:', 'state_hash');
      const tick = field(peer.lines, 'ledge:', 'confirmed_tick');
      if (summary.state_hash !== hash || `${summary.confirmed_tick}` !== tick) {
        fail(`the page ended on ${summary.state_hash} at tick ${summary.confirmed_tick}, the native peer on ${hash} at ${tick}`);
      }
      if (`${tick}` !== `${TICKS}`) fail(`confirmed_tick ${tick}, want ${TICKS}`);
      const native = replay(ctx, 'race-native-replayed', readFileSync(record, 'utf8'));
      if (native.summary?.state_hash !== hash) fail(`${record} replays to ${native.summary?.state_hash}, not ${hash}`);
      const players = [summary.player, Number(field(peer.lines, 'net:', 'player'))].sort().join(',');
      if (players !== '1,2') fail(`players ${players}, want 1 and 2`);
      return `one hash ${hash} at tick ${tick}; page player ${summary.player}, rollbacks ${summary.rollbacks}, ` +
        `join ${summary.join_ms} ms; native: ${peer.lines.find((l) => l.startsWith('net:'))}; ${shot}`;
    }, BROWSER_ARGS);
  } finally {
    peer?.child.kill('SIGKILL');
    server.child.kill('SIGKILL');
  }
}
