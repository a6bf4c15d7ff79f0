// Failing a check (fail(reason) throws a Fail: run.mjs prints `FAIL name: reason`) and sleeping.

export class Fail extends Error {}
export const fail = (reason) => { throw new Fail(reason); };
export const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
