export type { ParsedPayment, ParseResult, PaymentKind, Provider } from './types.js';
export { normalizePhone, phoneMatchesMasked, isMaskedPhone, isKnownCountryCode } from './phone.js';
export { normalizeAccountRef } from './reference.js';
export {
  parseMessage,
  parseDarajaC2B,
  parseMomoCollection,
  parseAirtelCollection,
  extractForwardedMessage,
  isPersonSender,
  parseForwardedTime,
  MAX_MESSAGE_LENGTH,
  type ForwardedMessage,
} from './parse.js';
export { mapStatementRow, STATEMENT_COLUMNS, type StatementField } from './statement.js';
export {
  allocatePayment,
  splitDays,
  DEFAULT_MAX_DAYS_PER_TOKEN,
  MAX_TOKENS_PER_PAYMENT,
  type Allocation,
  type AllocationDevice,
  type AllocationInput,
  type AllocationReason,
  type AllocationTemplate,
  type AllocationToken,
  type TokenType,
} from './allocate.js';
export { formatPaymentReply, groupToken, MAX_REPLY_LENGTH, REPLY_LANGUAGES, replyLanguage, type PaymentReplyInput, type ReplyLanguage, type ReplyToken } from './reply.js';
export { formatCreditReminder, type CreditReminderInput } from './reminder.js';
export { formatFreeDaysReply, type FreeDaysReplyInput } from './free-days.js';
export {
  parseAmountToCents,
  amountToCents,
  formatCents,
  formatCentsGrouped,
  currencyFromMarker,
  MAX_AMOUNT_CENTS,
} from './money.js';
export { parseCompactEat, parseStatementTime, EAT_OFFSET } from './datetime.js';
export {
  BALANCE_MAX_DEVICES,
  describeBalance,
  formatBalanceReply,
  formatCodeReply,
  parseBalanceRequest,
  parseCodeRequest,
  type BalanceDevice,
  type BalanceReplyInput,
  type BalanceRequest,
  type CodeReplyInput,
} from './balance.js';
export { lastCodeLine, type LastCode } from './last-code.js';
export { formatSmsPreferenceReply, parseSmsPreference, SMS_PREFERENCE_WORDS, type SmsPreference } from './sms-preference.js';
export {
  fitScreen,
  ussdAnswers,
  ussdIdentityText,
  ussdMenu,
  ussdRefusedText,
  ussdTicketText,
  USSD_ID_TRIES,
  USSD_MAX_DEVICES,
  USSD_MAX_SCREEN,
  USSD_PROBLEMS,
  type UssdAction,
  type UssdCode,
  type UssdDevice,
  type UssdMenuInput,
  type UssdPayOption,
  type UssdProblem,
  type UssdScreen,
} from './ussd.js';
export { namedText, TEXT_PREFIX } from './text-name.js';
