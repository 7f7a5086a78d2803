import { afterEach, describe, expect, it } from 'vitest';
import { capturePwaEvents, getPwaState, hasUnsavedInput, isIosSafari } from './pwa-state.ts';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';
const IPAD_AS_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15';
const CHROME_IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.0.0 Mobile/15E148 Safari/604.1';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

afterEach(() => {
  document.body.innerHTML = '';
});

describe('isIosSafari', () => {
  it('knows iPhones and iPads (which say they are Macs, with touch) in Safari only', () => {
    expect(isIosSafari(IPHONE, 5)).toBe(true);
    expect(isIosSafari(IPAD_AS_MAC, 5)).toBe(true);
    expect(isIosSafari(IPAD_AS_MAC, 0)).toBe(false);
    expect(isIosSafari(CHROME_IOS, 5)).toBe(false);
    expect(isIosSafari(ANDROID, 5)).toBe(false);
  });
});

describe('capturePwaEvents', () => {
  it('keeps the browser’s install prompt (instead of its own bar) until the app is installed', () => {
    capturePwaEvents();
    const event = new Event('beforeinstallprompt', { cancelable: true });
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(getPwaState().installPrompt).toBe(event);
    window.dispatchEvent(new Event('appinstalled'));
    expect(getPwaState()).toMatchObject({ installPrompt: null, installed: true });
  });

  it('tells a form edited and not sent from one sent or untouched', () => {
    capturePwaEvents();
    document.body.innerHTML = '<form><input name="a"></form>';
    const form = document.querySelector('form')!;
    expect(hasUnsavedInput()).toBe(false);
    form.querySelector('input')!.dispatchEvent(new Event('input', { bubbles: true }));
    expect(hasUnsavedInput()).toBe(true);
    form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    expect(hasUnsavedInput()).toBe(false);
  });

  it('counts a message being written', () => {
    document.body.innerHTML = '<textarea></textarea>';
    expect(hasUnsavedInput()).toBe(false);
    document.querySelector('textarea')!.value = 'Hola';
    expect(hasUnsavedInput()).toBe(true);
  });
});
