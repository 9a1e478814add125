import { describe, expect, it } from 'vitest';
import { formatDate } from './date-text';
import { formatMoney } from './money';
import { customerStatusColor, paymentStatusColor, tokenStatus } from './status-badge';

describe('formatMoney', () => {
  it('shows two decimals and the currency, USD when none is given', () => {
    expect(formatMoney('1500', 'KES')).toMatch(/^KES 1[,.\s\u202f]?500\.00$/);
    expect(formatMoney(12.5)).toBe('USD 12.50');
    expect(formatMoney('0.005', null)).toBe('USD 0.01');
  });

  it("shows a dash for what is not an amount", () => {
    expect(formatMoney(null)).toBe('—');
    expect(formatMoney('')).toBe('—');
    expect(formatMoney('abc', 'KES')).toBe('—');
  });
});

describe('status colours (spec section 4)', () => {
  it('customer: active green, inactive red, anything else grey', () => {
    expect(customerStatusColor('active')).toBe('green');
    expect(customerStatusColor('Inactive')).toBe('red');
    expect(customerStatusColor('suspended')).toBe('gray');
    expect(customerStatusColor(undefined)).toBe('gray');
  });

  it('payment: success or completed green, pending amber, anything else red', () => {
    expect(paymentStatusColor('success')).toBe('green');
    expect(paymentStatusColor('completed')).toBe('green');
    expect(paymentStatusColor('pending')).toBe('yellow');
    expect(paymentStatusColor('failed')).toBe('red');
    expect(paymentStatusColor(null)).toBe('red');
  });

  it('token: success or valid green, expired grey, otherwise invalid red', () => {
    expect(tokenStatus({ status: 'success' })).toEqual({ label: 'Success', color: 'green' });
    expect(tokenStatus({ status: 'success', is_valid: true })).toEqual({ label: 'Success', color: 'green' });
    expect(tokenStatus({ status: 'success', is_valid: false })).toEqual({ label: 'Expired', color: 'gray' });
    expect(tokenStatus({ status: 'generated', is_valid: true })).toEqual({ label: 'Valid', color: 'green' });
    expect(tokenStatus({ status: 'expired', is_valid: false })).toEqual({ label: 'Expired', color: 'gray' });
    expect(tokenStatus({ status: 'generated', is_valid: false })).toEqual({ label: 'Invalid', color: 'red' });
    expect(tokenStatus({})).toEqual({ label: 'Invalid', color: 'red' });
  });
});

describe('formatDate', () => {
  it('formats in the locale and shows a dash for missing or bad dates', () => {
    expect(formatDate('2026-11-21T10:00:00Z')).toMatch(/2026/);
    expect(formatDate(undefined)).toBe('—');
    expect(formatDate('not a date')).toBe('—');
  });
});
