/** The build's id (vite.config.ts `define`): the persisted query cache of another build is dropped (its `buster`). */
declare const __BUILD_ID__: string;

interface Window {
  /** Set by public/app-start.js on a server-rendered first screen: presses again a button pressed before the app ran. */
  __vitrinaTakeOver?: () => void;
  /** The install prompt the browser offered before the app's code ran (kept by public/app-start.js). */
  __vitrinaInstallPrompt?: Event;
}
