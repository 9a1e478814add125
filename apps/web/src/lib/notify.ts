import { notifications } from '@mantine/notifications';

export type ToastType = 'error' | 'warning' | 'success' | 'info';

export const TOAST_COLORS: Record<ToastType, string> = {
  error: 'red',
  warning: 'yellow',
  success: 'green',
  info: 'blue',
};

const TITLES: Record<ToastType, string> = {
  error: 'Error',
  warning: 'Warning',
  success: 'Success',
  info: 'Notice',
};

/** Toast defaults (spec §2, §9): top right, 5 s, 0.3 s fade — set once on <Notifications>. */
export const TOAST_DEFAULTS = { position: 'top-right', autoClose: 5000, transitionDuration: 300 } as const;

export interface ToastOptions {
  title?: string;
  /** ms, or false to keep it until closed; default 5000. */
  autoClose?: number | false;
  /** A toast with the same id is shown once, not stacked. */
  id?: string;
}

function show(type: ToastType, message: string, options: ToastOptions = {}): string {
  return notifications.show({
    id: options.id,
    color: TOAST_COLORS[type],
    title: options.title ?? TITLES[type],
    message,
    autoClose: options.autoClose,
    withBorder: true,
  });
}

export const toast = {
  error: (message: string, options?: ToastOptions) => show('error', message, options),
  warning: (message: string, options?: ToastOptions) => show('warning', message, options),
  success: (message: string, options?: ToastOptions) => show('success', message, options),
  info: (message: string, options?: ToastOptions) => show('info', message, options),
};
