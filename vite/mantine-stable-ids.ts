/**
 * Mantine's `useId` (@mantine/hooks) starts from React's `useId`, which the server and the browser agree on, then
 * replaces it with a random id in a layout effect after mount. That second id only matters when several React roots
 * share a page (their React ids could collide); Vitrina has one. The replacement is a state update in a layout
 * effect: React re-renders every component that asked for an id (each chip and field of the home's filter bar)
 * synchronously, inside the task that commits the page's hydration, and rewrites their `id`, `for` and
 * `aria-describedby` attributes — part of the longest tasks of a first visit on a phone (Lighthouse's Total Blocking
 * Time). This build plugin serves the same hook without the replacement: the id React gave, as Mantine's first render
 * already used (so the server's markup and the first render are unchanged). Applied to the browser's build and the
 * server's first-screen build alike.
 */
import type { Plugin } from 'vite';

const USE_ID_MODULE = /[\\/]@mantine[\\/]hooks[\\/]esm[\\/]use-id[\\/]use-id\.mjs$/;

/** Mantine's hook, minus the random id after mount: the same name, arguments and first value. */
export const STABLE_USE_ID_SOURCE = `import { useId as useReactId } from 'react';
export function useId(staticId) {
  const reactId = useReactId();
  if (typeof staticId === 'string') return staticId;
  return \`mantine-\${reactId.replace(/:/g, '')}\`;
}
`;

export function isMantineUseIdModule(id: string): boolean {
  return USE_ID_MODULE.test(id.split('?')[0]!);
}

export function mantineStableIds(): Plugin {
  return {
    name: 'vitrina-mantine-stable-ids',
    enforce: 'pre',
    load(id) {
      return isMantineUseIdModule(id) ? STABLE_USE_ID_SOURCE : null;
    },
  };
}
