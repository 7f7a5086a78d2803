/**
 * The app's router: src/lib/router.tsx's <Router> over the browser history, like react-router's <BrowserRouter>, with
 * each location change rendered in a React transition whose pending state is shared (useNavigationPending).
 *
 * Why not createBrowserRouter/RouterProvider: the data router (loaders, actions, fetchers, revalidation) is
 * about 16 KB gzipped of the home page's JavaScript, and we use none of it. What it gave us that we still
 * need is rebuilt here and in router.tsx: screens load lazily while the previous page stays on screen (the
 * transition), the progress bar knows a navigation is pending, and errors are caught per route. Not react-router
 * itself either: its declarative mode was 13 KB of the first visit's code (decision 0029).
 */
import { createContext, use, useLayoutEffect, useState, useTransition, type ReactNode } from 'react';
import { Router, createBrowserHistory } from '#src/lib/router.tsx';

const PendingContext = createContext(false);

/** True while a navigation is rendering (its screen's code loading, its translations arriving). */
export function useNavigationPending(): boolean {
  return use(PendingContext);
}

export function AppBrowserRouter({ children }: { children: ReactNode }) {
  const [history] = useState(() => createBrowserHistory({ window }));
  const [state, setState] = useState({ action: history.action, location: history.location });
  const [pending, startTransition] = useTransition();
  useLayoutEffect(() => history.listen(({ action, location }) => startTransition(() => setState({ action, location }))), [history]);
  return (
    <PendingContext value={pending}>
      <Router location={state.location} navigationType={state.action} navigator={history}>
        {children}
      </Router>
    </PendingContext>
  );
}
