import { formatMoney } from '@/components/ui/money';

/**
 * Under a customer's Total Paid (the payments Kidogo received): what was paid in another system on their devices
 * before the accounts were brought over (README "Bringing accounts over"), which their devices' totals include.
 */
export const paidBeforeHint = (amount: string, currency?: string | null) => `+ ${formatMoney(amount, currency)} paid before, in another system`;
