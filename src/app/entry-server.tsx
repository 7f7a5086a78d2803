/**
 * The first screen rendered on the server (issue 13 point 2): the build writes this module, with everything it
 * imports, to DIST_DIR/.ssr/entry-server.js (vite.config.ts, ssrFirstScreen), and server/plugins/first-screen.ts
 * renders the home with it: the same App, routes and components as the browser, with the answers the page carries in
 * its data block and the translations of the URL's language. The browser hydrates over it (main.tsx), so the first
 * visit on a phone paints the page, its photos included, before the JavaScript has run.
 */
import { StrictMode, type ReactNode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { createI18nInstance, type Resources } from '#src/lib/i18n-core.ts';
import { StaticRouter } from '#src/lib/router.tsx';
import { setApiLanguage } from '#src/lib/api-client.ts';
import { provideFirstScreen } from '#src/lib/first-screen.ts';
import { App } from './app.tsx';

export interface FirstScreenInput {
  /** The page's path and query, e.g. `/es`. */
  url: string;
  lng: string;
  /** The language's translations, as GET /api/language/{lng} answers them. */
  translations: Record<string, unknown>;
  /** The page's data block: API path → answer. */
  answers: Record<string, unknown>;
}

async function render({ url, lng, translations, answers }: FirstScreenInput): Promise<string> {
  const i18n = createI18nInstance({ lng, resources: { [lng]: translations as Resources } });
  const Router = ({ children }: { children: ReactNode }) => <StaticRouter location={url}>{children}</StaticRouter>;
  provideFirstScreen({ lng, answers });
  setApiLanguage(lng);
  try {
    // prerender waits for the lazily loaded screen, where renderToString would leave its loader.
    // progressiveChunkSize: a large boundary (the page under the header) would otherwise be written apart, hidden, and
    // moved into place by an inline script, which the CSP forbids; this page is sent in one piece anyway.
    const { prelude } = await prerenderToNodeStream(
      <StrictMode>
        <App i18n={i18n} Router={Router} />
      </StrictMode>,
      { progressiveChunkSize: Number.MAX_SAFE_INTEGER },
    );
    // A character may be split across chunks: decode as one stream.
    const decoder = new TextDecoder();
    let html = '';
    for await (const chunk of prelude as AsyncIterable<Uint8Array | string>) {
      html += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    }
    return html + decoder.decode();
  } finally {
    provideFirstScreen(null);
  }
}

/**
 * A screen whose code was still loading rendered its fallback and finished later: React then writes the rest as
 * hidden markup moved into place by inline scripts, which the CSP forbids. The lazily loaded screens stay loaded, so
 * the second render of a route is complete; until then (or if something still waits) the page goes without.
 */
async function completeRender(input: FirstScreenInput): Promise<string | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const html = await render(input);
    if (!html.includes('<script')) return html;
  }
  return undefined;
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * The root's inner HTML for the page, or undefined if it could not be rendered whole. One render at a time: the
 * answers are handed over through module state.
 */
export function renderFirstScreen(input: FirstScreenInput): Promise<string | undefined> {
  const run = queue.then(() => completeRender(input));
  queue = run.catch(() => undefined);
  return run;
}
