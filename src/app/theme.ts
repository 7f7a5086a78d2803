import { createTheme, type MantineColorsTuple } from '@mantine/core';

/** Gold: the brand colour and the navigation progress bar (SPEC §9). */
const gold: MantineColorsTuple = [
  '#fff8e1',
  '#ffefcc',
  '#ffdd9b',
  '#ffca64',
  '#ffba38',
  '#ffb01b',
  '#ffab09',
  '#e39500',
  '#ca8500',
  '#af7100',
];

/** SPEC §9 breakpoints in px (360, 568, 768, 992, 1280, 1920), as em for Mantine. */
export const BREAKPOINTS_PX = { xs: 360, sm: 568, md: 768, lg: 992, xl: 1280, xxl: 1920 } as const;

export const theme = createTheme({
  primaryColor: 'gold',
  primaryShade: { light: 8, dark: 5 },
  autoContrast: true,
  colors: { gold },
  breakpoints: Object.fromEntries(Object.entries(BREAKPOINTS_PX).map(([k, px]) => [k, `${px / 16}em`])),
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif' },
});

export const THEME_STORAGE_KEY = 'theme';
