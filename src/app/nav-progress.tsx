import { Progress } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigation } from 'react-router';

/**
 * The gold bar at the top while a route (and its lazily loaded code) is loading. Built on Mantine Progress:
 * @mantine/nprogress would force every Mantine package to another version (docs/decisions/0002).
 */
export function NavProgress() {
  const { t } = useTranslation();
  const { state } = useNavigation();
  const loading = state !== 'idle';
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
  return (
    <Progress
      value={value}
      color="gold"
      size={3}
      radius={0}
      transitionDuration={200}
      aria-label={t('nav.loadingPage')}
      style={{ position: 'fixed', top: 0, left: 0, right: 0, zIndex: 1000 }}
    />
  );
}
