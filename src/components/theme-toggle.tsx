import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import classes from './theme-toggle.module.css';

/**
 * Dark/light switch; Mantine's colour-scheme manager persists the choice in localStorage ("theme").
 * Its hint shows while a mouse is over it, as Mantine's Tooltip did (not on touch, not on focus: the button's
 * accessible name is the same text). A plain element rather than Tooltip: Tooltip would bring floating-ui's
 * interaction hooks to every page for one line of text.
 */
export function ThemeToggle() {
  const { t } = useTranslation();
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('dark', { getInitialValueInEffect: false });
  const next = scheme === 'dark' ? 'light' : 'dark';
  const label = next === 'light' ? t('nav.themeLight') : t('nav.themeDark');
  const hintId = useId();
  const [hovered, setHovered] = useState(false);
  return (
    <span className={classes.root}>
      <ActionIcon
        variant="subtle"
        color="gray"
        size="lg"
        aria-label={label}
        aria-describedby={hovered ? hintId : undefined}
        data-scheme={scheme}
        onClick={() => setColorScheme(next)}
        onPointerEnter={(e) => setHovered(e.pointerType === 'mouse')}
        onPointerLeave={() => setHovered(false)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setHovered(false);
        }}
      >
        {scheme === 'dark' ? <IconSun size={20} aria-hidden /> : <IconMoon size={20} aria-hidden />}
      </ActionIcon>
      {hovered ? (
        <span role="tooltip" id={hintId} className={classes.hint}>
          {label}
        </span>
      ) : null}
    </span>
  );
}
