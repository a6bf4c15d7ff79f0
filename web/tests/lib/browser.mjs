// Chromium: playwright-core from web/package.json (Debian's chromium, no browser download), its
// flags (WebGL2 and WebGPU on SwiftShader), and withBrowser: each check in a fresh Chromium with a
// fresh --user-data-dir (so a fresh localStorage), its console kept and written to
// OUT/NAME.console.txt.

import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// playwright-core's chromium (required from web/package.json's node_modules), after checking
// that Chromium exists at `executablePath`; exit status 1 without either.
export function loadChromium(root, executablePath) {
  let chromium;
  try {
    chromium = createRequire(join(root, 'web', 'package.json'))('playwright-core').chromium;
  } catch {
    console.error('run.mjs: no playwright-core: run `npm ci --prefix web` (web/package-lock.json)');
    process.exit(1);
  }
  if (!existsSync(executablePath)) {
    console.error(`run.mjs: no Chromium at ${executablePath}: apt-get install chromium (scripts/lib/packages.sh web_packages)`);
    process.exit(1);
  }
  return chromium;
}

// Not --disable-gpu: with it, Chromium 156's GPU process cannot make the shared image a WebGPU
// canvas presents into, and the device is lost at the first present ("Could not find
// SharedImageBackingFactory ... WebgpuSwapChainTexture"). SwiftShader's Vulkan instead: Dawn
// (WebGPU) and ANGLE (WebGL2) both on the CPU, no real GPU needed. Playwright's own
// --enable-features is replaced by one list holding it and Vulkan (the last such flag wins).
const PLAYWRIGHT_FEATURES = '--enable-features=CDPScreenshotNewSurface';
const ARGS = [
  '--headless', '--no-sandbox', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
  '--use-angle=swiftshader', '--use-vulkan=swiftshader', '--enable-features=Vulkan,CDPScreenshotNewSurface',
  '--enable-unsafe-swiftshader',  // WebGL2 on the CPU
  '--enable-unsafe-webgpu',       // WebGPU (Dawn on SwiftShader's Vulkan)
];

// Makes withBrowser(name, fn, extraArgs) for playwright-core's `chromium`, the browser at
// `executablePath` and the folder `out`: fn(page, log) in a fresh Chromium (fresh
// --user-data-dir, 1280x720; ARGS and extraArgs), its console kept in log (and written to
// OUT/NAME.console.txt); resolves to what fn does.
export function makeWithBrowser(chromium, executablePath, out) {
  return async function withBrowser(name, fn, extraArgs = []) {
    const profile = mkdtempSync(join(tmpdir(), 'ledge-web-test-'));
    const log = [];
    let context;
    try {
      context = await chromium.launchPersistentContext(profile, {
        executablePath, headless: true, args: [...ARGS, ...extraArgs], ignoreDefaultArgs: [PLAYWRIGHT_FEATURES],
        viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1, timeout: 60_000,
      });
      const page = context.pages()[0] ?? await context.newPage();
      page.on('console', (m) => log.push({ type: m.type(), text: m.text() }));
      page.on('pageerror', (e) => log.push({ type: 'pageerror', text: String(e?.stack ?? e) }));
      return await fn(page, log);
    } finally {
      writeFileSync(join(out, `${name}.console.txt`), log.map((m) => `[${m.type}] ${m.text}\n`).join(''));
      await context?.close().catch(() => {});
      // Chromium's last writes to the profile can land after close() (seen under load: ENOTEMPTY,
      // which replaced the run's result): retry the removal a while.
      rmSync(profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
    }
  };
}
