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

export interface PaymentReplyInput {
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

function plural(days: number): string {
  return days === 1 ? '1 day' : `${days} days`;
}

interface Level {
  greet: boolean;
  credit: boolean;
  compactTokens: boolean;
  /** How many tokens to list; the others are announced, not shown. */
  maxTokens: number;
}

function tokenText(t: ReplyToken, compact: boolean): string {
  return compact ? `${groupToken(t.token)} (${t.days}d)` : `${groupToken(t.token)} (${plural(t.days)})`;
}

function tokenList(tokens: ReplyToken[], level: Level): string {
  const shown = tokens.slice(0, level.maxTokens);
  const hidden = tokens.length - shown.length;
  const more = hidden > 0 ? ` +${hidden} more codes: please call us.` : '';
  if (shown.length === 1 && hidden === 0) return `${tokenText(shown[0]!, level.compactTokens)}.`;
  const items = shown.map((t, i) => `${i + 1}) ${tokenText(t, level.compactTokens)}`).join(level.compactTokens ? ' ' : ', ');
  return `enter in order: ${items}.${more}`;
}

function build(input: PaymentReplyInput, level: Level): string {
  const cur = input.currency.trim() || 'KES';
  const parts: string[] = [];
  const firstName = input.customerName?.trim().split(/\s+/)[0] ?? '';
  const paid = `ayment of ${money(cur, input.amount)} received for device ${input.serialNumber.trim()}.`;
  parts.push(level.greet && firstName !== '' ? `Kidogo: Hi ${firstName}, p${paid}` : `Kidogo: P${paid}`);

  const tokens = input.tokens;
  const many = tokens.length > 1;
  switch (input.reason) {
    case 'paid_off': {
      const unlock = tokens.find((t) => t.type === 'unlock') ?? tokens[0];
      parts.push(
        unlock
          ? `Your device is now fully paid and unlocked forever. Code: ${groupToken(unlock.token)}.`
          : 'Your device is now fully paid and unlocked forever.',
      );
      break;
    }
    case 'activated':
      if (tokens.length > 0) parts.push(`Your device is activated. ${many ? 'Codes, ' : 'Code: '}${tokenList(tokens, level)}`);
      else parts.push('Your device is activated.');
      break;
    case 'days_added':
      if (tokens.length > 0) parts.push(`${many ? 'Tokens, ' : 'Token: '}${tokenList(tokens, level)}`);
      break;
    case 'below_daily_price':
      parts.push(`This is less than one day of use: ${money(cur, input.creditLeft)} is held as credit for your next payment.`);
      break;
    case 'below_activation':
      parts.push(
        isPositive(input.remainingToActivate)
          ? `${money(cur, input.remainingToActivate)} more is needed to activate your device.`
          : `${money(cur, input.creditLeft)} is held toward activating your device.`,
      );
      break;
    case 'no_template':
      parts.push(`The amount is held as credit on your account until your payment plan is set up.`);
      break;
  }

  if (level.credit && (input.reason === 'activated' || input.reason === 'days_added') && isPositive(input.creditLeft)) {
    parts.push(`Credit carried: ${money(cur, input.creditLeft)}.`);
  }
  if (input.reason !== 'paid_off' && input.remainingBalance !== null && isPositive(input.remainingBalance)) {
    parts.push(`Balance to pay off: ${money(cur, input.remainingBalance)}.`);
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
