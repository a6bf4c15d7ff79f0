// Runs a WASI (preview1) program with Node's built-in `node:wasi`: `node wasi-run.mjs DIR
// PROGRAM.wasm ARGS...` preopens DIR at its own absolute path (so absolute paths under it mean
// the same inside and outside), passes ARGS and the environment, and exits with the program's
// status. scripts/determinism runs the wasm32 build of `ledge lab` with it.
import { readFile } from "node:fs/promises";
import { WASI } from "node:wasi";
import { argv, env, exit } from "node:process";

const [dir, wasm, ...args] = argv.slice(2);
if (!dir || !wasm) {
    console.error("usage: node wasi-run.mjs DIR PROGRAM.wasm ARGS...");
    exit(2);
}
const wasi = new WASI({ version: "preview1", args: [wasm, ...args], env, preopens: { [dir]: dir }, returnOnExit: true });
const module = await WebAssembly.compile(await readFile(wasm));
const instance = await WebAssembly.instantiate(module, { wasi_snapshot_preview1: wasi.wasiImport });
exit(wasi.start(instance));
