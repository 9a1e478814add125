/**
 * The payment rule: what one payment buys on one device. Plain-words version
 * and worked examples: README.md, "Payment rules". Every amount is in integer
 * cents.
 */

export const DEFAULT_MAX_DAYS_PER_TOKEN = 995;

/**
 * Safety cap: one payment buys at most this many full tokens' worth of days
 * (100 x 995 days is over 270 years). Money beyond the cap stays as credit, so
 * a misconfigured price (1 cent a day) cannot make us generate millions of tokens.
 */
export const MAX_TOKENS_PER_PAYMENT = 100;

export type TokenType = 'activation' | 'add_time' | 'unlock';

export interface AllocationDevice {
  /** Money carried on the device, not yet turned into days (cents). */
  creditCents: number;
  /** Everything paid on this device before this payment (cents). */
  totalPaidCents: number;
  /** An activation token was already issued. */
  activated: boolean;
  /** The device's own cash price, used as the payoff price when the template has no free-code price. */
  priceCents: number | null;
}

export interface AllocationTemplate {
  depositCents: number;
  activationPriceCents: number;
  /** Price of one day of use; must be > 0. */
  dailyPriceCents: number;
  /** Free days given once, with the activation token. */
  gracePeriodDays: number;
  /** Total paid at which the device is unlocked forever; null: use the device price. */
  freeCodePriceCents: number | null;
  /** Most days one token may carry (OpenPAYGo tokens: 995). */
  maxDaysPerToken?: number;
}

export interface AllocationInput {
  amountCents: number;
  device: AllocationDevice;
  template: AllocationTemplate | null;
}

export type AllocationReason =
  | 'no_template'
  | 'below_activation'
  | 'below_daily_price'
  | 'activated'
  | 'days_added'
  | 'paid_off';

export interface AllocationToken {
  type: TokenType;
  days: number;
}

export interface Allocation {
  tokens: AllocationToken[];
  /** Days paid for with money by this payment (the grace period is not counted). */
  daysBought: number;
  /** Grace days given by this payment (only with the activation token). */
  graceDays: number;
  newCreditCents: number;
  newTotalPaidCents: number;
  paidOff: boolean;
  /** Still needed before the device can be activated; 0 once activated (or without a template). */
  remainingToActivateCents: number;
  /** Still needed to reach the payoff price; null when there is no payoff price. */
  remainingToPayOffCents: number | null;
  /** Paid beyond the payoff price by the payment that unlocked the device; 0 otherwise. */
  overpaidCents: number;
  reason: AllocationReason;
}

function check(name: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`${name} must be an integer >= ${min} (got ${value})`);
  }
}

/** Split a number of days into tokens of at most `max` days each. */
export function splitDays(days: number, max: number, type: 'add_time'): AllocationToken[] {
  const out: AllocationToken[] = [];
  for (let left = days; left > 0; left -= max) out.push({ type, days: Math.min(max, left) });
  return out;
}

/**
 * Apply one payment to a device. Pure; throws RangeError only for impossible
 * inputs (negative or fractional cents, a zero daily price, a zero payment).
 */
export function allocatePayment(input: AllocationInput): Allocation {
  const { amountCents, device, template } = input;
  check('amountCents', amountCents, 1);
  check('device.creditCents', device.creditCents, 0);
  check('device.totalPaidCents', device.totalPaidCents, 0);
  if (device.priceCents !== null) check('device.priceCents', device.priceCents, 0);

  // Rule 1
  const newTotalPaidCents = device.totalPaidCents + amountCents;
  const payoffCents = template === null ? device.priceCents : (template.freeCodePriceCents ?? device.priceCents);
  const remainingToPayOff = (): number | null =>
    payoffCents === null ? null : Math.max(0, payoffCents - newTotalPaidCents);

  // Rule 2: no template, no token; the money waits as credit.
  if (template === null) {
    return {
      tokens: [],
      daysBought: 0,
      graceDays: 0,
      newCreditCents: device.creditCents + amountCents,
      newTotalPaidCents,
      paidOff: false,
      remainingToActivateCents: 0,
      remainingToPayOffCents: remainingToPayOff(),
      overpaidCents: 0,
      reason: 'no_template',
    };
  }

  check('template.depositCents', template.depositCents, 0);
  check('template.activationPriceCents', template.activationPriceCents, 0);
  check('template.dailyPriceCents', template.dailyPriceCents, 1);
  check('template.gracePeriodDays', template.gracePeriodDays, 0);
  if (template.freeCodePriceCents !== null) check('template.freeCodePriceCents', template.freeCodePriceCents, 0);
  const maxDays = template.maxDaysPerToken ?? DEFAULT_MAX_DAYS_PER_TOKEN;
  check('template.maxDaysPerToken', maxDays, 1);

  // Rule 3: reaching the payoff price unlocks the device, before anything else.
  if (payoffCents !== null && newTotalPaidCents >= payoffCents) {
    return {
      tokens: [{ type: 'unlock', days: 0 }],
      daysBought: 0,
      graceDays: 0,
      newCreditCents: 0,
      newTotalPaidCents,
      paidOff: true,
      remainingToActivateCents: 0,
      remainingToPayOffCents: 0,
      overpaidCents: newTotalPaidCents - payoffCents,
      reason: 'paid_off',
    };
  }

  const pool = device.creditCents + amountCents;
  const daily = template.dailyPriceCents;

  // Rule 4: before activation all money is held as credit until it covers deposit + activation price.
  if (!device.activated) {
    const upfront = template.depositCents + template.activationPriceCents;
    if (pool < upfront) {
      return {
        tokens: [],
        daysBought: 0,
        graceDays: 0,
        newCreditCents: pool,
        newTotalPaidCents,
        paidOff: false,
        remainingToActivateCents: upfront - pool,
        remainingToPayOffCents: remainingToPayOff(),
        overpaidCents: 0,
        reason: 'below_activation',
      };
    }
    const beyond = pool - upfront;
    const days = Math.min(Math.floor(beyond / daily), MAX_TOKENS_PER_PAYMENT * maxDays);
    const grace = template.gracePeriodDays;
    const onActivation = Math.min(maxDays, days + grace);
    return {
      tokens: [{ type: 'activation', days: onActivation }, ...splitDays(days + grace - onActivation, maxDays, 'add_time')],
      daysBought: days,
      graceDays: grace,
      newCreditCents: beyond - days * daily,
      newTotalPaidCents,
      paidOff: false,
      remainingToActivateCents: 0,
      remainingToPayOffCents: remainingToPayOff(),
      overpaidCents: 0,
      reason: 'activated',
    };
  }

  // Rule 5: activated; credit + payment buys whole days, the rest is carried.
  const days = Math.min(Math.floor(pool / daily), MAX_TOKENS_PER_PAYMENT * maxDays);
  return {
    tokens: splitDays(days, maxDays, 'add_time'),
    daysBought: days,
    graceDays: 0,
    newCreditCents: pool - days * daily,
    newTotalPaidCents,
    paidOff: false,
    remainingToActivateCents: 0,
    remainingToPayOffCents: remainingToPayOff(),
    overpaidCents: 0,
    reason: days === 0 ? 'below_daily_price' : 'days_added',
  };
}
