// Sets Mantine's colour scheme attribute from localStorage ("theme", dark by default) before React starts,
// so a light-theme user never sees a dark flash.
try {
  var s = localStorage.getItem('theme');
  document.documentElement.setAttribute('data-mantine-color-scheme', s === 'light' ? 'light' : 'dark');
} catch (e) {
  document.documentElement.setAttribute('data-mantine-color-scheme', 'dark');
}
