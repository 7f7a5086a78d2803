import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { useNavigationPending } from './browser-router.tsx';
import classes from './nav-progress.module.css';

/** A navigation that renders within this time (its code already loaded) shows no bar at all. */
const SHOW_AFTER_MS = 120;

/**
 * The gold bar at the top while a route (and its lazily loaded code) is loading. Our own two boxes with the
 * progressbar role, as Mantine's Progress renders them (@mantine/nprogress would force every Mantine package to
 * another version, docs/decisions/0002; Progress itself is more than this bar needs on every page).
 */
export function NavProgress() {
  const { t } = useTranslation();
  const pending = useNavigationPending();
  const [loading, setLoading] = useState(false);
  useEffect(() => {
    if (!pending) return setLoading(false);
    const show = setTimeout(() => setLoading(true), SHOW_AFTER_MS);
    return () => clearTimeout(show);
  }, [pending]);
  const [value, setValue] = useState(0);
  const [visible, setVisible] = useState(false);
  const timer = useRef<ReturnType<typeof setInterval> | undefined>(undefined);

  useEffect(() => {
    if (loading) {
      setVisible(true);
      setValue(10);
      // Creep towards 90% so a slow load still shows movement; the last 10% waits for the route.
      timer.current = setInterval(() => setValue((v) => (v < 90 ? v + (90 - v) * 0.15 : v)), 200);
      return () => clearInterval(timer.current);
    }
    if (!visible) return;
    setValue(100);
    const hide = setTimeout(() => {
      setVisible(false);
      setValue(0);
    }, 300);
    return () => clearTimeout(hide);
  }, [loading, visible]);

  if (!visible) return null;
  const now = Math.round(value);
  return (
    <div className={classes.track}>
      <div
        className={classes.bar}
        style={{ width: `${value}%` }}
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={now}
        aria-valuetext={`${now}%`}
        aria-label={t('nav.loadingPage')}
      />
    </div>
  );
}
