// Set the colour scheme before first paint so a dark-mode user never sees a
// light flash. A file, not an inline script, so the Content-Security-Policy
// can forbid inline scripts.
try {
  var t = localStorage.getItem('theme');
  document.documentElement.setAttribute('data-mantine-color-scheme', t === 'dark' ? 'dark' : 'light');
} catch (e) {}
