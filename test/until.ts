/** Polls `check` every 50 ms until it holds; throws `message` once `timeoutMs` has passed. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 15_000, message = 'timed out waiting'): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(message);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
