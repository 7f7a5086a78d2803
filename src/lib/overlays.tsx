/**
 * Loads the notification and modal layer (overlays-ui.tsx) the first time something is shown, and mounts it
 * through <OverlayHost/> (rendered once by the app shell, inside the Mantine, i18n and query providers).
 *
 * `loadOverlays()` resolves with the functions of overlays-ui.tsx once its providers listen. Screens that call
 * `modals.open` from @mantine/modals directly (e.g. the e-mail verification) keep working: until the layer is
 * mounted, the modal events they dispatch on `window` are held here, the layer is loaded, and they are
 * dispatched again, in order, once the ModalsProvider listens.
 */
import { lazy, Suspense, useSyncExternalStore } from 'react';
import type * as OverlaysUiModule from './overlays-ui.tsx';

type OverlaysUi = typeof OverlaysUiModule;

const importUi = () => import('./overlays-ui.tsx');
const LazyOverlays = lazy(async () => ({ default: (await importUi()).Overlays }));

/** The event names of @mantine/modals (`createUseExternalEvents('mantine-modals')`). */
const MODAL_EVENTS = [
  'openModal',
  'openConfirmModal',
  'openContextModal',
  'closeModal',
  'closeAllModals',
  'updateModal',
  'updateContextModal',
].map((name) => `mantine-modals:${name}`);
const OPENING = /:open/;

let requested = false;
let ready = false;
const held: CustomEvent[] = [];
const listeners = new Set<() => void>();
let resolveReady: (ui: OverlaysUi) => void;
const readyPromise = new Promise<OverlaysUi>((resolve) => {
  resolveReady = resolve;
});

function request() {
  if (requested) return;
  requested = true;
  listeners.forEach((notify) => notify());
}

function hold(event: Event) {
  if (ready || !(event instanceof CustomEvent)) return;
  // A close before anything was opened has nothing to close.
  if (!OPENING.test(event.type) && held.length === 0) return;
  held.push(new CustomEvent(event.type, { detail: event.detail as unknown }));
  request();
}

if (typeof window !== 'undefined') for (const name of MODAL_EVENTS) window.addEventListener(name, hold);

async function onMounted() {
  if (ready) return;
  ready = true;
  for (const name of MODAL_EVENTS) window.removeEventListener(name, hold);
  const ui = await importUi();
  for (const event of held.splice(0)) window.dispatchEvent(event);
  resolveReady(ui);
}

/** The notification/modal functions, once their providers are mounted (loads them on the first call). */
export function loadOverlays(): Promise<OverlaysUi> {
  request();
  return readyPromise;
}

const subscribe = (notify: () => void) => {
  listeners.add(notify);
  return () => listeners.delete(notify);
};
const isRequested = () => requested;

/** Mounts the notification/modal layer once something has asked for it; renders nothing before. */
export function OverlayHost() {
  const show = useSyncExternalStore(subscribe, isRequested, () => false);
  if (!show) return null;
  return (
    <Suspense fallback={null}>
      <LazyOverlays onReady={onMounted} />
    </Suspense>
  );
}
