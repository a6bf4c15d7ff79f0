// PNG decoding (what Chromium and Ledge write) and the comparison of a screenshot with a native
// golden image under tests/golden/, with tests/common/golden.rs's tolerance.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { root } from './paths.mjs';

// A PNG's pixels as RGB (8-bit RGB or RGBA, not interlaced: what Chromium and Ledge write):
// { width, height, rgb } with rgb a Buffer of width * height * 3 bytes.
export function decodePng(buf) {
  let at = 8, width = 0, height = 0, type = 0, depth = 0, interlace = 0;
  const idat = [];
  while (at < buf.length) {
    const len = buf.readUInt32BE(at), kind = buf.toString('ascii', at + 4, at + 8);
    const data = buf.subarray(at + 8, at + 8 + len);
    if (kind === 'IHDR') {
      width = data.readUInt32BE(0); height = data.readUInt32BE(4);
      depth = data[8]; type = data[9]; interlace = data[12];
    } else if (kind === 'IDAT') idat.push(data);
    at += 12 + len;
  }
  const bpp = { 2: 3, 6: 4 }[type];
  if (depth !== 8 || !bpp || interlace) throw new Error(`PNG colour type ${type}, depth ${depth}, interlace ${interlace}`);
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * bpp;
  let prev = Buffer.alloc(stride);
  const rgb = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? line[x - bpp] : 0, b = prev[x], c = x >= bpp ? prev[x - bpp] : 0;
      let p = 0;
      if (filter === 1) p = a;
      else if (filter === 2) p = b;
      else if (filter === 3) p = (a + b) >> 1;
      else if (filter === 4) {
        const pa = Math.abs(b - c), pb = Math.abs(a - c), pc = Math.abs(a + b - 2 * c);
        p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      line[x] = (line[x] + p) & 0xff;
    }
    for (let x = 0, o = y * width * 3; x < stride; x += bpp, o += 3) {
      rgb[o] = line[x]; rgb[o + 1] = line[x + 1]; rgb[o + 2] = line[x + 2];
    }
    prev = line;
  }
  return { width, height, rgb };
}

// The distinct colours of a PNG.
export function pngColours(buf) {
  const { rgb } = decodePng(buf);
  const colours = new Set();
  for (let o = 0; o < rgb.length; o += 3) colours.add((rgb[o] << 16) | (rgb[o + 1] << 8) | rgb[o + 2]);
  return colours.size;
}

// The fraction of pixels of `shot` (a PNG) that differ from the native golden image
// tests/golden/NAME.png by more than tests/common/golden.rs's CHANNEL_TOLERANCE (24 of 255) in
// a channel, leaving out the HUD's box in the top-left corner (its clock differs: the golden is
// drawn at a fixed frame, the page at whatever time the keys reached the level; and the page's
// has level 1's segment timer as a third line, which the golden's UI leaves out).
const GOLDEN_CHANNEL_TOLERANCE = 24;
export const GOLDEN_MAX_DIFFERENT = 0.002;  // as tests/common/golden.rs: 0.2 % of the pixels
const HUD_BOX = { w: 260, h: 84 };
export function goldenDifference(shot, name) {
  const a = decodePng(shot), b = decodePng(readFileSync(join(root, 'tests', 'golden', `${name}.png`)));
  if (a.width !== b.width || a.height !== b.height) return { frac: 1, why: `${a.width}x${a.height} against ${b.width}x${b.height}` };
  let different = 0, counted = 0;
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      if (x < HUD_BOX.w && y < HUD_BOX.h) continue;
      counted++;
      const o = (y * a.width + x) * 3;
      if ([0, 1, 2].some((c) => Math.abs(a.rgb[o + c] - b.rgb[o + c]) > GOLDEN_CHANNEL_TOLERANCE)) different++;
    }
  }
  return { frac: different / counted, why: `${different} of ${counted} pixels differ` };
}
