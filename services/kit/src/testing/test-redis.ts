/**
 * The Redis the tests of the shared rate-limit store use: TEST_REDIS_URL (`npm test` starts a throwaway redis-server
 * and sets it), else a local server's database 15 for a test run straight through Jest.
 */
export function testRedisUrl(): string {
  return process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379/15';
}
