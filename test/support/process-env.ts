/**
 * Process settings a test file sets for itself and puts back: the end-to-end tier's files share their
 * worker process with the files run before and after them (`vitest.config.ts`, docs/testing.md "Two tiers"),
 * so what one file writes into `process.env` must not reach the next.
 */
export function setProcessEnv(values: Readonly<Record<string, string>>): () => void {
  const before = new Map(Object.keys(values).map((name) => [name, process.env[name]]));
  Object.assign(process.env, values);
  return () => {
    for (const [name, value] of before) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}
