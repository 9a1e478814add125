import type { OrgStatus } from '@kidogo/contracts';

export const REASON_TEMPLATES = [
  { value: 'custom', label: 'Custom message', message: '' },
  {
    value: 'unpaid_invoice',
    label: 'Unpaid invoice',
    message:
      'Your organization has an unpaid invoice. Access has been restricted until the outstanding balance is settled. Please contact billing to restore service.',
  },
  {
    value: 'payment_overdue',
    label: 'Payment overdue',
    message: 'Your subscription payment is overdue. Please make the payment to restore full access to the platform.',
  },
  {
    value: 'insufficient_funds',
    label: 'Insufficient funds',
    message:
      'Your last payment could not be completed because of insufficient funds. Please settle the balance or update your payment method to restore access.',
  },
  {
    value: 'trial_expired',
    label: 'Trial expired',
    message: 'Your free trial has ended. Choose a subscription plan to continue using the platform.',
  },
  {
    value: 'subscription_cancelled',
    label: 'Subscription cancelled',
    message: 'Your subscription has been cancelled. Please contact support if you would like to reactivate your account.',
  },
  {
    value: 'terms_violation',
    label: 'Terms of service violation',
    message: "Your organization's access has been restricted because of a violation of the terms of service. Please contact support for details.",
  },
  {
    value: 'security_review',
    label: 'Security review',
    message: "Your organization's access is temporarily restricted while we complete a security review. Access will be restored once the review is finished.",
  },
  {
    value: 'fraud_investigation',
    label: 'Fraud investigation',
    message: "Your organization's access has been restricted pending an investigation of suspicious activity. Please contact support.",
  },
  {
    value: 'maintenance',
    label: 'Maintenance',
    message: "Your organization's account is undergoing maintenance. Access will be restored shortly; thank you for your patience.",
  },
] as const;

export type ReasonTemplate = (typeof REASON_TEMPLATES)[number]['value'];

export const templateMessage = (t: ReasonTemplate) => REASON_TEMPLATES.find((r) => r.value === t)?.message ?? '';

/** Confirm label and colour per new status (spec §4). */
export const CONFIRM: Record<OrgStatus, { label: string; color: string; success: string }> = {
  active: { label: 'Enable Organization', color: 'green', success: 'Organization activated successfully' },
  suspended: { label: 'Suspend Organization', color: 'yellow', success: 'Organization suspended successfully' },
  disabled: { label: 'Disable Organization', color: 'red', success: 'Organization disabled successfully' },
};

/** Suspending or disabling needs a reason: it is what the organization's users are shown. */
export const needsReason = (status: OrgStatus | null) => status === 'suspended' || status === 'disabled';
