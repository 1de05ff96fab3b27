import { describe, expect, it } from '@jest/globals';
import { temporalReadiness } from '../src/index.js';

const address = process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233';

describe('temporalReadiness', () => {
  it('passes while the Temporal frontend answers for the namespace, and closes its connection', async () => {
    const probe = temporalReadiness({ address, namespace: 'default' });
    expect(probe.name).toBe('temporal');
    try {
      await expect(probe.check()).resolves.toBeUndefined();
      await expect(probe.check()).resolves.toBeUndefined();
    } finally {
      await probe.close();
    }
    // A closed probe reconnects on the next check.
    await expect(probe.check()).resolves.toBeUndefined();
    await probe.close();
  });

  it('fails for an unknown namespace', async () => {
    const probe = temporalReadiness({ address, namespace: 'no-such-namespace' });
    try {
      await expect(probe.check()).rejects.toThrow();
    } finally {
      await probe.close();
    }
  });

  it('fails while nothing listens, and retries the connect on the next check', async () => {
    const probe = temporalReadiness({ address: '127.0.0.1:1', namespace: 'default', connectTimeout: '300ms' });
    await expect(probe.check()).rejects.toThrow();
    await expect(probe.check()).rejects.toThrow();
    await expect(probe.close()).resolves.toBeUndefined();
  });
});
