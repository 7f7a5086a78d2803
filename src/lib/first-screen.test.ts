import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setApiLanguage } from './api-client.ts';
import { FIRST_SCREEN_ID, firstScreenAnswer, firstScreenPaths, resetFirstScreen } from './first-screen.ts';

function pageWith(block: unknown) {
  const el = document.createElement('script');
  el.type = 'application/json';
  el.id = FIRST_SCREEN_ID;
  el.textContent = typeof block === 'string' ? block : JSON.stringify(block);
  document.head.append(el);
}

beforeEach(() => {
  resetFirstScreen();
  setApiLanguage('es');
});
afterEach(() => {
  document.getElementById(FIRST_SCREEN_ID)?.remove();
  vi.restoreAllMocks();
});

describe("the page's first-screen answers", () => {
  it('gives each answer once, then leaves it to the network', () => {
    pageWith({ lng: 'es', answers: { '/api/sections': { data: [1] } } });
    expect(firstScreenAnswer('/api/sections')).toEqual({ data: [1] });
    expect(firstScreenAnswer('/api/sections')).toBeUndefined();
    expect(firstScreenAnswer('/api/models?')).toBeUndefined();
    // The service worker is still told about it (offline after one visit).
    expect(firstScreenPaths()).toEqual(['/api/sections']);
  });

  it('only in the language the page was made for', () => {
    pageWith({ lng: 'en', answers: { '/api/sections': { data: [1] } } });
    expect(firstScreenAnswer('/api/sections')).toBeUndefined();
    setApiLanguage('en');
    expect(firstScreenAnswer('/api/sections')).toEqual({ data: [1] });
  });

  it('not long after the page loaded', () => {
    pageWith({ lng: 'es', answers: { '/api/sections': { data: [1] } } });
    vi.spyOn(performance, 'now').mockReturnValue(5 * 60_000);
    expect(firstScreenAnswer('/api/sections')).toBeUndefined();
  });

  it('without a block, or with a damaged one, there is nothing', () => {
    expect(firstScreenAnswer('/api/sections')).toBeUndefined();
    resetFirstScreen();
    pageWith('{"lng": "es", "answers": ');
    expect(firstScreenAnswer('/api/sections')).toBeUndefined();
    expect(firstScreenPaths()).toEqual([]);
  });
});
