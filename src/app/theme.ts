import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

/** Gold: the brand colour and the navigation progress bar (SPEC §9). */
// Shade 9 is darker than Mantine's usual curve so gold text and links keep 4.5:1 on white (WCAG AA).
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
  '#8a5a00',
];

/** SPEC §9 breakpoints in px (360, 568, 768, 992, 1280, 1920), as em for Mantine. */
export const BREAKPOINTS_PX = { xs: 360, sm: 568, md: 768, lg: 992, xl: 1280, xxl: 1920 } as const;

export const theme = createTheme({
  primaryColor: 'gold',
  // One shade for both schemes: Mantine picks a filled button's text colour once, not per scheme, and black on
  // gold 5 reads well in both. Gold text on white uses --vitrina-brand-text / the anchor colour instead.
  primaryShade: 5,
  autoContrast: true,
  colors: { gold },
  breakpoints: Object.fromEntries(Object.entries(BREAKPOINTS_PX).map(([k, px]) => [k, `${px / 16}em`])),
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif' },
  components: {
    // Mantine draws a dialog's title bar as <header>, which assistive technology takes for a second page banner
    // (axe: landmark-no-duplicate-banner). The dialog is labelled by its title already: the bar needs no landmark.
    ModalHeader: { defaultProps: { role: 'presentation' } },
    DrawerHeader: { defaultProps: { role: 'presentation' } },
  },
});

export const THEME_STORAGE_KEY = 'theme';

/**
 * Mantine's default "dimmed" greys and its error red fall below 4.5:1 on our backgrounds; these keep secondary text
 * and field errors readable (red 9 on white, red 4 on the dark body).
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': '#5c5f66',
    '--mantine-color-anchor': '#8a5a00',
    '--vitrina-brand-text': '#8a5a00',
    '--mantine-color-error': '#c92a2a',
  },
  dark: {
    '--mantine-color-dimmed': '#a6a7ab',
    '--mantine-color-anchor': '#ffb01b',
    '--vitrina-brand-text': '#ffb01b',
    '--mantine-color-error': '#ff8787',
  },
});
