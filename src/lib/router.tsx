/**
 * The app's router (decision 0029): the part of react-router's declarative mode the app uses — one <Routes> table of
 * nested <Route>s with layout routes and <Outlet>, `:param` segments, <Link>, <Navigate>, useNavigate, useLocation,
 * useParams, useSearchParams, useNavigationType, and browser, memory and static histories — with react-router's
 * names and meaning, in about 2.5 KB instead of its 13 KB on every first visit (issue 27's 150 KB budget). History
 * entries keep react-router's shape (`{ usr, key, idx }`), so a page's place in history reads as before
 * (src/features/models/components/back-link.tsx). src/lib/router.test.tsx holds it to the matching rules the route
 * table relies on.
 */
import {
  Children,
  createContext,
  isValidElement,
  use,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
  type Ref,
} from 'react';

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  state: unknown;
  key: string;
}

export type To = string | Partial<Pick<Location, 'pathname' | 'search' | 'hash'>>;

export const NavigationType = { Pop: 'POP', Push: 'PUSH', Replace: 'REPLACE' } as const;
export type NavigationType = (typeof NavigationType)[keyof typeof NavigationType];

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

/** What <Router> is given to move with. */
export interface Navigator {
  push: (to: Partial<Location>, state?: unknown) => void;
  replace: (to: Partial<Location>, state?: unknown) => void;
  go: (delta: number) => void;
}

export interface History extends Navigator {
  readonly action: NavigationType;
  readonly location: Location;
  /** Called at every change, pushes and replaces included; answers the unsubscription. */
  listen: (listener: (update: { action: NavigationType; location: Location }) => void) => () => void;
}

function parsePath(path: string): Partial<Location> {
  const out: Partial<Location> = {};
  const hashAt = path.indexOf('#');
  if (hashAt >= 0) {
    out.hash = path.slice(hashAt);
    path = path.slice(0, hashAt);
  }
  const searchAt = path.indexOf('?');
  if (searchAt >= 0) {
    out.search = path.slice(searchAt);
    path = path.slice(0, searchAt);
  }
  if (path) out.pathname = path;
  return out;
}

export function createPath({ pathname = '/', search = '', hash = '' }: Partial<Location>): string {
  return pathname + (search && search !== '?' ? (search.startsWith('?') ? search : `?${search}`) : '') + (hash && hash !== '#' ? hash : '');
}

/** `to` from where we are: a path without pathname keeps the current one; a relative path is read from its folder. */
function resolve(to: To, from: string): Partial<Location> {
  const target = typeof to === 'string' ? parsePath(to) : to;
  const pathname = target.pathname;
  if (pathname === undefined) return { pathname: from, search: target.search ?? '', hash: target.hash ?? '' };
  if (pathname.startsWith('/')) return { search: '', hash: '', ...target };
  const segments = from.replace(/\/+$/, '').split('/');
  for (const part of pathname.split('/')) {
    if (part === '..') {
      if (segments.length > 1) segments.pop();
    } else if (part !== '.' && part) segments.push(part);
  }
  return { search: '', hash: '', ...target, pathname: segments.join('/') || '/' };
}

const randomKey = () => Math.random().toString(36).slice(2, 10);

function fullLocation(to: Partial<Location>, state: unknown, key = randomKey()): Location {
  return { pathname: to.pathname ?? '/', search: to.search ?? '', hash: to.hash ?? '', state: state ?? null, key };
}

/** The browser's history, with react-router's entry shape in `history.state`: `{ usr, key, idx }`. */
export function createBrowserHistory({ window: win = window }: { window?: Window } = {}): History {
  const listeners = new Set<(update: { action: NavigationType; location: Location }) => void>();
  type Entry = { usr?: unknown; key?: string; idx?: number } | null;
  const entry = () => win.history.state as Entry;
  const read = (): Location => {
    const { pathname, search, hash } = win.location;
    return fullLocation({ pathname, search, hash }, entry()?.usr, entry()?.key ?? 'default');
  };
  let action: NavigationType = NavigationType.Pop;
  let location = read();
  let index = entry()?.idx ?? 0;
  if (entry()?.idx == null) win.history.replaceState({ ...entry(), idx: index }, '');
  const notify = () => {
    for (const listener of [...listeners]) listener({ action, location });
  };
  win.addEventListener('popstate', () => {
    action = NavigationType.Pop;
    location = read();
    index = entry()?.idx ?? index;
    notify();
  });
  const move = (kind: NavigationType, to: Partial<Location>, state: unknown) => {
    const next = fullLocation(to, state);
    if (kind === NavigationType.Push) index++;
    const record = { usr: next.state, key: next.key, idx: index };
    const url = createPath(next);
    try {
      if (kind === NavigationType.Push) win.history.pushState(record, '', url);
      else win.history.replaceState(record, '', url);
    } catch {
      // Too many entries or a state that cannot be cloned (iOS caps pushState): load the page instead.
      win.location.assign(url);
      return;
    }
    action = kind;
    location = next;
    notify();
  };
  return {
    get action() {
      return action;
    },
    get location() {
      return location;
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    push: (to, state) => move(NavigationType.Push, to, state),
    replace: (to, state) => move(NavigationType.Replace, to, state),
    go: (delta) => win.history.go(delta),
  };
}

export function createMemoryHistory(initialEntries: string[] = ['/']): History {
  const entries = initialEntries.map((path) => fullLocation(parsePath(path), null));
  let index = entries.length - 1;
  let action: NavigationType = NavigationType.Pop;
  const listeners = new Set<(update: { action: NavigationType; location: Location }) => void>();
  const notify = () => {
    for (const listener of [...listeners]) listener({ action, location: entries[index]! });
  };
  return {
    get action() {
      return action;
    },
    get location() {
      return entries[index]!;
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    push(to, state) {
      entries.splice(++index, entries.length, fullLocation(to, state));
      action = NavigationType.Push;
      notify();
    },
    replace(to, state) {
      entries[index] = fullLocation(to, state);
      action = NavigationType.Replace;
      notify();
    },
    go(delta) {
      index = Math.min(Math.max(index + delta, 0), entries.length - 1);
      action = NavigationType.Pop;
      notify();
    },
  };
}

interface RouterState {
  location: Location;
  navigationType: NavigationType;
  navigator: Navigator;
}

const RouterContext = createContext<RouterState | null>(null);

function useRouter(): RouterState {
  const router = use(RouterContext);
  if (!router) throw new Error('a router hook outside <Router>');
  return router;
}

export function Router({
  location,
  navigationType = NavigationType.Pop,
  navigator,
  children,
}: {
  location: Location | string;
  navigationType?: NavigationType;
  navigator: Navigator;
  children?: ReactNode;
}) {
  const value = useMemo(
    () => ({
      location: typeof location === 'string' ? fullLocation(parsePath(location), null, 'default') : location,
      navigationType,
      navigator,
    }),
    [location, navigationType, navigator],
  );
  return <RouterContext value={value}>{children}</RouterContext>;
}

/** A router over a history of one's own (component tests): follows its changes. */
export function HistoryRouter({ history, children }: { history: History; children?: ReactNode }) {
  const [state, setState] = useState({ action: history.action, location: history.location });
  useLayoutEffect(() => history.listen(setState), [history]);
  return (
    <Router location={state.location} navigationType={state.action} navigator={history}>
      {children}
    </Router>
  );
}

export function MemoryRouter({ initialEntries, children }: { initialEntries?: string[]; children?: ReactNode }) {
  const [history] = useState(() => createMemoryHistory(initialEntries));
  return <HistoryRouter history={history}>{children}</HistoryRouter>;
}

const STATIC_NAVIGATOR: Navigator = {
  push() {
    throw new Error('navigation while rendering on the server');
  },
  replace() {
    throw new Error('navigation while rendering on the server');
  },
  go() {},
};

export function StaticRouter({ location, children }: { location: string; children?: ReactNode }) {
  return (
    <Router location={location} navigator={STATIC_NAVIGATOR}>
      {children}
    </Router>
  );
}

export function useLocation(): Location {
  return useRouter().location;
}

export function useNavigationType(): NavigationType {
  return useRouter().navigationType;
}

/** To a place, or `delta` steps through history (-1: back). */
export type NavigateFunction = (to: To | number, options?: NavigateOptions) => Promise<void>;

export function useNavigate(): NavigateFunction {
  const { navigator, location } = useRouter();
  // Read at call time: a navigation made from an effect or a callback starts from where the page is then.
  const from = useRef(location.pathname);
  from.current = location.pathname;
  return useCallback(
    (to: To | number, options: NavigateOptions = {}) => {
      if (typeof to === 'number') navigator.go(to);
      else (options.replace ? navigator.replace : navigator.push)(resolve(to, from.current), options.state);
      return Promise.resolve();
    },
    [navigator],
  );
}

/** Navigates once rendered (not while rendering: React may render it more than once). */
export function Navigate({ to, replace, state }: { to: To } & NavigateOptions) {
  const navigate = useNavigate();
  const target = typeof to === 'string' ? to : createPath(to);
  useEffect(() => {
    void navigate(target, { replace, state });
  }, [navigate, target, replace, state]);
  return null;
}

export type URLSearchParamsInit = string | URLSearchParams | Record<string, string> | Array<[string, string]>;
export type SetURLSearchParams = (
  next: URLSearchParamsInit | ((previous: URLSearchParams) => URLSearchParamsInit),
  options?: NavigateOptions,
) => void;

export function useSearchParams(): [URLSearchParams, SetURLSearchParams] {
  const { location, navigator } = useRouter();
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);
  const current = useRef(location);
  current.current = location;
  const set = useCallback<SetURLSearchParams>(
    (next, options = {}) => {
      const here = current.current;
      // An update function is given the latest search of this page, not the last rendered one: a navigation is
      // rendered in a transition, and a second change made before it shows (two filters picked in quick succession)
      // would otherwise start from the URL before the first and undo it.
      const latest = (navigator as Partial<History>).location;
      const base = latest && latest.pathname === here.pathname ? latest : here;
      const value = typeof next === 'function' ? next(new URLSearchParams(base.search)) : next;
      const search = new URLSearchParams(value).toString();
      const to = { pathname: here.pathname, search: search ? `?${search}` : '', hash: '' };
      (options.replace ? navigator.replace : navigator.push)(to, options.state);
    },
    [navigator],
  );
  return [params, set];
}

export type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  to: To;
  replace?: boolean;
  state?: unknown;
  ref?: Ref<HTMLAnchorElement>;
};

/** An <a> whose plain clicks move inside the app; modified clicks, other targets and downloads stay the browser's. */
export function Link({ to, replace, state, onClick, target, ref, ...rest }: LinkProps) {
  const { location } = useRouter();
  const navigate = useNavigate();
  const href = createPath(resolve(to, location.pathname));
  const click = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.altKey ||
      event.ctrlKey ||
      event.shiftKey ||
      (target && target !== '_self') ||
      rest.download !== undefined
    )
      return;
    event.preventDefault();
    // A link to the page we are on replaces it, as react-router's does: Back should not stay on the same page.
    void navigate(href, { replace: replace ?? href === createPath(location), state });
  };
  return <a {...rest} ref={ref} href={href} target={target} onClick={click} />;
}

// ——— Route matching ———

export interface RouteProps {
  path?: string;
  index?: boolean;
  element?: ReactNode;
  children?: ReactNode;
}

/** Only a description for <Routes>: it never renders itself. */
export function Route(_props: RouteProps): ReactElement | null {
  return null;
}

interface RouteNode {
  path?: string;
  index?: boolean;
  element?: ReactNode;
  children: RouteNode[];
}

function routesOf(children: ReactNode): RouteNode[] {
  const out: RouteNode[] = [];
  Children.forEach(children, (child) => {
    if (!isValidElement<RouteProps>(child)) return;
    const { path, index, element, children: nested } = child.props;
    out.push({ path, index, element, children: routesOf(nested) });
  });
  return out;
}

interface Branch {
  /** The routes from the root to the matched one. */
  routes: RouteNode[];
  segments: string[];
  score: number;
  order: number;
}

const join = (a: string, b: string) => (b.startsWith('/') ? b : `${a.replace(/\/+$/, '')}/${b}`);

function branchesOf(routes: RouteNode[], parentPath = '', parents: RouteNode[] = [], out: Branch[] = []): Branch[] {
  for (const route of routes) {
    const path = route.path === undefined ? parentPath : join(parentPath, route.path);
    const chain = [...parents, route];
    if (route.children.length) branchesOf(route.children, path, chain, out);
    // A layout route (no path, no index) matches only through its children.
    if (route.path !== undefined || route.index) {
      const segments = path.split('/').filter(Boolean);
      // react-router's ranking: static segments over `:params` over `*`; an index route over its layout's own path.
      const score =
        segments.reduce((sum, s) => sum + (s === '*' ? -2 : s.startsWith(':') ? 3 : 10), segments.length) + (route.index ? 2 : 0);
      out.push({ routes: chain, segments, score, order: out.length });
    }
  }
  return out;
}

function matchBranch(branch: Branch, pathname: string): Record<string, string> | null {
  const parts = pathname.split('/').filter(Boolean);
  const params: Record<string, string> = {};
  for (let i = 0; i < branch.segments.length; i++) {
    const segment = branch.segments[i]!;
    if (segment === '*') {
      params['*'] = parts.slice(i).map(decode).join('/');
      return params;
    }
    const part = parts[i];
    if (part === undefined) return null;
    if (segment.startsWith(':')) params[segment.slice(1)] = decode(part);
    else if (segment.toLowerCase() !== decode(part).toLowerCase()) return null;
  }
  return parts.length === branch.segments.length ? params : null;
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

const ParamsContext = createContext<Record<string, string>>({});
const OutletContext = createContext<ReactNode>(null);

export function Outlet() {
  return use(OutletContext);
}

export function useParams<P extends string = string>(): Readonly<Partial<Record<P, string>>> {
  return use(ParamsContext) as Partial<Record<P, string>>;
}

export function Routes({ children }: { children?: ReactNode }) {
  const { location } = useRouter();
  // Read at every render: `children` is a new tree each time its parent renders, so a memo keyed on it never hits.
  const branches = branchesOf(routesOf(children)).sort((a, b) => b.score - a.score || a.order - b.order);
  let matched: { branch: Branch; params: Record<string, string> } | undefined;
  for (const branch of branches) {
    const params = matchBranch(branch, location.pathname);
    if (params) {
      matched = { branch, params };
      break;
    }
  }
  if (!matched) return null;
  // Inside out: each route's element gets the next one as its <Outlet/>; a route without element is its outlet.
  let rendered: ReactNode = null;
  for (const route of [...matched.branch.routes].reverse()) {
    const element = route.element === undefined ? <Outlet /> : route.element;
    rendered = <OutletContext value={rendered}>{element}</OutletContext>;
  }
  return <ParamsContext value={matched.params}>{rendered}</ParamsContext>;
}
