/**
 * The CSS that MantineProvider would otherwise compute and render as two `<style>` elements on every start: the theme's
 * CSS variables (those that differ from Mantine's defaults, for both colour schemes) and the `hidden-from`/`visible-from`
 * classes of its breakpoints. Computing them took ~40 ms of the start-up's longest task at Lighthouse's 4× slowdown
 * (getMergedVariables), so the app turns both off (src/app/app.tsx) and ships this output as a stylesheet,
 * src/app/mantine-theme-vars.css. `vite/mantine-theme-vars.test.ts` fails when the file no longer matches the theme;
 * `npx tsx vite/mantine-theme-vars.ts` writes it again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MantineProvider } from '@mantine/core';
import * as prettier from 'prettier';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { cssVariablesResolver, theme } from '../src/app/theme.ts';

export const THEME_VARS_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/app/mantine-theme-vars.css');

const HEADER = '/* Written by vite/mantine-theme-vars.ts from src/app/theme.ts (MantineProvider renders none of it: see there). */\n';

/** What MantineProvider renders in its two style elements for our theme, as one stylesheet (formatted as the repo's). */
export async function themeVarsCss(): Promise<string> {
  const markup = renderToStaticMarkup(
    createElement(MantineProvider, { theme, cssVariablesResolver, defaultColorScheme: 'dark' }, createElement('main')),
  );
  const styles = [...markup.matchAll(/<style data-mantine-styles="(true|classes)"[^>]*>([\s\S]*?)<\/style>/g)];
  if (styles.length !== 2) throw new Error(`expected Mantine's two style elements, found ${styles.length}`);
  const css = HEADER + styles.map((m) => m[2]).join('\n');
  return prettier.format(css, { ...(await prettier.resolveConfig(THEME_VARS_FILE)), filepath: THEME_VARS_FILE });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  fs.writeFileSync(THEME_VARS_FILE, await themeVarsCss());
  console.log(`wrote ${path.relative(process.cwd(), THEME_VARS_FILE)}`);
}
