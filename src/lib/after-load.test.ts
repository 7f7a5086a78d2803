import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterLoad } from './after-load.ts';

let readyState: DocumentReadyState;

beforeEach(() => {
  vi.useFakeTimers();
  readyState = 'interactive';
  vi.spyOn(document, 'readyState', 'get').mockImplementation(() => readyState);
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('afterLoad', () => {
  it('waits for the load event, then the delay, then an idle moment', () => {
    const idle: IdleRequestCallback[] = [];
    vi.stubGlobal('requestIdleCallback', (callback: IdleRequestCallback) => idle.push(callback));
    const task = vi.fn();
    afterLoad(task, { delayMs: 3000 });

    vi.advanceTimersByTime(10_000);
    expect(idle).toHaveLength(0);

    readyState = 'complete';
    window.dispatchEvent(new Event('load'));
    vi.advanceTimersByTime(2999);
    expect(idle).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(idle).toHaveLength(1);
    expect(task).not.toHaveBeenCalled();

    idle[0]!({ didTimeout: false, timeRemaining: () => 10 });
    expect(task).toHaveBeenCalledOnce();
  });

  it('counts the delay from now when the page has already loaded', () => {
    readyState = 'complete';
    // Without requestIdleCallback (Safari, and jsdom) the task runs once the delay is over.
    expect('requestIdleCallback' in window).toBe(false);
    const task = vi.fn();
    afterLoad(task, { delayMs: 500 });
    vi.advanceTimersByTime(499);
    expect(task).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(task).toHaveBeenCalledOnce();
  });
});
