import { Component, type ReactNode } from 'react';
import { useLocation } from '#src/lib/router.tsx';
import { ErrorPage } from './routes/error-page.tsx';

interface Props {
  children: ReactNode;
  resetKey: string;
}
interface State {
  failed: boolean;
  error: unknown;
}

class Boundary extends Component<Props, State> {
  override state: State = { failed: false, error: undefined };

  static getDerivedStateFromError(error: unknown): State {
    return { failed: true, error };
  }

  override componentDidUpdate(prev: Props) {
    // Going to another page leaves the error behind, as the data router's errorElement did.
    if (prev.resetKey !== this.props.resetKey && this.state.failed) this.setState({ failed: false, error: undefined });
  }

  override render() {
    return this.state.failed ? <ErrorPage error={this.state.error} /> : this.props.children;
  }
}

/** A route's error boundary: a screen that throws (or whose code cannot be loaded) shows the error page. */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <Boundary resetKey={pathname}>{children}</Boundary>;
}
