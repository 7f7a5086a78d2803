import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { THEME_VARS_FILE, themeVarsCss } from './mantine-theme-vars.ts';

describe("the theme's CSS variables as a stylesheet (MantineProvider renders none)", () => {
  it('src/app/mantine-theme-vars.css is what MantineProvider renders for the theme now (else: npx tsx vite/mantine-theme-vars.ts)', async () => {
    const css = await themeVarsCss();
    // Both schemes' own values and the breakpoints' classes are there.
    expect(css).toContain('--mantine-primary-color-filled: var(--mantine-color-gold-filled)');
    expect(css).toMatch(/:root\[data-mantine-color-scheme='dark'\][^{]*\{[^}]*--mantine-color-dimmed: #a6a7ab/);
    expect(css).toMatch(/:root\[data-mantine-color-scheme='light'\][^{]*\{[^}]*--mantine-color-dimmed: #5c5f66/);
    expect(css).toContain('.mantine-hidden-from-sm');
    expect(fs.readFileSync(THEME_VARS_FILE, 'utf8')).toBe(css);
  });
});
