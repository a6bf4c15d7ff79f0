// The repository root (two folders above web/tests) and paths given relative to it.

import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const root = resolve(here, '..', '..', '..');
export const fromRoot = (p) => (isAbsolute(p) ? p : resolve(root, p));
