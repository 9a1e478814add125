import { expect } from '@jest/globals';
import { ZPaymentOutcomeSchema, type PaymentOutcome } from '@kidogo/contracts';
import type { SeededUser } from './factories.js';
import type { TestApp } from './test-app.js';

/** The README's plan: 1,500 upfront, 50 a day, 3 grace days, paid off at 20,000. */
export const README_PLAN = { deposit_made: '1000.00', activation_price: '500.00', daily_price: '50.00', grace_period_days: 3, free_code_price: '20000.00' };
/** A second plan: 2,000 upfront, 40 a day, 2 grace days, paid off at 15,000. */
export const SECOND_PLAN = { deposit_made: '1500.00', activation_price: '500.00', daily_price: '40.00', grace_period_days: 2, free_code_price: '15000.00' };

/** A cash payment recorded by staff (POST /payments), through the payment pipeline. */
export async function payCash(t: TestApp, user: SeededUser, serial: string, amount: string): Promise<PaymentOutcome> {
  const res = await t.http.post('/payg/payments').set(user.auth).send({ serial_number: serial, amount, payment_method: 'cash' });
  expect({ status: res.status, body: res.body }).toMatchObject({ status: 201 });
  return ZPaymentOutcomeSchema.parse(res.body);
}
