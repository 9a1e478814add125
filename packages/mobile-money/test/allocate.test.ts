import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocatePayment, MAX_TOKENS_PER_PAYMENT, type AllocationDevice, type AllocationTemplate } from '../src/index.js';

/** KES to cents, so the examples read like the README. */
const kes = (shillings: number) => Math.round(shillings * 100);

/** The README's template: deposit 1,000, activation 500, 50 a day, 3 grace days, free code at 20,000. */
const T: AllocationTemplate = {
  depositCents: kes(1000),
  activationPriceCents: kes(500),
  dailyPriceCents: kes(50),
  gracePeriodDays: 3,
  freeCodePriceCents: kes(20000),
};
/** The same plan with no payoff price (and devices without a price): never paid off automatically. */
const T_OPEN: AllocationTemplate = { ...T, freeCodePriceCents: null };

const NEW_DEVICE: AllocationDevice = { creditCents: 0, totalPaidCents: 0, activated: false, priceCents: null };
const active = (credit: number, totalPaid: number): AllocationDevice => ({
  creditCents: kes(credit),
  totalPaidCents: kes(totalPaid),
  activated: true,
  priceCents: null,
});

describe('README "Payment rules" worked examples', () => {
  it('Example 1: a first payment of 1,200 is below activation: no token, 300 more needed', () => {
    expect(allocatePayment({ amountCents: kes(1200), device: NEW_DEVICE, template: T })).toEqual({
      tokens: [],
      daysBought: 0,
      graceDays: 0,
      newCreditCents: kes(1200),
      newTotalPaidCents: kes(1200),
      paidOff: false,
      remainingToActivateCents: kes(300),
      remainingToPayOffCents: kes(18800),
      overpaidCents: 0,
      reason: 'below_activation',
    });
  });

  it('Example 2: then 1,000 more activates: 700 beyond 1,500 buys 14 days, + 3 grace = one 17-day activation token', () => {
    const device = { ...NEW_DEVICE, creditCents: kes(1200), totalPaidCents: kes(1200) };
    expect(allocatePayment({ amountCents: kes(1000), device, template: T })).toEqual({
      tokens: [{ type: 'activation', days: 17 }],
      daysBought: 14,
      graceDays: 3,
      newCreditCents: 0,
      newTotalPaidCents: kes(2200),
      paidOff: false,
      remainingToActivateCents: 0,
      remainingToPayOffCents: kes(17800),
      overpaidCents: 0,
      reason: 'activated',
    });
  });

  it('Example 3: 75 paid with 20 carried buys 1 day and carries 45', () => {
    expect(allocatePayment({ amountCents: kes(75), device: active(20, 5000), template: T })).toEqual({
      tokens: [{ type: 'add_time', days: 1 }],
      daysBought: 1,
      graceDays: 0,
      newCreditCents: kes(45),
      newTotalPaidCents: kes(5075),
      paidOff: false,
      remainingToActivateCents: 0,
      remainingToPayOffCents: kes(14925),
      overpaidCents: 0,
      reason: 'days_added',
    });
  });

  it('Example 4: 4 paid with 45 carried is below one day: no token, 49 carried', () => {
    const r = allocatePayment({ amountCents: kes(4), device: active(45, 5075), template: T });
    expect(r).toMatchObject({ tokens: [], daysBought: 0, newCreditCents: kes(49), newTotalPaidCents: kes(5079), reason: 'below_daily_price' });
    expect(r.remainingToPayOffCents).toBe(kes(14921));
  });

  it('Example 5: 150 paid after 19,900 crosses the free-code price of 20,000: unlock token, 50 overpaid, credit 0', () => {
    expect(allocatePayment({ amountCents: kes(150), device: active(10, 19900), template: T })).toEqual({
      tokens: [{ type: 'unlock', days: 0 }],
      daysBought: 0,
      graceDays: 0,
      newCreditCents: 0,
      newTotalPaidCents: kes(20050),
      paidOff: true,
      remainingToActivateCents: 0,
      remainingToPayOffCents: 0,
      overpaidCents: kes(50),
      reason: 'paid_off',
    });
  });

  it('Example 6: 60,000 at 50 a day is 1,200 days, sent as two tokens of 995 and 205 days', () => {
    expect(allocatePayment({ amountCents: kes(60000), device: active(0, 2200), template: T_OPEN })).toEqual({
      tokens: [
        { type: 'add_time', days: 995 },
        { type: 'add_time', days: 205 },
      ],
      daysBought: 1200,
      graceDays: 0,
      newCreditCents: 0,
      newTotalPaidCents: kes(62200),
      paidOff: false,
      remainingToActivateCents: 0,
      remainingToPayOffCents: null,
      overpaidCents: 0,
      reason: 'days_added',
    });
  });

  it('Example 7: without a template, 500 is held as credit and nothing is issued', () => {
    const device = { ...NEW_DEVICE, priceCents: kes(25000) };
    expect(allocatePayment({ amountCents: kes(500), device, template: null })).toEqual({
      tokens: [],
      daysBought: 0,
      graceDays: 0,
      newCreditCents: kes(500),
      newTotalPaidCents: kes(500),
      paidOff: false,
      remainingToActivateCents: 0,
      remainingToPayOffCents: kes(24500),
      overpaidCents: 0,
      reason: 'no_template',
    });
  });

  it('Example 8: a first payment of 21,000 would activate but crosses 20,000: the unlock wins', () => {
    const r = allocatePayment({ amountCents: kes(21000), device: NEW_DEVICE, template: T });
    expect(r.tokens).toEqual([{ type: 'unlock', days: 0 }]);
    expect(r).toMatchObject({ paidOff: true, overpaidCents: kes(1000), newCreditCents: 0, reason: 'paid_off' });
  });
});

describe('allocatePayment: every branch', () => {
  it('activation with exactly the upfront amount gives the grace days only', () => {
    const r = allocatePayment({ amountCents: kes(1500), device: NEW_DEVICE, template: T });
    expect(r.tokens).toEqual([{ type: 'activation', days: 3 }]);
    expect(r).toMatchObject({ daysBought: 0, graceDays: 3, newCreditCents: 0, reason: 'activated' });
  });

  it('activation keeps the remainder below one day as credit', () => {
    const r = allocatePayment({ amountCents: kes(1530), device: NEW_DEVICE, template: T });
    expect(r.tokens).toEqual([{ type: 'activation', days: 3 }]);
    expect(r.newCreditCents).toBe(kes(30));
  });

  it('activation with no grace period and less than a day still issues the activation token (0 days)', () => {
    const r = allocatePayment({ amountCents: kes(1520), device: NEW_DEVICE, template: { ...T, gracePeriodDays: 0 } });
    expect(r.tokens).toEqual([{ type: 'activation', days: 0 }]);
    expect(r.newCreditCents).toBe(kes(20));
  });

  it('an activation beyond 995 days carries 995 and the rest goes in add_time tokens', () => {
    const r = allocatePayment({ amountCents: kes(1500 + 50 * 1000), device: NEW_DEVICE, template: T_OPEN });
    expect(r.tokens).toEqual([
      { type: 'activation', days: 995 },
      { type: 'add_time', days: 8 },
    ]);
    expect(r.daysBought).toBe(1000);
  });

  it('uses the device price when the template has no free-code price', () => {
    const device = { ...active(0, 14990), priceCents: kes(15000) };
    const r = allocatePayment({ amountCents: kes(10), device, template: T_OPEN });
    expect(r).toMatchObject({ paidOff: true, overpaidCents: 0, tokens: [{ type: 'unlock', days: 0 }] });
    const before = allocatePayment({ amountCents: kes(9), device, template: T_OPEN });
    expect(before).toMatchObject({ paidOff: false, remainingToPayOffCents: kes(1), reason: 'below_daily_price' });
  });

  it('the template free-code price wins over the device price', () => {
    const device = { ...active(0, 14990), priceCents: kes(15000) };
    const r = allocatePayment({ amountCents: kes(10), device, template: T });
    expect(r).toMatchObject({ paidOff: false, remainingToPayOffCents: kes(5000) });
  });

  it('a payment on a device already paid off issues the unlock token again', () => {
    const r = allocatePayment({ amountCents: kes(100), device: active(0, 20000), template: T });
    expect(r).toMatchObject({ reason: 'paid_off', overpaidCents: kes(100) });
  });

  it('no template and no device price: remaining to pay off is unknown', () => {
    expect(allocatePayment({ amountCents: 1, device: NEW_DEVICE, template: null }).remainingToPayOffCents).toBeNull();
  });

  it('honours a smaller maxDaysPerToken', () => {
    const r = allocatePayment({ amountCents: kes(50 * 25), device: active(0, 2200), template: { ...T_OPEN, maxDaysPerToken: 10 } });
    expect(r.tokens.map((t) => t.days)).toEqual([10, 10, 5]);
  });

  it('caps one payment at MAX_TOKENS_PER_PAYMENT full tokens and keeps the rest as credit', () => {
    const template = { ...T_OPEN, dailyPriceCents: 1, maxDaysPerToken: 2 };
    const r = allocatePayment({ amountCents: 1_000_000, device: active(0, 2200), template });
    expect(r.tokens).toHaveLength(MAX_TOKENS_PER_PAYMENT);
    expect(r.daysBought).toBe(MAX_TOKENS_PER_PAYMENT * 2);
    expect(r.newCreditCents).toBe(1_000_000 - MAX_TOKENS_PER_PAYMENT * 2);
  });

  it('refuses impossible inputs', () => {
    expect(() => allocatePayment({ amountCents: 0, device: NEW_DEVICE, template: T })).toThrow(RangeError);
    expect(() => allocatePayment({ amountCents: 10.5, device: NEW_DEVICE, template: T })).toThrow(RangeError);
    expect(() => allocatePayment({ amountCents: 100, device: { ...NEW_DEVICE, creditCents: -1 }, template: T })).toThrow(RangeError);
    expect(() => allocatePayment({ amountCents: 100, device: NEW_DEVICE, template: { ...T, dailyPriceCents: 0 } })).toThrow(RangeError);
    expect(() => allocatePayment({ amountCents: 100, device: NEW_DEVICE, template: { ...T, maxDaysPerToken: 0 } })).toThrow(RangeError);
  });
});

describe('allocatePayment: properties', () => {
  const template = fc.record({
    depositCents: fc.integer({ min: 0, max: 500_000 }),
    activationPriceCents: fc.integer({ min: 0, max: 500_000 }),
    dailyPriceCents: fc.integer({ min: 1, max: 50_000 }),
    gracePeriodDays: fc.integer({ min: 0, max: 30 }),
    freeCodePriceCents: fc.option(fc.integer({ min: 0, max: 10_000_000 })),
    maxDaysPerToken: fc.option(fc.integer({ min: 1, max: 995 }), { nil: undefined }),
  });
  const device = fc.record({
    creditCents: fc.integer({ min: 0, max: 1_000_000 }),
    totalPaidCents: fc.integer({ min: 0, max: 10_000_000 }),
    activated: fc.boolean(),
    priceCents: fc.option(fc.integer({ min: 0, max: 10_000_000 })),
  });
  const amount = fc.integer({ min: 1, max: 20_000_000 });

  it('no money is lost: credit + payment = days bought x daily price + upfront (if activating) + new credit', () => {
    fc.assert(
      fc.property(amount, device, template, (amountCents, d, t) => {
        const r = allocatePayment({ amountCents, device: d, template: t });
        expect(r.newTotalPaidCents).toBe(d.totalPaidCents + amountCents);
        if (r.reason === 'paid_off') {
          expect(r.newCreditCents).toBe(0);
          expect(r.tokens).toEqual([{ type: 'unlock', days: 0 }]);
          return;
        }
        const upfront = r.reason === 'activated' ? t.depositCents + t.activationPriceCents : 0;
        expect(d.creditCents + amountCents).toBe(r.daysBought * t.dailyPriceCents + upfront + r.newCreditCents);
        expect(r.newCreditCents).toBeGreaterThanOrEqual(0);
        const capped = r.daysBought === MAX_TOKENS_PER_PAYMENT * (t.maxDaysPerToken ?? 995);
        if (r.reason !== 'below_activation' && !capped) expect(r.newCreditCents).toBeLessThan(t.dailyPriceCents);
      }),
      { numRuns: 2000 },
    );
  });

  it('tokens respect the per-token maximum and carry exactly the days bought plus grace', () => {
    fc.assert(
      fc.property(amount, device, template, (amountCents, d, t) => {
        const r = allocatePayment({ amountCents, device: d, template: t });
        const max = t.maxDaysPerToken ?? 995;
        for (const tok of r.tokens) expect(tok.days).toBeLessThanOrEqual(max);
        if (r.reason !== 'paid_off') {
          expect(r.tokens.reduce((s, tok) => s + tok.days, 0)).toBe(r.daysBought + r.graceDays);
        }
        expect(r.tokens.filter((tok) => tok.type === 'activation').length).toBe(r.reason === 'activated' ? 1 : 0);
        if (r.reason === 'activated') expect(r.tokens[0]!.type).toBe('activation');
        expect(r.paidOff).toBe(r.reason === 'paid_off');
        if (r.remainingToPayOffCents !== null) expect(r.remainingToPayOffCents).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('README and tests stay together', () => {
  it('every README worked example has a test above with the same number', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## Payment rules'));
    expect(section.length).toBeLessThan(readme.length);
    const examples = [...section.matchAll(/\*\*Example (\d+):/g)].map((m) => Number(m[1]));
    expect(examples.length).toBeGreaterThanOrEqual(5);
    const self = readFileSync(new URL(import.meta.url), 'utf8');
    for (const n of examples) expect(self).toContain(`it('Example ${n}:`);
  });
});
