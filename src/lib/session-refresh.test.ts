import { QueryClient } from '@tanstack/react-query';
import { afterEach, expect, it, vi } from 'vitest';
import { refreshUser, userQueryOptions } from './session.ts';

afterEach(() => vi.unstubAllGlobals());

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

it('a refresh after a sign-in asks again, not joining the check the page sent before it', async () => {
  const user = { id: 7, name: 'Lucía', email: 'lucia@example.test', role: 'model' };
  let answerFirst: (res: Response) => void = () => {};
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      calls.push(String(url));
      // The page's own check left before the verification signed the browser in: it answers "logged out", late.
      if (calls.length === 1) return new Promise<Response>((resolve) => (answerFirst = resolve));
      return Promise.resolve(json({ data: user }));
    }),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const pageCheck = client.fetchQuery(userQueryOptions()).catch(() => 'cancelled');
  await vi.waitFor(() => expect(calls).toHaveLength(1));
  const refreshed = refreshUser(client);
  answerFirst(json({ data: null }));
  await expect(refreshed).resolves.toEqual(user);
  expect(calls).toHaveLength(2);
  expect(client.getQueryData(userQueryOptions().queryKey)).toEqual(user);
  await pageCheck;
});
