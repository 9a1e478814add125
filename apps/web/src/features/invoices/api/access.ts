import type { SessionUser } from '@kidogo/contracts';

/** Spec §6: create, settings, status and delete belong to super admins and owners. */
export const canManageInvoices = (user: SessionUser | null) => user?.role === 'super_admin' || user?.role === 'owner';

/** Super admins read every organization's invoices through the admin endpoints. */
export const isSuperAdmin = (user: SessionUser | null) => user?.role === 'super_admin';

/** Path prefix for the write calls: the admin family for super admins, the organization's own otherwise. */
export const writeBase = (admin: boolean) => (admin ? '/admin/invoices' : '/invoices');
