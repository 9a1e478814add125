import type { Invoice } from '../api/types';

/** Invoice ID: its first 8 characters then an ellipsis. */
export const shortId = (id: string) => (id.length > 8 ? `${id.slice(0, 8)}…` : id);

/** An amount with exactly 2 decimals, grouped in the user's locale. */
export const formatAmount = (v: string | number | null | undefined) => {
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n) : '—';
};

/** Currency defaults to USD (spec §9). */
export const currencyOf = (inv: Pick<Invoice, 'currency'>) => inv.currency?.trim() || 'USD';

export const organizationLabel = (inv: Pick<Invoice, 'organization_id' | 'organization_name'>) =>
  inv.organization_name ? `${inv.organization_name} (${inv.organization_id})` : inv.organization_id;
