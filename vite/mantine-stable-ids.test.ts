import fs from 'node:fs';
import path from 'node:path';
import { Profiler, createElement, type FunctionComponent, type ProfilerOnRenderCallback } from 'react';
import { act } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMantineUseIdModule, mantineStableIds, STABLE_USE_ID_SOURCE } from './mantine-stable-ids.ts';

type UseId = (staticId?: string) => string;

// The replacement module, written where it resolves 'react' as the build does (the project's node_modules).
const replacementFile = path.resolve('node_modules/.vitrina-test-stable-use-id.mjs');
fs.writeFileSync(replacementFile, STABLE_USE_ID_SOURCE);
afterAll(() => fs.rmSync(replacementFile, { force: true }));
beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});

/** Hydrates a server render of a labelled field that asks `useId` for its id; the commits and the final id. */
async function hydrateField(useId: UseId) {
  const Field: FunctionComponent = () => {
    const id = useId();
    return createElement('div', null, createElement('label', { htmlFor: id }, 'Buscar'), createElement('input', { id }));
  };
  const phases: string[] = [];
  const onRender: ProfilerOnRenderCallback = (_id, phase) => void phases.push(phase);
  const tree = () => createElement(Profiler, { id: 'field', onRender }, createElement(Field));
  const container = document.createElement('div');
  container.innerHTML = renderToString(tree());
  const serverId = container.querySelector('input')!.id;
  phases.length = 0;
  let root: ReturnType<typeof hydrateRoot> | undefined;
  await act(async () => {
    root = hydrateRoot(container, tree());
    await Promise.resolve();
  });
  const result = { phases: [...phases], serverId, clientId: container.querySelector('input')!.id };
  act(() => root!.unmount());
  return result;
}

describe('mantineStableIds', () => {
  it("serves the replacement for Mantine's use-id module only", async () => {
    const load = mantineStableIds().load as (id: string) => string | null;
    const mantineFile = path.resolve('node_modules/@mantine/hooks/esm/use-id/use-id.mjs');
    expect(fs.existsSync(mantineFile)).toBe(true);
    expect(isMantineUseIdModule(mantineFile)).toBe(true);
    expect(load(mantineFile)).toBe(STABLE_USE_ID_SOURCE);
    expect(load('C:\\app\\node_modules\\@mantine\\hooks\\esm\\use-id\\use-id.mjs?v=1')).toBe(STABLE_USE_ID_SOURCE);
    expect(load(path.resolve('node_modules/@mantine/hooks/esm/use-idle/use-idle.mjs'))).toBeNull();
    expect(load(path.resolve('src/main.tsx'))).toBeNull();
  });

  it("hydrates once, keeping the server's id (Mantine's own hook re-renders and replaces it)", async () => {
    const mantine = (await import('@mantine/hooks')) as { useId: UseId };
    const replaced = (await import(/* @vite-ignore */ replacementFile)) as { useId: UseId };

    const before = await hydrateField(mantine.useId);
    // The defect: a second, synchronous commit right after hydration, and a new id written into the page.
    expect(before.phases).toEqual(['mount', 'update']);
    expect(before.clientId).not.toBe(before.serverId);

    const after = await hydrateField(replaced.useId);
    expect(after.phases).toEqual(['mount']);
    expect(after.serverId).toMatch(/^mantine-/);
    expect(after.clientId).toBe(after.serverId);
    // A static id is kept, as Mantine's hook does.
    expect(renderToString(createElement(() => createElement('i', { id: replaced.useId('mine') })))).toContain('id="mine"');
  });
});
