/**
 * The SMS we send back after a payment. Plain ASCII (fits the GSM 7-bit
 * alphabet) and always shorter than MAX_REPLY_LENGTH characters (three SMS parts).
 */
import type { AllocationReason, TokenType } from './allocate.js';
import { formatCentsGrouped, parseAmountToCents } from './money.js';

export const MAX_REPLY_LENGTH = 480;

export interface ReplyToken {
  type: TokenType;
  days: number;
  /** The code as generated ("123456789"); shown in groups of three ("123 456 789"). */
  token: string;
}

/** The languages a reply can be written in: English, Kiswahili and French. */
export const REPLY_LANGUAGES = ['en', 'sw', 'fr'] as const;
export type ReplyLanguage = (typeof REPLY_LANGUAGES)[number];

/** A stored or asked-for language as one a reply can be written in; English for anything else. */
export function replyLanguage(value: unknown): ReplyLanguage {
  return (REPLY_LANGUAGES as readonly unknown[]).includes(value) ? (value as ReplyLanguage) : 'en';
}

export interface PaymentReplyInput {
  /** 'en' (the default), 'sw' (Kiswahili) or 'fr' (French). */
  language?: ReplyLanguage;
  /** Decimal string: "150.00". */
  amount: string;
  currency: string;
  serialNumber: string;
  tokens: ReplyToken[];
  /** Credit carried on the device after this payment, decimal string. */
  creditLeft: string;
  /** Still to pay before the device is paid off, decimal string; null when unknown. */
  remainingBalance: string | null;
  customerName?: string | null;
  reason: AllocationReason;
  /** For reason below_activation: how much more is needed to activate, decimal string. */
  remainingToActivate?: string | null;
}

/** "123456789" -> "123 456 789"; existing spaces are ignored. */
export function groupToken(token: string): string {
  const compact = token.replace(/\s+/g, '');
  return (compact.match(/.{1,3}/g) ?? []).join(' ');
}

function money(currency: string, amount: string): string {
  const cents = parseAmountToCents(amount);
  return `${currency} ${cents === null ? amount.trim() : formatCentsGrouped(cents)}`;
}

function isPositive(amount: string | null | undefined): amount is string {
  if (amount === null || amount === undefined) return false;
  const cents = parseAmountToCents(amount);
  return cents !== null && cents > 0;
}

/** Every sentence of a reply, per language; amounts come formatted ("KES 1,500.00"). */
interface Phrases {
  days(days: number): string;
  compactDays(days: number): string;
  received(amount: string, serial: string, firstName: string | null): string;
  moreCodes(hidden: number): string;
  enterInOrder: string;
  paidOff(code: string | null): string;
  activated(codes: string | null, many: boolean): string;
  daysAdded(codes: string, many: boolean): string;
  belowDailyPrice(credit: string): string;
  moreToActivate(amount: string): string;
  heldTowardActivation(credit: string): string;
  noTemplate: string;
  creditCarried(credit: string): string;
  balance(amount: string): string;
}

const ENGLISH: Phrases = {
  days: (d) => (d === 1 ? '1 day' : `${d} days`),
  compactDays: (d) => `${d}d`,
  received: (amount, serial, name) =>
    name ? `Kidogo: Hi ${name}, payment of ${amount} received for device ${serial}.` : `Kidogo: Payment of ${amount} received for device ${serial}.`,
  moreCodes: (n) => ` +${n} more codes: please call us.`,
  enterInOrder: 'enter in order:',
  paidOff: (code) => `Your device is now fully paid and unlocked forever.${code ? ` Code: ${code}.` : ''}`,
  activated: (codes, many) => (codes ? `Your device is activated. ${many ? 'Codes, ' : 'Code: '}${codes}` : 'Your device is activated.'),
  daysAdded: (codes, many) => `${many ? 'Tokens, ' : 'Token: '}${codes}`,
  belowDailyPrice: (credit) => `This is less than one day of use: ${credit} is held as credit for your next payment.`,
  moreToActivate: (amount) => `${amount} more is needed to activate your device.`,
  heldTowardActivation: (credit) => `${credit} is held toward activating your device.`,
  noTemplate: 'The amount is held as credit on your account until your payment plan is set up.',
  creditCarried: (credit) => `Credit carried: ${credit}.`,
  balance: (amount) => `Balance to pay off: ${amount}.`,
};

/** Kiswahili, as customers in Kenya, Tanzania and Uganda read it (ASCII only, like the English). */
const KISWAHILI: Phrases = {
  days: (d) => `siku ${d}`,
  compactDays: (d) => `siku${d}`,
  received: (amount, serial, name) =>
    name ? `Kidogo: Habari ${name}, malipo ya ${amount} yamepokelewa kwa kifaa ${serial}.` : `Kidogo: Malipo ya ${amount} yamepokelewa kwa kifaa ${serial}.`,
  moreCodes: (n) => ` +namba ${n} zaidi: tafadhali tupigie simu.`,
  enterInOrder: 'weka kwa mpangilio:',
  paidOff: (code) => `Kifaa chako kimelipiwa kikamilifu na kimefunguliwa milele.${code ? ` Namba: ${code}.` : ''}`,
  activated: (codes, many) => (codes ? `Kifaa chako kimewashwa. ${many ? 'Namba, ' : 'Namba: '}${codes}` : 'Kifaa chako kimewashwa.'),
  daysAdded: (codes, many) => `${many ? 'Tokeni, ' : 'Tokeni: '}${codes}`,
  belowDailyPrice: (credit) => `Kiasi hiki ni chini ya siku moja ya matumizi: ${credit} kimewekwa kama akiba kwa malipo yako yajayo.`,
  moreToActivate: (amount) => `Unahitaji ${amount} zaidi ili kuwasha kifaa chako.`,
  heldTowardActivation: (credit) => `${credit} kimewekwa kwa ajili ya kuwasha kifaa chako.`,
  noTemplate: 'Kiasi hiki kimewekwa kama akiba kwenye akaunti yako hadi mpango wako wa malipo utakapowekwa.',
  creditCarried: (credit) => `Akiba iliyobaki: ${credit}.`,
  balance: (amount) => `Deni lililobaki: ${amount}.`,
};

/**
 * French, as customers in DR Congo, Rwanda, Burundi and West Africa read it. ASCII
 * only, like the others (no accents: an accent outside the GSM alphabet would make
 * the text Unicode and halve what fits in an SMS), as French SMS are often written.
 */
const FRENCH: Phrases = {
  days: (d) => (d === 1 ? '1 jour' : `${d} jours`),
  compactDays: (d) => `${d}j`,
  received: (amount, serial, name) =>
    name
      ? `Kidogo: Bonjour ${name}, paiement de ${amount} recu pour l'appareil ${serial}.`
      : `Kidogo: Paiement de ${amount} recu pour l'appareil ${serial}.`,
  moreCodes: (n) => ` +${n} autres codes: appelez-nous.`,
  enterInOrder: 'a saisir dans l\'ordre:',
  paidOff: (code) => `Votre appareil est entierement paye et debloque pour toujours.${code ? ` Code: ${code}.` : ''}`,
  activated: (codes, many) => (codes ? `Votre appareil est active. ${many ? 'Codes, ' : 'Code: '}${codes}` : 'Votre appareil est active.'),
  daysAdded: (codes, many) => `${many ? 'Codes, ' : 'Code: '}${codes}`,
  belowDailyPrice: (credit) => `C'est moins d'un jour d'utilisation: ${credit} est garde en credit pour votre prochain paiement.`,
  moreToActivate: (amount) => `Il manque ${amount} pour activer votre appareil.`,
  heldTowardActivation: (credit) => `${credit} est garde pour activer votre appareil.`,
  noTemplate: 'Le montant est garde en credit sur votre compte jusqu\'a la mise en place de votre plan de paiement.',
  creditCarried: (credit) => `Credit reporte: ${credit}.`,
  balance: (amount) => `Reste a payer: ${amount}.`,
};

const PHRASES: Record<ReplyLanguage, Phrases> = { en: ENGLISH, sw: KISWAHILI, fr: FRENCH };

interface Level {
  greet: boolean;
  credit: boolean;
  compactTokens: boolean;
  /** How many tokens to list; the others are announced, not shown. */
  maxTokens: number;
}

function tokenText(t: ReplyToken, compact: boolean, say: Phrases): string {
  return `${groupToken(t.token)} (${compact ? say.compactDays(t.days) : say.days(t.days)})`;
}

function tokenList(tokens: ReplyToken[], level: Level, say: Phrases): string {
  const shown = tokens.slice(0, level.maxTokens);
  const hidden = tokens.length - shown.length;
  const more = hidden > 0 ? say.moreCodes(hidden) : '';
  if (shown.length === 1 && hidden === 0) return `${tokenText(shown[0]!, level.compactTokens, say)}.`;
  const items = shown.map((t, i) => `${i + 1}) ${tokenText(t, level.compactTokens, say)}`).join(level.compactTokens ? ' ' : ', ');
  return `${say.enterInOrder} ${items}.${more}`;
}

function build(input: PaymentReplyInput, level: Level): string {
  const say = PHRASES[replyLanguage(input.language)];
  const cur = input.currency.trim() || 'KES';
  const parts: string[] = [];
  const firstName = input.customerName?.trim().split(/\s+/)[0] ?? '';
  parts.push(say.received(money(cur, input.amount), input.serialNumber.trim(), level.greet && firstName !== '' ? firstName : null));

  const tokens = input.tokens;
  const many = tokens.length > 1;
  switch (input.reason) {
    case 'paid_off': {
      const unlock = tokens.find((t) => t.type === 'unlock') ?? tokens[0];
      parts.push(say.paidOff(unlock ? groupToken(unlock.token) : null));
      break;
    }
    case 'activated':
      parts.push(say.activated(tokens.length > 0 ? tokenList(tokens, level, say) : null, many));
      break;
    case 'days_added':
      if (tokens.length > 0) parts.push(say.daysAdded(tokenList(tokens, level, say), many));
      break;
    case 'below_daily_price':
      parts.push(say.belowDailyPrice(money(cur, input.creditLeft)));
      break;
    case 'below_activation':
      parts.push(
        isPositive(input.remainingToActivate) ? say.moreToActivate(money(cur, input.remainingToActivate)) : say.heldTowardActivation(money(cur, input.creditLeft)),
      );
      break;
    case 'no_template':
      parts.push(say.noTemplate);
      break;
  }

  if (level.credit && (input.reason === 'activated' || input.reason === 'days_added') && isPositive(input.creditLeft)) {
    parts.push(say.creditCarried(money(cur, input.creditLeft)));
  }
  if (input.reason !== 'paid_off' && input.remainingBalance !== null && isPositive(input.remainingBalance)) {
    parts.push(say.balance(money(cur, input.remainingBalance)));
  }
  return parts.join(' ');
}

/**
 * Compose the reply SMS. Pure. When everything does not fit in MAX_REPLY_LENGTH
 * characters, the greeting, then the carried credit, then long token labels are
 * dropped, and at last only as many codes as fit are listed (the message says
 * how many more there are).
 */
export function formatPaymentReply(input: PaymentReplyInput): string {
  const all = input.tokens.length;
  const levels: Level[] = [
    { greet: true, credit: true, compactTokens: false, maxTokens: all },
    { greet: false, credit: true, compactTokens: false, maxTokens: all },
    { greet: false, credit: false, compactTokens: false, maxTokens: all },
    { greet: false, credit: false, compactTokens: true, maxTokens: all },
  ];
  for (let n = all - 1; n >= 1; n--) levels.push({ greet: false, credit: false, compactTokens: true, maxTokens: n });
  for (const level of levels) {
    const text = build(input, level);
    if (text.length < MAX_REPLY_LENGTH) return text;
  }
  const last = build(input, levels[levels.length - 1]!);
  return last.length < MAX_REPLY_LENGTH ? last : `${last.slice(0, MAX_REPLY_LENGTH - 4)}...`;
}
