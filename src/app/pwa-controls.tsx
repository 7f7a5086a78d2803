/**
 * The install button (header) and the update prompt (bottom of the screen), mounted by the layout. Their code is loaded
 * only once there is something to offer (see pwa-state.ts): most visits have neither.
 */
import { lazy, Suspense, useSyncExternalStore } from 'react';
import { getPwaState, subscribePwa, type PwaState } from './pwa-state.ts';

const InstallButton = lazy(async () => ({ default: (await import('./pwa-install-button.tsx')).InstallButton }));
const UpdatePrompt = lazy(async () => ({ default: (await import('./pwa-prompts.tsx')).UpdatePrompt }));

const NOTHING: PwaState = { installPrompt: null, installed: false, iosSteps: false, update: null };

function usePwaState(): PwaState {
  // The server renders neither (its snapshot offers nothing), so the page hydrates without them.
  return useSyncExternalStore(subscribePwa, getPwaState, () => NOTHING);
}

export function InstallControl() {
  const state = usePwaState();
  if (state.installed || (!state.installPrompt && !state.iosSteps)) return null;
  return (
    <Suspense fallback={null}>
      <InstallButton state={state} />
    </Suspense>
  );
}

export function UpdateControl() {
  const { update } = usePwaState();
  if (!update) return null;
  return (
    <Suspense fallback={null}>
      <UpdatePrompt update={update} />
    </Suspense>
  );
}
