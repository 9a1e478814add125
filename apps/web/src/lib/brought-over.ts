import { formatMoney } from '@/components/ui/money';

/**
 * Under a customer's Total Paid (the payments Kidogo received): what had been paid on their devices before they had
 * them, which their devices' totals include: in another system, on accounts brought over (README "Bringing accounts
 * over"), or by another customer, on accounts they took over (README "Account transfers").
 */
export const paidBeforeHint = (amount: string, currency?: string | null) => `+ ${formatMoney(amount, currency)} paid before they had these devices`;
