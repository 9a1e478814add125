import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { fakeMediaQueryList } from './media';

// A screen's first render also loads its lazy route chunk (charts and all): give findBy* time for it.
configure({ asyncUtilTimeout: 10_000 });

// jsdom lacks what Mantine measures and animates with.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: vi.fn().mockImplementation((query: string) => fakeMediaQueryList(query, false)),
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub as unknown as typeof ResizeObserver;
window.HTMLElement.prototype.scrollIntoView = () => {};
window.scrollTo = (() => {}) as typeof window.scrollTo;
// Mantine's autosizing Textarea listens for web fonts loading.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: { addEventListener: () => {}, removeEventListener: () => {} } });
}

const { getComputedStyle } = window;
window.getComputedStyle = (elt: Element) => getComputedStyle(elt);

afterEach(() => {
  cleanup();
  // The toast store is module-level: without this a toast outlives its test.
  notifications.clean();
  window.localStorage.clear();
});
