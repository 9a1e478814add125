import { onTestFinished, vi } from 'vitest';

/** A MediaQueryList as jsdom lacks it: `matches` as `matches(query)` says. */
export const fakeMediaQueryList = (query: string, matches: boolean) => ({
  matches,
  media: query,
  onchange: null,
  addListener: vi.fn(),
  removeListener: vi.fn(),
  addEventListener: vi.fn(),
  removeEventListener: vi.fn(),
  dispatchEvent: vi.fn(),
});

/** For the rest of the test, a phone's screen: every max-width media query matches. */
export function onPhoneWidth(): void {
  const media = vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => fakeMediaQueryList(query, /max-width/.test(query)));
  onTestFinished(() => media.mockRestore());
}
