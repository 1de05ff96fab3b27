/**
 * Reads `read()` until `done` holds (every 100 ms, at most `timeoutMs`) and returns the last value read, so the
 * caller's own assertion on it reports what was last seen when the condition never came true. For work that happens
 * in the background (an outbox dispatch, a worker), never as a measure of speed.
 */
export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}
