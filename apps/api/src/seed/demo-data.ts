import type { ModuleRef } from '@nestjs/core';
import {
  ZStockLocationInputSchema,
  ZStockMoveSchema,
  ZCustomerInputSchema,
  ZItemInputSchema,
  ZItemDiscountSchema,
  ZCommissionPayoutInputSchema,
  ZUssdRequestSchema,
  ZManualPaymentSchema,
  ZOnboardingSchema,
  ZTemplateInputSchema,
  ZCreateInvoiceSchema,
  ZContactInputSchema,
  ZTicketInputSchema,
  ZTicketUpdateSchema,
  ZWarrantySettingsInputSchema,
  ZCashHandoverInputSchema,
} from '@kidogo/contracts';
import type { AuthUser } from '../common/tenancy.js';
import { DatabaseService } from '../database/database.service.js';
import { CustomersService } from '../customers/customers.service.js';
import { ItemsService } from '../items/items.service.js';
import { TemplatesService } from '../templates/templates.service.js';
import { OnboardingService } from '../onboarding/onboarding.service.js';
import { PaymentsService } from '../payments/payments.service.js';
import { ReceiverService } from '../receiver/receiver.service.js';
import { OemConfigService } from '../oem-config/oem-config.service.js';
import { NotificationsService } from '../notifications/notifications.service.js';
import { InvoicesService } from '../invoices/invoices.service.js';
import { TokensService } from '../tokens/tokens.service.js';
import { CollectionsService } from '../collections/collections.service.js';
import { TicketsService } from '../tickets/tickets.service.js';
import { DiscountService } from '../items/discount.service.js';
import { CommissionPayoutsService } from '../reports/commission-payouts.service.js';
import { StockService } from '../stock/stock.service.js';
import { WarrantiesService } from '../warranties/warranties.service.js';
import { CashService } from '../cash/cash.service.js';
import { NoticeSweepService } from '../notifications/notice-sweep.service.js';
import { Calendar } from '../common/calendar.js';
import { isoDayOf } from '../metrics/period.js';
import { UssdService } from '../ussd/ussd.service.js';

const CUSTOMERS: Array<[string, string, string, string, string]> = [
  // name, id number, phone, county, occupation
  ['Amina Wanjiru', '28114501', '0712345601', 'Nairobi', 'Trader'],
  ['Baraka Otieno', '30221877', '0722345602', 'Kisumu', 'Fisher'],
  ['Chebet Kiprop', '27551093', '0733345603', 'Uasin Gishu', 'Farmer'],
  ['Daudi Mwangi', '31800244', '0710345604', 'Nyeri', 'Teacher'],
  ['Eshe Mohamed', '29904415', '0720345605', 'Mombasa', 'Tailor'],
  ['Faraji Odhiambo', '32118860', '0711345606', 'Siaya', 'Boda boda rider'],
  ['Gathoni Kariuki', '26407731', '0721345607', 'Kiambu', 'Nurse'],
  ['Hamisi Barasa', '33019952', '0713345608', 'Kakamega', 'Mechanic'],
  ['Imani Achieng', '30550018', '0723345609', 'Homa Bay', 'Shopkeeper'],
  ['Jabari Kilonzo', '28877204', '0714345610', 'Machakos', 'Farmer'],
  ['Kamau Njoroge', '27130456', '0724345611', 'Nakuru', 'Driver'],
  ['Lulu Auma', '31402279', '0715345612', 'Migori', 'Hairdresser'],
  ['Makena Mutua', '29776140', '0725345613', 'Meru', 'Farmer'],
  ['Njeri Maina', '32650391', '0716345614', "Murang'a", 'Student'],
  ['Omondi Wekesa', '28003587', '0726345615', 'Bungoma', 'Carpenter'],
  ['Pendo Chausiku', '30918826', '0717345616', 'Kilifi', 'Trader'],
  ['Rehema Nafula', '27648813', '0727345617', 'Busia', 'Farmer'],
  ['Sefu Langat', '33170054', '0718345618', 'Kericho', 'Tea picker'],
];

const DEVICES: Array<[string, string, string, string, number, string]> = [
  // serial, product, manufacturer, oem, price, type
  ['SHS-1001', 'Solar Home System 50W', 'SunCo', 'sunco', 18000, 'solar'],
  ['SHS-1002', 'Solar Home System 50W', 'SunCo', 'sunco', 18000, 'solar'],
  ['SHS-1003', 'Solar Home System 50W', 'SunCo', 'sunco', 18000, 'solar'],
  ['SHS-1004', 'Solar Home System 80W + TV', 'SunCo', 'sunco', 36000, 'solar'],
  ['SHS-1005', 'Solar Home System 80W + TV', 'SunCo', 'sunco', 36000, 'solar'],
  ['LMP-2001', 'Solar Lamp Pro', 'Lumina', 'lumina', 3500, 'lamp'],
  ['LMP-2002', 'Solar Lamp Pro', 'Lumina', 'lumina', 3500, 'lamp'],
  ['LMP-2003', 'Solar Lamp Pro', 'Lumina', 'lumina', 3500, 'lamp'],
  ['PHN-3001', 'Smartphone A10', 'Voltaic', 'voltaic', 9000, 'phone'],
  ['PHN-3002', 'Smartphone A10', 'Voltaic', 'voltaic', 9000, 'phone'],
  ['PHN-3003', 'Smartphone A10', 'Voltaic', 'voltaic', 9000, 'phone'],
  ['EBK-4001', 'E-Bike Lite', 'Ampere', 'ampere', 120000, 'e-bike'],
  ['SHS-1006', 'Solar Home System 50W', 'SunCo', 'sunco', 18000, 'solar'],
  ['SHS-1007', 'Solar Home System 50W', 'SunCo', 'sunco', 18000, 'solar'],
  ['LMP-2004', 'Solar Lamp Pro', 'Lumina', 'lumina', 3500, 'lamp'],
];

const DAY = 86_400_000;

/**
 * Fills the demo organization through the application's own services, so
 * what a new user sees (tokens, balances, messages) is exactly what the
 * product computes: templates, customers, devices on plans, payments by cash
 * and by M-Pesa message (one unmatched, one unreadable), a notification and
 * an invoice from the platform.
 */
export async function populateDemo(moduleRef: ModuleRef, orgId: string, owner: AuthUser, superAdmin: AuthUser, technician: AuthUser): Promise<void> {
  const get = <T>(cls: new (...args: never[]) => T): T => moduleRef.get(cls, { strict: false });
  const customers = get(CustomersService);
  const items = get(ItemsService);
  const templates = get(TemplatesService);
  const onboarding = get(OnboardingService);
  const payments = get(PaymentsService);
  const receiver = get(ReceiverService);

  // Lumina lamps have a keypad with the keys 1 to 4 only.
  await get(OemConfigService).upsert(orgId, owner, { product_oem: 'lumina', restricted_digit_set: true, extended_token: false, value_divider: 1 });

  const plans = {
    home: await templates.create(
      orgId,
      ZTemplateInputSchema.parse({
        template_name: 'Solar Home 50W - Daily',
        description: 'Deposit, then KES 50 a day until KES 18,000 is paid',
        deposit_made: 1000,
        daily_price: 50,
        activation_price: 500,
        grace_period_days: 3,
        currency: 'KES',
        payment_method: 'mobile_money',
        frequency: 'daily',
        free_code_price: 18000,
      }),
      owner,
    ),
    tv: await templates.create(
      orgId,
      ZTemplateInputSchema.parse({
        template_name: 'Solar Home 80W + TV - Daily',
        deposit_made: 2500,
        daily_price: 90,
        activation_price: 500,
        grace_period_days: 2,
        currency: 'KES',
        payment_method: 'mobile_money',
        frequency: 'daily',
        free_code_price: 36000,
      }),
      owner,
    ),
    lamp: await templates.create(
      orgId,
      ZTemplateInputSchema.parse({
        template_name: 'Lamp Lite - Daily',
        deposit_made: 300,
        daily_price: 15,
        activation_price: 0,
        grace_period_days: 1,
        currency: 'KES',
        payment_method: 'mobile_money',
        frequency: 'daily',
        free_code_price: 3500,
      }),
      owner,
    ),
    phone: await templates.create(
      orgId,
      ZTemplateInputSchema.parse({
        template_name: 'Smartphone - Weekly',
        deposit_made: 1500,
        daily_price: 30,
        currency: 'KES',
        payment_method: 'mobile_money',
        frequency: 'weekly',
        free_code_price: 9000,
      }),
      owner,
    ),
  };

  const people = [];
  for (const [i, [name, id, phone, county, occupation]] of CUSTOMERS.entries()) {
    people.push(
      await customers.register(
        orgId,
        ZCustomerInputSchema.parse({
          customer_name: name,
          id_number: id,
          phone_contact: phone,
          email: i % 3 === 0 ? `${name.split(' ')[0].toLowerCase()}@example.co.ke` : '',
          country: 'Kenya',
          gender: i % 2 === 0 ? 'Female' : 'Male',
          county,
          occupation,
          preferred_language: i % 4 === 1 ? 'Swahili' : 'English',
          // Three field agents signed most of them up; a few came in at the shop (no agent): the Agent report.
          agent_id: i % 5 === 4 ? '' : `AGT-00${(i % 3) + 1}`,
          status: i === 16 ? 'inactive' : 'active',
        }),
        owner,
      ),
    );
  }

  // Two stock locations: the solar systems and the e-bike come in at the warehouse, lamps and phones at the shop.
  const stock = get(StockService);
  const warehouse = (await stock.create(orgId, owner, ZStockLocationInputSchema.parse({ name: 'Nairobi Warehouse', description: 'Main store, Industrial Area' }))).location;
  await stock.create(orgId, owner, ZStockLocationInputSchema.parse({ name: 'Kisumu Shop', description: 'Oginga Odinga Street' }));
  for (const [serial, product, manufacturer, oem, price, type] of DEVICES) {
    const location = type === 'lamp' || type === 'phone' ? 'Kisumu Shop' : warehouse.name;
    await items.add(
      orgId,
      ZItemInputSchema.parse({ serial_number: serial, product_name: product, manufacturer, product_oem: oem, price, product_type: type, model: 'v2', location }),
    );
  }

  // Eleven customers take a device on a plan, one of them two devices on two plans; the rest are prospects.
  const onboard: Array<[number, string, number]> = [
    [0, 'SHS-1001', plans.home.template_id],
    [1, 'SHS-1002', plans.home.template_id],
    [2, 'SHS-1003', plans.home.template_id],
    [3, 'SHS-1004', plans.tv.template_id],
    [4, 'SHS-1005', plans.tv.template_id],
    [5, 'LMP-2001', plans.lamp.template_id],
    [6, 'LMP-2002', plans.lamp.template_id],
    [7, 'LMP-2003', plans.lamp.template_id],
    [8, 'PHN-3001', plans.phone.template_id],
    [9, 'PHN-3002', plans.phone.template_id],
    [10, 'SHS-1006', plans.home.template_id],
    // Amina, on the solar home plan, also takes a phone: on the weekly phone plan, the phone's own (plans per device).
    [0, 'PHN-3003', plans.phone.template_id],
  ];
  for (const [who, serial, template] of onboard) {
    await onboarding.onboard(orgId, ZOnboardingSchema.parse({ customer_id: people[who].customer_id, item_serial_number: serial, template_id: template }), owner);
  }
  // The makers' warranties: two years on the solar systems, a year on lamps and phones, six months on the e-bike.
  await get(WarrantiesService).update(
    orgId,
    owner,
    ZWarrantySettingsInputSchema.parse({
      warranties: [
        { product_name: 'Solar Home System 50W', months: 24 },
        { product_name: 'Solar Home System 80W + TV', months: 24 },
        { product_name: 'Solar Lamp Pro', months: 12 },
        { product_name: 'Smartphone A10', months: 12 },
        { product_name: 'E-Bike Lite', months: 6 },
      ],
    }),
  );
  // A solar system sent on to the shop, where the next customers come in.
  const shop = (await stock.list(orgId)).data.find((l) => l.name === 'Kisumu Shop')!;
  await stock.move(orgId, owner, ZStockMoveSchema.parse({ serial_numbers: ['SHS-1007'], location_id: shop.location_id, note: 'For the market day' }));

  // The demo's customers joined two months ago: their plans and devices date from then.
  const now = Date.now();
  const joined = new Date(now - 60 * DAY);
  const db = moduleRef.get(DatabaseService, { strict: false }).db;
  await db.templateAssignment.updateMany({ where: { organization_id: orgId }, data: { assigned_at: joined, start_date: joined } });
  await db.itemAssignment.updateMany({ where: { organization_id: orgId }, data: { assigned_at: joined } });
  await db.item.updateMany({ where: { organization_id: orgId, is_assigned: true }, data: { assigned_at: joined } });
  // They registered before that, a few a day; the prospects came in over the last weeks.
  for (const [i, person] of people.entries()) {
    const daysAgo = i <= 10 ? 75 - i : Math.max(1, 40 - (i - 11) * 2);
    await db.customer.update({
      where: { organization_id_id: { organization_id: orgId, id: person.customer_id } },
      data: { created_at: new Date(now - daysAgo * DAY) },
    });
  }

  // Promises to pay that staff logged on earlier calls, before the payments below came in: PHN-3001's customer paid
  // on the day promised (kept), SHS-1002's two days after it (paid late), and SHS-1005's has not paid since (broken).
  const calendar = get(Calendar);
  for (const [serial, loggedDaysAgo, promisedDaysAgo, note] of [
    ['PHN-3001', 11, 9, 'Salary comes on Friday.'],
    ['SHS-1002', 13, 11, 'Waiting for a customer to pay for maize.'],
    ['SHS-1005', 6, 4, 'Will send it from the shop.'],
  ] as const) {
    const item = await db.item.findFirstOrThrow({ where: { organization_id: orgId, serial_number: serial }, select: { id: true, customer_id: true } });
    await db.collectionContact.create({
      data: {
        organization_id: orgId,
        item_id: item.id,
        customer_id: item.customer_id!,
        user_id: owner.user_id,
        outcome: 'promised_to_pay',
        note,
        promised_on: new Date(`${isoDayOf(calendar.dayOf(now - promisedDaysAgo * DAY))}T00:00:00Z`),
        created_at: new Date(now - loggedDaysAgo * DAY),
      },
    });
  }

  // Cash deposits collected in the field by the technician (who holds the cash until he hands it over), then daily payments.
  let receipt = 0;
  const pay = (serial: string, amount: number, daysAgo: number, method: 'cash' | 'mobile_money' = 'mobile_money') =>
    payments.createManual(
      orgId,
      method === 'cash' ? technician : owner,
      ZManualPaymentSchema.parse({
        serial_number: serial,
        amount,
        payment_method: method,
        reference: `DEMO${String(++receipt).padStart(5, '0')}`,
        paid_at: new Date(now - daysAgo * DAY).toISOString(),
      }),
    );
  const history: Array<[string, number[]]> = [
    ['SHS-1001', [1500, 700, 350, 500, 300]],
    ['SHS-1002', [1500, 1000, 500]],
    ['SHS-1003', [1000, 200]],
    ['SHS-1004', [3000, 900, 450]],
    ['SHS-1005', [3500]],
    ['LMP-2001', [300, 150, 90, 3000]],
    ['LMP-2002', [450, 60]],
    ['LMP-2003', [300]],
    ['PHN-3001', [1500, 210, 210]],
    ['PHN-3002', [2000]],
    ['PHN-3003', [1500, 600]],
  ];
  for (const [serial, amounts] of history) {
    for (const [k, amount] of amounts.entries()) {
      await pay(serial, amount, (amounts.length - k) * 9, k === 0 ? 'cash' : 'mobile_money');
    }
  }
  // He handed the owner the deposits of a month and more ago, then those up to two weeks ago; the last ones he still holds.
  const cash = get(CashService);
  const deposits = history.map(([, amounts]) => ({ amount: amounts[0]!, daysAgo: amounts.length * 9 }));
  for (const [daysAgo, paidBefore, reference] of [
    [30, Infinity, 'Bank deposit slip 0041127'],
    [14, 30, 'Counted at the shop'],
  ] as const) {
    // The deposits paid more than daysAgo days ago and not handed over before.
    const amount = deposits.filter((d) => d.daysAgo > daysAgo && d.daysAgo <= paidBefore).reduce((sum, d) => sum + d.amount, 0);
    await cash.handover(
      orgId,
      owner,
      ZCashHandoverInputSchema.parse({ collector: technician.username, amount, handed_at: new Date(now - daysAgo * DAY).toISOString(), reference }),
    );
  }

  // M-Pesa confirmations as the SMS forwarder delivers them: sent yesterday morning, forwarded a minute later.
  const sent = now - DAY - ((now - DAY) % DAY) + 6 * 3_600_000 + 41 * 60_000; // 06:41 UTC, 9:41 AM in Nairobi
  const sms = (code: string, amount: string, account: string, name: string, phone: string) =>
    receiver.receive(orgId, {
      message: `${code} Confirmed. Ksh${amount} received from ${name} ${phone} on ${ddmmyy(sent)} at 9:41 AM. Account Number ${account}. New Utility balance is Ksh152,300.00.`,
      from: 'MPESA',
      received_at: new Date(sent + 60_000).toISOString(),
    });
  await sms('SKD1A2B3C4', '1,500.00', 'SHS-1006', 'KAMAU NJOROGE', '254724345611');
  await sms('SKD5E6F7G8', '300.00', 'SHS 1001', 'AMINA WANJIRU', '254712345601');
  await sms('SKD9H0J1K2', '250.00', 'XYZ-999', 'PETER MUTUA', '254799000111'); // no such device: unmatched
  await receiver.receive(orgId, { message: 'Your M-PESA balance is Ksh2,310.00. Thank you for using M-PESA.', from: 'MPESA' }); // not a payment

  // The tokens those payments bought were issued when they were paid, and each device's time runs from then.
  await db.$executeRaw`
    UPDATE token_logs t SET created_at = p.paid_at
    FROM payments p
    WHERE t.organization_id = ${orgId} AND p.organization_id = ${orgId} AND p.payment_id = t.payment_id`;
  const issued = await db.tokenLog.findMany({
    where: { organization_id: orgId, token_type: { in: ['activation', 'add_time'] } },
    orderBy: [{ created_at: 'asc' }, { token_count: 'asc' }],
    select: { item_id: true, created_at: true, days_generated: true },
  });
  const until = new Map<number, number>();
  for (const t of issued) {
    const from = Math.max(until.get(t.item_id) ?? 0, t.created_at.getTime());
    until.set(t.item_id, from + Number(t.days_generated) * DAY);
  }
  for (const [item, ms] of until) {
    await db.item.update({ where: { organization_id_id: { organization_id: orgId, id: item } }, data: { credit_until: new Date(ms) } });
  }

  // A support case: SHS-1004's clock was reset in a repair, so staff sent a set-time token for the days it had left.
  // The device refuses its older tokens from then on: the dashboard counts them as expired.
  const repaired = await db.item.findFirstOrThrow({ where: { organization_id: orgId, serial_number: 'SHS-1004' }, select: { credit_until: true } });
  const daysLeft = Math.min(995, Math.max(1, Math.ceil(((repaired.credit_until?.getTime() ?? now) - now) / DAY)));
  await get(TokensService).generate(orgId, owner, { serial_number: 'SHS-1004', type: 'set_time', value: daysLeft });

  // Collections: the calls staff made today about two devices out of credit, one of them a promise to pay in three days.
  const today = calendar.today();
  for (const [serial, contact] of [
    ['SHS-1003', { outcome: 'no_answer', note: 'Phone off; try again in the evening.' }],
    ['LMP-2003', { outcome: 'promised_to_pay', note: 'Will pay after market day.', promised_on: isoDayOf(today + 3) }],
  ] as const) {
    const item = await db.item.findFirstOrThrow({ where: { organization_id: orgId, serial_number: serial }, select: { id: true } });
    await get(CollectionsService).addContact(orgId, item.id, ZContactInputSchema.parse(contact), owner);
  }

  // A discount (README "Discounts"): LMP-2002's lamp sat in the shop for two weeks with a faulty panel, so its customer
  // was given KES 500 off what is left to pay.
  await get(DiscountService).give(
    orgId,
    owner,
    ZItemDiscountSchema.parse({ item_serial_number: 'LMP-2002', amount: 500, reason: 'Goodwill: the lamp was two weeks in the shop with a faulty panel' }),
  );

  // Agent commissions (README "Agent commissions"): last month's are being paid out; the agent who earned the most
  // was paid by M-Pesa, the others are still owed.
  const [year, monthOfYear] = isoDayOf(today).split('-').map(Number) as [number, number];
  const lastMonth = monthOfYear === 1 ? `${year - 1}-12` : `${year}-${String(monthOfYear - 1).padStart(2, '0')}`;
  const commissions = get(CommissionPayoutsService);
  const [topAgent] = (await commissions.month(orgId, lastMonth)).data.filter((a) => a.status === 'unpaid');
  if (topAgent) {
    await commissions.pay(
      orgId,
      owner,
      ZCommissionPayoutInputSchema.parse({ agent: topAgent.agent, month: lastMonth, reference: 'SKC4D5E6F7', note: 'Sent by M-Pesa to the agent’s phone' }),
    );
  }

  // The customers' USSD menu is on (Settings → USSD Menu), and Amina has dialled it for her balance, as Africa's
  // Talking posts a session's steps.
  const ussd = get(UssdService);
  const menu = await ussd.update(orgId, owner, true);
  const ussdKey = menu.data.callback_url!.slice(menu.data.callback_url!.lastIndexOf('/') + 1);
  for (const text of ['', '1']) {
    await ussd.answer(ussdKey, ZUssdRequestSchema.parse({ sessionId: 'ATUid_demo_0001', serviceCode: '*384*123#', phoneNumber: '+254712345601', networkCode: '63902', text }));
  }

  // Service tickets: the repair behind SHS-1004's set-time token (resolved), a lamp that does not charge (being looked at)
  // and a code a customer could not enter (just reported).
  const tickets = get(TicketsService);
  const repair = await tickets.open(
    orgId,
    ZTicketInputSchema.parse({ serial_number: 'SHS-1004', category: 'device_fault', description: 'Battery does not hold a charge past 9 pm.' }),
    owner,
  );
  await tickets.update(
    orgId,
    repair.data.ticket_id,
    ZTicketUpdateSchema.parse({ status: 'resolved', resolution: 'Replaced the battery in the shop; the clock was reset, so a set-time code was sent.' }),
    owner,
  );
  const charging = await tickets.open(
    orgId,
    ZTicketInputSchema.parse({ serial_number: 'LMP-2001', category: 'device_fault', description: 'The lamp stopped charging from the panel.' }),
    owner,
  );
  await tickets.update(orgId, charging.data.ticket_id, ZTicketUpdateSchema.parse({ status: 'in_progress', assigned_to: technician.user_id }), owner);
  // The technician takes the call about the code and hands it to the owner: the owner's bell shows it, unread.
  await tickets.open(
    orgId,
    ZTicketInputSchema.parse({
      serial_number: 'PHN-3002',
      category: 'token_problem',
      description: 'Customer says the last code was refused by the phone.',
      assigned_to: owner.user_id,
    }),
    technician,
  );

  // A bulk SMS the owner sent three days ago to every customer with a device (Bulk SMS): the demo has no SMS provider,
  // so its texts are recorded as the provider's confirmations would have left them, one per phone number.
  const announced = new Date(now - 3 * DAY);
  const announcement = 'Habari {name}! Our new Nakuru shop opens on Monday on Kenyatta Avenue: bring your panel for a free check. Karibu!';
  await db.$executeRaw`
    WITH r AS (
      SELECT DISTINCT ON (c.phone_normalized) c.phone_normalized AS phone,
             replace(${announcement}::text, '{name}', split_part(btrim(c.customer_name), ' ', 1)) AS text
      FROM customers c
      WHERE c.organization_id = ${orgId} AND c.phone_normalized IS NOT NULL AND c.sms_opted_out_at IS NULL
        AND EXISTS (SELECT 1 FROM items i WHERE i.organization_id = ${orgId} AND i.customer_id = c.customer_id)
      ORDER BY c.phone_normalized, c.customer_id
    ), c AS (
      INSERT INTO sms_campaigns (organization_id, text, audience, audience_text, send_at, created_at, created_by, recipients, parts)
      SELECT ${orgId}, ${announcement}, '{"customers":"with_device"}'::jsonb, 'Customers with a device', ${announced}, ${announced},
             ${owner.username}, count(*)::int, count(*)::int
      FROM r
      RETURNING campaign_id
    ), m AS (
      INSERT INTO messages (organization_id, forwarded_message, recipient_number, delivery_status, status, sent_by, campaign_id,
                            delivery_attempts, sent_at, received_at, created_at)
      SELECT ${orgId}, r.text, r.phone, 'sent'::"DeliveryStatus", 'processed'::"MessageStatus", ${owner.username}, c.campaign_id,
             1, ${announced}::timestamptz + interval '1 minute', ${announced}, ${announced}
      FROM r, c
      RETURNING 1
    )
    INSERT INTO audit_logs (organization_id, actor_user_id, actor_username, action, entity_type, entity_id, description, metadata, created_at)
    SELECT ${orgId}, ${owner.user_id}::int, ${owner.username}, 'sms_campaign.sent', 'sms_campaign', c.campaign_id::text,
           'Bulk SMS to customers with a device by ' || ${owner.username}::text || ': ' || ${announcement}::text,
           jsonb_build_object('campaign_id', c.campaign_id, 'text', ${announcement}::text, 'queued', (SELECT count(*) FROM m)), ${announced}
    FROM c`;

  // The owner's notifications: besides the ticket above, the payment held for matching (XYZ-999).
  await get(NoticeSweepService).sweep();
  await get(NotificationsService).notify(superAdmin, orgId, {
    message: 'Welcome to Kidogo! This demo organization has customers, devices, payments and tokens to explore.',
    level: 'info',
  });
  await get(InvoicesService).create(
    superAdmin,
    orgId,
    ZCreateInvoiceSchema.parse({
      organization_id: orgId,
      due_date: new Date(now + 14 * DAY).toISOString().slice(0, 10),
      description: 'Kidogo platform subscription',
      line_items: [
        { description: 'Platform subscription (monthly)', quantity: 1, unit_price: 49 },
        { description: 'Active devices', quantity: 11, unit_price: 0.5 },
      ],
    }),
  );
}

function ddmmyy(ms: number): string {
  const d = new Date(ms + 3 * 3_600_000); // East Africa Time
  return `${d.getUTCDate()}/${d.getUTCMonth() + 1}/${String(d.getUTCFullYear()).slice(2)}`;
}
