/**
 * The answers the server put into the page for its first screen (server/plugins/first-screen.ts: the home's listing,
 * sections and promotions, a model's ad and gallery), as a JSON data block. A query takes its answer from here as
 * initial data instead of asking the network, so a first visit renders once its code has run. Each answer is used
 * once and only soon after the page loaded, in the page's own language; anything else is fetched as usual.
 */
import { apiLanguage } from './api-client.ts';

interface Block {
  lng: string;
  answers: Record<string, unknown>;
}

export const FIRST_SCREEN_ID = 'first-screen';
/** A page left open longer than this asks again rather than showing what it came with. */
const FRESH_MS = 60_000;

let block: Block | null | undefined;
let paths: string[] = [];
/** Set while the server renders the first screen (src/app/entry-server.tsx): no page clock to check there. */
let rendering = false;

function read(): Block | null {
  if (block !== undefined) return block;
  block = null;
  const text = typeof document === 'undefined' ? null : document.getElementById(FIRST_SCREEN_ID)?.textContent;
  if (!text) return block;
  try {
    const value = JSON.parse(text) as Partial<Block>;
    if (typeof value.lng === 'string' && value.answers && typeof value.answers === 'object') {
      block = { lng: value.lng, answers: { ...value.answers } };
      paths = Object.keys(block.answers);
    }
  } catch {
    // A damaged block: everything is fetched as usual.
  }
  return block;
}

/** The answer to `GET path` the page came with, the first time it is asked for; otherwise undefined. */
export function firstScreenAnswer<T>(path: string): T | undefined {
  const b = read();
  if (!b || b.lng !== apiLanguage() || (!rendering && performance.now() > FRESH_MS) || !Object.hasOwn(b.answers, path)) {
    return undefined;
  }
  const value = b.answers[path] as T;
  delete b.answers[path];
  return value;
}

let firstScreenMounted = false;
/**
 * Whether this render is the server's first screen or the browser's hydration of it: true on the server, and in the
 * browser until `firstScreenDone` (the page that uses this calls it once mounted) on a page the server rendered. Such
 * a page may render less than the whole of what it shows (the home: its first cards), the same on both sides, and the
 * rest right after.
 */
export function isFirstScreenRender(): boolean {
  if (rendering) return true;
  if (firstScreenMounted || typeof document === 'undefined') return false;
  return !!document.getElementById(FIRST_SCREEN_ID);
}

/** The first screen has been taken over: later renders (another visit of the same page) render it whole at once. */
export function firstScreenDone(): void {
  firstScreenMounted = true;
}

/** The API paths the page came with: the service worker is handed them to keep, as if they had been fetched. */
export function firstScreenPaths(): string[] {
  read();
  return paths;
}

/** Tests: forget what was read, so another document's block is read again. */
export function resetFirstScreen(): void {
  block = undefined;
  paths = [];
  rendering = false;
  firstScreenMounted = false;
}

/**
 * The server's rendering of the first screen gives the same answers it puts into the page, so that what it renders
 * is what the browser's first render will be (one render at a time; `null` when done).
 */
export function provideFirstScreen(value: Block | null): void {
  block = value ? { lng: value.lng, answers: { ...value.answers } } : undefined;
  paths = value ? Object.keys(value.answers) : [];
  rendering = !!value;
}
