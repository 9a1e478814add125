/**
 * A device's name as a person would say it ("Chrome on Windows") from its
 * User-Agent. Rough on purpose: it only has to let the user tell their
 * devices apart, not identify versions.
 */

// Order matters: Edge, Opera and Samsung Internet also say Chrome; Chrome, Firefox and Edge on iOS also say Safari.
const BROWSERS: [RegExp, string][] = [
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bCriOS\/|Chrome\/|Chromium\//, 'Chrome'],
  [/Version\/[\d.]+.*Safari\//, 'Safari'],
];

// iPhone and iPad before Mac OS X, which their User-Agents also contain; Android before Linux, likewise.
const SYSTEMS: [RegExp, string][] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bWindows\b/, 'Windows'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const find = (ua: string, table: [RegExp, string][]) => table.find(([pattern]) => pattern.test(ua))?.[1] ?? null;

/** "Chrome on Windows", "Safari on iPhone"; "Unknown browser" when nothing is recognised. */
export function describeUserAgent(ua: string | null): string {
  const text = ua?.trim() ?? '';
  const browser = text ? find(text, BROWSERS) : null;
  const system = text ? find(text, SYSTEMS) : null;
  if (browser && system) return `${browser} on ${system}`;
  if (browser) return browser;
  if (system) return `Unknown browser on ${system}`;
  return 'Unknown browser';
}

/** A phone or tablet, for the device's icon. */
export const isMobileUserAgent = (ua: string | null): boolean => /\b(Mobi|Android|iPhone|iPad)/.test(ua ?? '');
