// Jest global teardown: stops the engine the global setup started, if it started one.
export default async function globalTeardown(): Promise<void> {
  const engine = (globalThis as { __ENGINE_TESTS_ENGINE__?: { close(): Promise<void> } }).__ENGINE_TESTS_ENGINE__;
  await engine?.close();
}
