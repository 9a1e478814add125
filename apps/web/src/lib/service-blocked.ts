import { useEffect, useState } from 'react';
import { SERVICE_AVAILABLE_EVENT, SERVICE_DISABLED_EVENT, type ServiceBlockedDetail } from './api-client';
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

/**
 * What the last organization-service-disabled event said, until an
 * organization call succeeds again; null while the organization has access.
 * The state lives as long as the component using it: the back-office layout,
 * so signing out (or in as someone else) starts clean.
 */
export function useServiceBlocked(): Partial<ServiceBlockedDetail> | null {
  const [blocked, setBlocked] = useState<Partial<ServiceBlockedDetail> | null>(null);
  useEffect(() => {
    const onBlocked = (event: Event) => setBlocked((event as CustomEvent<Partial<ServiceBlockedDetail> | undefined>).detail ?? {});
    const onAvailable = () => setBlocked(null);
    window.addEventListener(SERVICE_DISABLED_EVENT, onBlocked);
    window.addEventListener(SERVICE_AVAILABLE_EVENT, onAvailable);
    return () => {
      window.removeEventListener(SERVICE_DISABLED_EVENT, onBlocked);
      window.removeEventListener(SERVICE_AVAILABLE_EVENT, onAvailable);
    };
  }, []);
  return blocked;
}
