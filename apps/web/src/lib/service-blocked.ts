import { useEffect } from 'react';
import { SERVICE_DISABLED_EVENT, type ServiceBlockedDetail } from './api-client';
import { toast } from './notify';

export const SERVICE_BLOCKED_DEFAULT_TEXT = 'Your organization access has been restricted';

/**
 * Turns the organization-service-disabled event into one toast: an error when
 * the service is disabled, otherwise a warning. Several list calls failing at
 * once share one toast id, so the user sees it once.
 */
export function useServiceBlockedToasts(): void {
  useEffect(() => {
    const onBlocked = (event: Event) => {
      const detail = (event as CustomEvent<Partial<ServiceBlockedDetail> | undefined>).detail ?? {};
      const text = detail.reason || detail.message || SERVICE_BLOCKED_DEFAULT_TEXT;
      const disabled = detail.error === 'SERVICE_DISABLED';
      const show = disabled ? toast.error : toast.warning;
      show(text, {
        id: SERVICE_DISABLED_EVENT,
        title: disabled ? 'Service disabled' : 'Service suspended',
      });
    };
    window.addEventListener(SERVICE_DISABLED_EVENT, onBlocked);
    return () => window.removeEventListener(SERVICE_DISABLED_EVENT, onBlocked);
  }, []);
}
