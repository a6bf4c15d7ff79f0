// browser: Chromium starts headless, WebGL2 (SwiftShader) and a WebGPU adapter and device exist;
// prints `INFO browser ...` with what they are. Needs no game.

import { fail } from '../lib/fail.mjs';
import { BLANK } from '../lib/server.mjs';

export async function browserCheck(ctx) {
  const { origin } = ctx;
  return ctx.withBrowser('browser', async (page) => {
    await page.goto(origin + BLANK);
    const info = await page.evaluate(async () => {
      const r = { secure: window.isSecureContext, ua: navigator.userAgent };
      const gl = document.createElement('canvas').getContext('webgl2');
      if (gl) {
        const dbg = gl.getExtension('WEBGL_debug_renderer_info');
        r.webgl2 = dbg ? gl.getParameter(dbg.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
      }
      if (!navigator.gpu) { r.webgpu = 'no navigator.gpu'; return r; }
      const adapter = await navigator.gpu.requestAdapter().catch((e) => null);
      if (!adapter) { r.webgpu = 'requestAdapter() gave null'; return r; }
      const i = adapter.info ?? {};
      r.adapter = { vendor: i.vendor, architecture: i.architecture, device: i.device,
        description: i.description, fallback: adapter.isFallbackAdapter ?? i.isFallbackAdapter,
        maxTextureDimension2D: adapter.limits.maxTextureDimension2D };
      try {
        const device = await adapter.requestDevice();
        r.device = true;
        device.destroy();
      } catch (e) { r.device = String(e); }
      return r;
    });
    const version = page.context().browser()?.version() ?? '';
    console.log(`INFO browser chromium ${version || info.ua}; WebGL2: ${info.webgl2 ?? 'none'}; ` +
      `WebGPU adapter: ${info.adapter ? JSON.stringify(info.adapter) : info.webgpu}; device: ${info.device}`);
    if (!info.secure) fail(`${origin} is not a secure context (WebGPU needs one)`);
    if (!info.webgl2) fail('no WebGL2 context (--enable-unsafe-swiftshader)');
    if (!info.adapter) fail(`no WebGPU adapter: ${info.webgpu}`);
    if (info.device !== true) fail(`WebGPU requestDevice: ${info.device}`);
  });
}

