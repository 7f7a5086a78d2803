import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  createBrowserHistory,
  createMemoryHistory,
  HistoryRouter,
  Link,
  Navigate,
  Outlet,
  Route,
  Routes,
  useLocation,
  useParams,
  useSearchParams,
} from './router.tsx';

function Show({ name }: { name: string }) {
  const params = useParams();
  return (
    <p>
      {name} {JSON.stringify(params)}
    </p>
  );
}

function Layout() {
  return (
    <section aria-label="layout">
      <Outlet />
    </section>
  );
}

/** The shape of src/app/router.tsx's table: a language segment, layout routes without path, an index, a catch-all. */
function table() {
  return (
    <Routes>
      <Route path="/" element={<Show name="root" />} />
      <Route path="/:lng" element={<Layout />}>
        <Route element={<Outlet />}>
          <Route index element={<Show name="home" />} />
          <Route path="models/:id" element={<Show name="model" />} />
          <Route path="models/new" element={<Show name="new model" />} />
          <Route path="statements/:id" element={<Show name="statement" />} />
          <Route path="*" element={<Show name="not found" />} />
        </Route>
      </Route>
    </Routes>
  );
}

function at(path: string, ui = table()) {
  const history = createMemoryHistory([path]);
  const view = render(<HistoryRouter history={history}>{ui}</HistoryRouter>);
  return { history, ...view };
}

describe('matching', () => {
  it.each([
    ['/', 'root {}'],
    ['/es', 'home {"lng":"es"}'],
    ['/es/', 'home {"lng":"es"}'],
    ['/es/models/12', 'model {"lng":"es","id":"12"}'],
    // A static segment outranks a parameter, whatever their order in the table.
    ['/es/models/new', 'new model {"lng":"es"}'],
    ['/es/MODELS/12', 'model {"lng":"es","id":"12"}'],
    ['/es/statements/a%20b', 'statement {"lng":"es","id":"a b"}'],
    ['/es/no/such/page', 'not found {"lng":"es","*":"no/such/page"}'],
  ])('%s renders %s inside its layouts', (path, shown) => {
    const { container } = at(path);
    expect(container.textContent).toBe(shown);
    if (path !== '/') expect(screen.getByRole('region', { name: 'layout' })).toBeTruthy();
  });

  it('nothing matches: nothing is rendered', () => {
    const { container } = at('/es', <Routes>{[<Route key="a" path="/x" element={<p>x</p>} />]}</Routes>);
    expect(container.textContent).toBe('');
  });
});

function Here() {
  const location = useLocation();
  return <output>{location.pathname + location.search}</output>;
}

describe('moving', () => {
  it('a plain click on a link pushes its page; a modified click or another target is left to the browser', () => {
    const { history } = at(
      '/es',
      <>
        <Link to="/es/models/3">open</Link>
        <Link to="/es/models/4" target="_blank">
          tab
        </Link>
        <Here />
      </>,
    );
    expect(screen.getByRole('link', { name: 'open' }).getAttribute('href')).toBe('/es/models/3');
    fireEvent.click(screen.getByRole('link', { name: 'open' }), { ctrlKey: true });
    expect(history.location.pathname).toBe('/es');
    fireEvent.click(screen.getByRole('link', { name: 'tab' }));
    expect(history.location.pathname).toBe('/es');
    fireEvent.click(screen.getByRole('link', { name: 'open' }));
    expect(history.location.pathname).toBe('/es/models/3');
    expect(history.action).toBe('PUSH');
    expect(screen.getByRole('status').textContent).toBe('/es/models/3');
  });

  it('a link to the page we are on replaces it; a link with only a query keeps the path', () => {
    const { history } = at(
      '/es/models?x=1',
      <>
        <Link to="/es/models?x=1">same</Link>
        <Link to={{ search: '?y=2' }}>query</Link>
      </>,
    );
    fireEvent.click(screen.getByRole('link', { name: 'same' }));
    expect(history.action).toBe('REPLACE');
    expect(screen.getByRole('link', { name: 'query' }).getAttribute('href')).toBe('/es/models?y=2');
  });

  it('search parameters: set with push or replace, from the current ones', () => {
    let set: ReturnType<typeof useSearchParams>[1] = () => {};
    function Probe() {
      const [params, setParams] = useSearchParams();
      set = setParams;
      return <output>{params.get('page') ?? '-'}</output>;
    }
    const { history } = at('/es?page=1&city=5', <Probe />);
    act(() => set((p) => (p.set('page', '2'), p)));
    expect(history.location.search).toBe('?page=2&city=5');
    expect(history.action).toBe('PUSH');
    act(() => set({ page: '3' }, { replace: true }));
    expect(history.location.search).toBe('?page=3');
    expect(history.action).toBe('REPLACE');
    expect(screen.getByRole('status').textContent).toBe('3');
  });

  it('<Navigate> moves once rendered, with its state', () => {
    const { history } = at('/es/old', <Navigate to="/es/new" replace state={{ from: 'old' }} />);
    expect(history.location.pathname).toBe('/es/new');
    expect(history.location.state).toEqual({ from: 'old' });
    expect(history.action).toBe('REPLACE');
  });

  it("the browser history keeps react-router's entry shape: its place in history is `idx`", () => {
    window.history.replaceState(null, '', '/es');
    const history = createBrowserHistory({ window });
    expect((window.history.state as { idx: number }).idx).toBe(0);
    history.push({ pathname: '/es/models/1' }, { a: 1 });
    expect(window.location.pathname).toBe('/es/models/1');
    expect(window.history.state).toMatchObject({ usr: { a: 1 }, idx: 1 });
    history.replace({ pathname: '/es/models/2' });
    expect(window.history.state).toMatchObject({ idx: 1 });
    expect(history.location.pathname).toBe('/es/models/2');
  });
});
