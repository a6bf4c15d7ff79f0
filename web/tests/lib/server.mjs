// The static file server: target/web (or --dir) on a free 127.0.0.1 port, no caching, plus BLANK,
// an empty page on the game's origin (to set localStorage before the game loads).

import { readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';

const MIME = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm', '.json': 'application/json', '.png': 'image/png',
  '.wav': 'audio/wav', '.ttf': 'font/ttf', '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8', '.lab': 'text/plain; charset=utf-8',
  '.toml': 'text/plain; charset=utf-8', '.tmx': 'application/xml', '.tsx': 'application/xml',
};
export const BLANK = '/__blank.html';  // a page on the game's origin: localStorage before the game loads

// Serves the folder `served` (an absolute path); resolves to { server, origin } once listening.
export async function startServer(served) {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const send = (status, type, body) => {
      res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (path === BLANK) return send(200, MIME['.html'], '<!doctype html><link rel="icon" href="data:,"><title>blank</title>');
    let file = resolve(served, `.${path.endsWith('/') ? `${path}index.html` : path}`);
    if (file !== served && !file.startsWith(served + sep)) return send(403, 'text/plain', 'forbidden');
    try {
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      send(200, MIME[extname(file)] ?? 'application/octet-stream', readFileSync(file));
    } catch {
      send(404, 'text/plain', 'not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return { server, origin: `http://127.0.0.1:${server.address().port}` };
}
