/**
 * What the install and update prompts need to know, gathered from start-up on (main.tsx): the browser's
 * `beforeinstallprompt` (fired once, early: kept until the install button uses it), whether the app already runs
 * installed, and a waiting new version (src/app/sw-updates.ts). Also which form fields hold unsent input, so an
 * update does not reload over them. A tiny store: the UI (pwa-install-button.tsx, pwa-prompts.tsx) loads only once
 * there is something to show.
 */

import { isIosSafari, isStandalone } from '#src/lib/platform.ts';

/** Chromium's install prompt event (not in TypeScript's DOM types). */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

export interface PwaState {
  /** The browser offers to install the app (Chromium). */
  installPrompt: BeforeInstallPromptEvent | null;
  /** Runs as an installed app (or was installed just now). */
  installed: boolean;
  /** iOS Safari, not installed: the button shows the add-to-home-screen steps. */
  iosSteps: boolean;
  /** A new version is ready: calling this switches to it and reloads. */
  update: (() => void) | null;
}

let state: PwaState = { installPrompt: null, installed: false, iosSteps: false, update: null };
const listeners = new Set<() => void>();

function set(patch: Partial<PwaState>) {
  state = { ...state, ...patch };
  for (const listener of listeners) listener();
}

export const getPwaState = (): PwaState => state;
export function subscribePwa(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
export const setUpdateReady = (update: (() => void) | null) => set({ update });
export const clearInstallPrompt = () => set({ installPrompt: null });

// Shared with src/lib/push (Web Push needs the installed app on iOS).
export { isIosSafari, isStandalone };

const dirtyForms = new Set<HTMLFormElement>();

/** Whether the page holds typed input not sent yet: a form edited since its last submit, or a message being written. */
export function hasUnsavedInput(): boolean {
  for (const form of dirtyForms) if (!form.isConnected) dirtyForms.delete(form);
  if (dirtyForms.size) return true;
  return [...document.querySelectorAll('textarea')].some((el) => el.value.trim() !== '');
}

let started = false;
export function capturePwaEvents(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  const installed = isStandalone();
  set({ installed, iosSteps: !installed && isIosSafari() });
  // Offered before this code ran (public/app-start.js kept it).
  if (window.__vitrinaInstallPrompt && !installed) set({ installPrompt: window.__vitrinaInstallPrompt as BeforeInstallPromptEvent });
  window.addEventListener('beforeinstallprompt', (event) => {
    // Our button offers it, when the visitor chooses (not the browser's own bar).
    event.preventDefault();
    if (!isStandalone()) set({ installPrompt: event as BeforeInstallPromptEvent });
  });
  window.addEventListener('appinstalled', () => set({ installPrompt: null, installed: true, iosSteps: false }));
  document.addEventListener(
    'input',
    (event) => {
      const form = (event.target as Element | null)?.closest?.('form');
      if (form) dirtyForms.add(form);
    },
    true,
  );
  document.addEventListener('submit', (event) => dirtyForms.delete(event.target as HTMLFormElement), true);
}
