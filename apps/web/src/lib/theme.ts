import {
  createTheme,
  localStorageColorSchemeManager,
  type CSSVariablesResolver,
  type MantineColorsTuple,
} from '@mantine/core';
import { STORAGE_KEYS } from './storage';

/** A deep, trustworthy green-teal: money that arrived, a device that unlocked. */
const kidogo: MantineColorsTuple = [
  '#e5fbf4',
  '#d3f2e8',
  '#a9e3d0',
  '#7bd3b6',
  '#55c6a1',
  '#3cbd93',
  '#2bb98b',
  '#1aa378',
  '#0b9169',
  '#007e59',
];

/** The name of a dialog's ✕ button. */
export const CLOSE_DIALOG = 'Close dialog';

export const theme = createTheme({
  primaryColor: 'kidogo',
  primaryShade: { light: 7, dark: 6 },
  colors: { kidogo },
  defaultRadius: 'md',
  cursorType: 'pointer',
  autoContrast: true,
  fontFamily:
    'Inter, "Segoe UI", system-ui, -apple-system, Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: {
    fontFamily:
      'Inter, "Segoe UI", system-ui, -apple-system, Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
    fontWeight: '700',
  },
  defaultGradient: { from: 'kidogo.7', to: 'lime.6', deg: 135 },
  components: {
    Card: { defaultProps: { withBorder: true, shadow: 'xs' } },
    Table: { defaultProps: { verticalSpacing: 'sm', highlightOnHover: true } },
    // The ✕ of every dialog has a name a screen reader says (Mantine leaves it unnamed).
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': CLOSE_DIALOG } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': CLOSE_DIALOG } } },
  },
});

/** Light or dark, kept under the 'theme' key as the plain words 'light' and 'dark'. */
export const colorSchemeManager = localStorageColorSchemeManager({ key: STORAGE_KEYS.theme });
export const DEFAULT_COLOR_SCHEME = 'light' as const;

/** App-level surfaces that differ per scheme: the page behind cards is tinted so cards stand out. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--kidogo-app-bg': 'var(--mantine-color-gray-0)',
    '--kidogo-section-bg': 'var(--mantine-color-gray-0)',
    '--kidogo-hero-bg':
      'radial-gradient(1200px 500px at 85% -10%, rgba(116, 184, 22, 0.16), transparent 60%), radial-gradient(900px 500px at 0% 0%, rgba(11, 145, 105, 0.14), transparent 55%)',
  },
  dark: {
    '--kidogo-app-bg': 'var(--mantine-color-dark-8)',
    '--kidogo-section-bg': 'var(--mantine-color-dark-8)',
    '--kidogo-hero-bg':
      'radial-gradient(1200px 500px at 85% -10%, rgba(116, 184, 22, 0.12), transparent 60%), radial-gradient(900px 500px at 0% 0%, rgba(11, 145, 105, 0.22), transparent 55%)',
  },
});
