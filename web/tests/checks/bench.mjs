// bench: the race's re-simulation cost in this browser (index.html?bench=rollback: a rollback
// of 8 ticks with 4 players on the largest level, 20 batches of 100 timed with performance.now(),
// ledge::net::resim, the work `cargo bench --bench rollback` times natively). Passes when the
// page reports its figures (window.ledgeBench); the note gives them. No time is asserted:
// docs/speed.md keeps the figure.

import { fail } from '../lib/fail.mjs';
import { needGame } from '../lib/page.mjs';

export async function benchCheck(ctx) {
  needGame(ctx);
  return ctx.withBrowser(ctx.name, async (page) => {
    await page.goto(`${ctx.origin}/index.html?bench=rollback`);
    try {
      await page.waitForFunction(() => window.ledgeBench || window.ledgeError, null, { timeout: 120_000, polling: 200 });
    } catch {
      fail('no window.ledgeBench after 120 s');
    }
    const [bench, error] = await page.evaluate(() => [window.ledgeBench, window.ledgeError]);
    if (error !== undefined) fail(`window.ledgeError: ${error}`);
    if (!(bench.mean_us > 0)) fail(`no figure: ${JSON.stringify(bench)}`);
    const f = (x) => x.toFixed(0);
    return `rollback 8 ticks, 4 players, ${bench.level}: ${f(bench.mean_us)} us mean, best batch ${f(bench.best_us)}, ` +
      `worst ${f(bench.worst_us)} (${bench.batches} x ${bench.per_batch})`;
  });
}
