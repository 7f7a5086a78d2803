// Sets Mantine's colour scheme attribute from localStorage ("theme", dark by default) before React starts,
// so a light-theme user never sees a dark flash.
try {
  var s = localStorage.getItem('theme');
  document.documentElement.setAttribute('data-mantine-color-scheme', s === 'light' ? 'light' : 'dark');
} catch (e) {
  document.documentElement.setAttribute('data-mantine-color-scheme', 'dark');
}

// Zod (bundled with the contract schemas) probes `new Function` when its first object schema is built, at module
// load: the CSP (script-src 'self', no 'unsafe-eval') blocks it and Chrome logs a CSP issue on every page (Lighthouse
// Best Practices 96). Zod reads this global before its own config exists; its interpreted parser is fast enough here.
globalThis.__zod_globalConfig = { jitless: true };
