import { describe, expect, it } from 'vitest';
import { describeUserAgent, isMobileUserAgent } from './describe-user-agent';

const UA = {
  chromeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  edgeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  firefoxUbuntu: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  safariIphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  chromeIphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
  firefoxIpad: 'Mozilla/5.0 (iPad; CPU OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/133.0 Mobile/15E148 Safari/605.1.15',
  safariMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  samsungAndroid:
    'Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-A546B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
  chromeAndroid: 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  edgeAndroid: 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 EdgA/131.0.2903.87',
  operaWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0',
  chromeOs: 'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  headless: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
};

describe('describeUserAgent', () => {
  it.each([
    ['Chrome on Windows', UA.chromeWindows],
    ['Edge on Windows', UA.edgeWindows],
    ['Opera on Windows', UA.operaWindows],
    ['Firefox on Linux', UA.firefoxLinux],
    ['Firefox on Linux', UA.firefoxUbuntu],
    ['Chrome on Linux', UA.headless],
    ['Chrome on ChromeOS', UA.chromeOs],
    ['Safari on macOS', UA.safariMac],
    ['Safari on iPhone', UA.safariIphone],
    ['Chrome on iPhone', UA.chromeIphone],
    ['Firefox on iPad', UA.firefoxIpad],
    ['Samsung Internet on Android', UA.samsungAndroid],
    ['Chrome on Android', UA.chromeAndroid],
    ['Edge on Android', UA.edgeAndroid],
  ])('recognises %s', (name, ua) => {
    expect(describeUserAgent(ua)).toBe(name);
  });

  it('names the browser alone when the system is not recognised, and the system alone when the browser is not', () => {
    expect(describeUserAgent('Mozilla/5.0 (Nintendo Switch) Firefox/120.0')).toBe('Firefox');
    expect(describeUserAgent('Dalvik/2.1.0 (Linux; U; Android 13; SM-A135F)')).toBe('Unknown browser on Android');
  });

  it('falls back to "Unknown browser" for nothing or what is not a browser', () => {
    expect(describeUserAgent(null)).toBe('Unknown browser');
    expect(describeUserAgent('')).toBe('Unknown browser');
    expect(describeUserAgent('   ')).toBe('Unknown browser');
    expect(describeUserAgent('curl/8.5.0')).toBe('Unknown browser');
  });
});

describe('isMobileUserAgent', () => {
  it('tells phones and tablets from computers', () => {
    expect(isMobileUserAgent(UA.safariIphone)).toBe(true);
    expect(isMobileUserAgent(UA.firefoxIpad)).toBe(true);
    expect(isMobileUserAgent(UA.samsungAndroid)).toBe(true);
    expect(isMobileUserAgent(UA.chromeWindows)).toBe(false);
    expect(isMobileUserAgent(UA.safariMac)).toBe(false);
    expect(isMobileUserAgent(null)).toBe(false);
  });
});
