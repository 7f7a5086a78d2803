import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerServiceWorker } from './sw-updates.ts';

describe('registering the service worker', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('a browser that refuses the worker leaves no uncaught rejection (the app goes on without it)', async () => {
    vi.useFakeTimers({ toFake: ['setInterval'] });
    const register = vi.fn(() => Promise.reject(new DOMException('refused', 'SecurityError')));
    vi.stubGlobal('navigator', { ...navigator, serviceWorker: { register, controller: null, addEventListener: vi.fn() } });
    const uncaught: unknown[] = [];
    const onRejection = (reason: unknown) => void uncaught.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      registerServiceWorker('/sw.js');
      await vi.waitFor(() => expect(register).toHaveBeenCalledWith('/sw.js', {}));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });
});
