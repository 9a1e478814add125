/**
 * The customers' USSD menu, as screens. A USSD gateway (Africa's Talking and
 * those that speak its callback) posts every step of a session with all the
 * answers so far joined by `*` ("", "3", "3*2", "3*2*500"), so the menu keeps
 * no state: each step is worked out again from the start. A screen that waits
 * for an answer is "CON …", the last one "END …"; at most USSD_MAX_SCREEN
 * characters, plain ASCII. 0 goes back a screen, 00 to the main menu.
 *
 * Pure: the caller reads the customer, their devices and how they can pay,
 * and carries out what the last screen asks (send the code by SMS, ask the
 * phone to pay, open a ticket).
 */
import { describeBalance, type BalanceDevice } from './balance.js';
import { formatCentsGrouped, parseAmountToCents } from './money.js';
import { lastCodeLine, type LastCode } from './last-code.js';
import { replyLanguage, type ReplyLanguage } from './reply.js';

/** The most characters a USSD screen shows. */
export const USSD_MAX_SCREEN = 182;
/** The devices a customer can pick from (the first ones given to them). */
export const USSD_MAX_DEVICES = 6;
/** Wrong ID numbers before a shared phone's session ends. */
export const USSD_ID_TRIES = 3;

/** What a customer can report, as service ticket categories. */
export const USSD_PROBLEMS = ['device_fault', 'token_problem', 'billing', 'other'] as const;
export type UssdProblem = (typeof USSD_PROBLEMS)[number];

export type UssdCode = LastCode;

export interface UssdDevice extends BalanceDevice {
  /** The last code issued to it while this customer had it; null when none. */
  lastCode: UssdCode | null;
  /** The plan's price of a day, decimal string; null without a plan. */
  dailyPrice: string | null;
}

export interface UssdPayOption {
  provider: string;
  /** "M-Pesa", "MTN MoMo", "Airtel Money". */
  label: string;
  currency: string;
  /** The most one payment can be. */
  maxAmount: number;
}

export interface UssdMenuInput {
  language?: ReplyLanguage;
  organizationName: string;
  customerName: string;
  devices: UssdDevice[];
  /** The ways this phone can be asked to pay; Pay Now is on the menu only when there is one. */
  pay: UssdPayOption[];
  /** Whether the code can be texted too (an SMS provider is set up). */
  sms: boolean;
}

export type UssdAction =
  | { kind: 'code'; serial: string; code: UssdCode }
  | { kind: 'pay'; serial: string; provider: string; label: string; amount: number; currency: string }
  | { kind: 'ticket'; serial: string; problem: UssdProblem };

export type UssdStepOutcome = 'menu' | 'balance' | 'code' | 'pay' | 'ticket';

export interface UssdScreen {
  end: boolean;
  text: string;
  outcome: UssdStepOutcome;
  /** The device the screen is about, when one. */
  serial: string | null;
  /** What the caller carries out before answering with `text` (which says it was done; for a ticket, empty: ussdTicketText). */
  action: UssdAction | null;
}

type Task = 'balance' | 'code' | 'pay' | 'ticket';
type State =
  | { at: 'main' }
  | { at: 'device'; task: Exclude<Task, 'balance'> }
  | { at: 'provider'; device: UssdDevice }
  | { at: 'amount'; device: UssdDevice; option: UssdPayOption }
  | { at: 'problem'; device: UssdDevice };

interface Phrases {
  hello(name: string): string;
  tasks: Record<Task, string>;
  choose: string;
  payWith: string;
  back: string;
  invalid: string;
  amount(currency: string): string;
  perDay(amount: string): string;
  left(amount: string): string;
  amountRange(max: string): string;
  problem(serial: string): string;
  problems: Record<UssdProblem, string>;
  none: string;
  smsToo: string;
  paidOff(serial: string): string;
  paying(label: string, amount: string, serial: string): string;
  refused(reason: string): string;
  ticket(id: number, serial: string): string;
  ticketAgain(id: number, serial: string): string;
  ticketReceived(serial: string): string;
  notRegistered(org: string): string;
  askId(org: string): string;
  wrongId: string;
  notFound: string;
  unavailable: string;
  more(n: number): string;
}

const ENGLISH: Phrases = {
  hello: (name) => `Hi ${name}`,
  tasks: { balance: 'My balance', code: 'My last code', pay: 'Pay now', ticket: 'Report a problem' },
  choose: 'Choose a device:',
  payWith: 'Pay with:',
  back: '0. Back',
  invalid: 'Invalid choice.',
  amount: (currency) => `Enter the amount (${currency}):`,
  perDay: (amount) => `${amount} a day`,
  left: (amount) => `${amount} left to pay`,
  amountRange: (max) => `Enter a whole amount from 1 to ${max}.`,
  problem: (serial) => `What is wrong with ${serial}?`,
  problems: { device_fault: 'Device not working', token_problem: 'Code not accepted', billing: 'Payment question', other: 'Other' },
  none: 'No device is on your account.',
  smsToo: 'We sent it by SMS too.',
  paidOff: (serial) => `${serial} is paid off: it needs no more payments.`,
  paying: (label, amount, serial) => `Check your phone: enter your ${label} PIN to pay ${amount} for ${serial}. Your code comes by SMS.`,
  refused: (reason) => `Sorry, the payment could not be asked for: ${reason}`,
  ticket: (id, serial) => `Thank you. Ticket #${id} is open for ${serial}: we will call you.`,
  ticketAgain: (id, serial) => `We already have your report on ${serial} (ticket #${id}): we will call you.`,
  ticketReceived: (serial) => `Thank you. We have your report on ${serial}: we will call you.`,
  notRegistered: (org) => `${org}: this phone number is on no account. Call us to register it.`,
  askId: (org) => `${org}\nThis phone is on more than one account. Enter your ID number:`,
  wrongId: 'That ID number is not on an account with this phone. Enter your ID number:',
  notFound: 'We could not find your account. Please call us.',
  unavailable: 'Sorry, this service is not available now.',
  more: (n) => `+${n} more device${n === 1 ? '' : 's'}.`,
};

const KISWAHILI: Phrases = {
  hello: (name) => `Habari ${name}`,
  tasks: { balance: 'Salio langu', code: 'Namba yangu ya mwisho', pay: 'Lipa sasa', ticket: 'Ripoti tatizo' },
  choose: 'Chagua kifaa:',
  payWith: 'Lipa kwa:',
  back: '0. Rudi',
  invalid: 'Chaguo si sahihi.',
  amount: (currency) => `Weka kiasi (${currency}):`,
  perDay: (amount) => `${amount} kwa siku`,
  left: (amount) => `zimebaki ${amount} kulipa`,
  amountRange: (max) => `Weka kiasi kamili kati ya 1 na ${max}.`,
  problem: (serial) => `${serial} kina tatizo gani?`,
  problems: { device_fault: 'Kifaa hakifanyi kazi', token_problem: 'Namba haikubaliwi', billing: 'Swali la malipo', other: 'Jingine' },
  none: 'Hakuna kifaa kwenye akaunti yako.',
  smsToo: 'Tumeituma kwa SMS pia.',
  paidOff: (serial) => `${serial} kimelipwa kikamilifu: hakihitaji malipo zaidi.`,
  paying: (label, amount, serial) => `Angalia simu yako: weka PIN yako ya ${label} kulipa ${amount} kwa ${serial}. Namba yako itakuja kwa SMS.`,
  refused: (reason) => `Samahani, malipo hayakuweza kuombwa: ${reason}`,
  ticket: (id, serial) => `Asante. Tiketi #${id} imefunguliwa kwa ${serial}: tutakupigia simu.`,
  ticketAgain: (id, serial) => `Tayari tuna ripoti yako ya ${serial} (tiketi #${id}): tutakupigia simu.`,
  ticketReceived: (serial) => `Asante. Tumepokea ripoti yako ya ${serial}: tutakupigia simu.`,
  notRegistered: (org) => `${org}: namba hii ya simu haipo kwenye akaunti yoyote. Tupigie ili kuisajili.`,
  askId: (org) => `${org}\nSimu hii iko kwenye akaunti zaidi ya moja. Weka namba yako ya kitambulisho:`,
  wrongId: 'Namba hiyo ya kitambulisho haipo kwenye akaunti ya simu hii. Weka namba yako ya kitambulisho:',
  notFound: 'Hatukuweza kupata akaunti yako. Tafadhali tupigie.',
  unavailable: 'Samahani, huduma hii haipatikani sasa.',
  more: (n) => `+vifaa ${n} zaidi.`,
};

const FRENCH: Phrases = {
  hello: (name) => `Bonjour ${name}`,
  tasks: { balance: 'Mon solde', code: 'Mon dernier code', pay: 'Payer maintenant', ticket: 'Signaler un probleme' },
  choose: 'Choisissez un appareil:',
  payWith: 'Payer avec:',
  back: '0. Retour',
  invalid: 'Choix invalide.',
  amount: (currency) => `Entrez le montant (${currency}):`,
  perDay: (amount) => `${amount} par jour`,
  left: (amount) => `reste ${amount} a payer`,
  amountRange: (max) => `Entrez un montant entier de 1 a ${max}.`,
  problem: (serial) => `Quel est le probleme avec ${serial}?`,
  problems: { device_fault: 'Appareil en panne', token_problem: 'Code refuse', billing: 'Question de paiement', other: 'Autre' },
  none: 'Aucun appareil sur votre compte.',
  smsToo: 'Nous vous l avons aussi envoye par SMS.',
  paidOff: (serial) => `${serial} est entierement paye: plus aucun paiement n est du.`,
  paying: (label, amount, serial) => `Regardez votre telephone: entrez votre code ${label} pour payer ${amount} pour ${serial}. Votre code arrive par SMS.`,
  refused: (reason) => `Desole, le paiement n a pas pu etre demande: ${reason}`,
  ticket: (id, serial) => `Merci. Le ticket #${id} est ouvert pour ${serial}: nous vous appellerons.`,
  ticketAgain: (id, serial) => `Nous avons deja votre signalement sur ${serial} (ticket #${id}): nous vous appellerons.`,
  ticketReceived: (serial) => `Merci. Nous avons votre signalement sur ${serial}: nous vous appellerons.`,
  notRegistered: (org) => `${org}: ce numero n est sur aucun compte. Appelez-nous pour l enregistrer.`,
  askId: (org) => `${org}\nCe telephone est sur plusieurs comptes. Entrez votre numero de piece d identite:`,
  wrongId: 'Ce numero de piece d identite n est pas sur un compte de ce telephone. Entrez votre numero:',
  notFound: 'Nous n avons pas trouve votre compte. Appelez-nous.',
  unavailable: 'Desole, ce service n est pas disponible pour le moment.',
  more: (n) => `+${n} autre${n === 1 ? '' : 's'} appareil${n === 1 ? '' : 's'}.`,
};

const PHRASES: Record<ReplyLanguage, Phrases> = { en: ENGLISH, sw: KISWAHILI, fr: FRENCH };

const phrases = (language: ReplyLanguage | undefined) => PHRASES[replyLanguage(language)];

/** Cut to what a screen shows. */
export function fitScreen(text: string): string {
  return text.length <= USSD_MAX_SCREEN ? text : `${text.slice(0, USSD_MAX_SCREEN - 3).trimEnd()}...`;
}

/** The answers so far: "" is none; "1*2*500" is three. Empty answers (a bare send) are kept, as invalid choices. */
export function ussdAnswers(text: string): string[] {
  const t = text.trim();
  return t === '' ? [] : t.split('*').map((a) => a.trim());
}

const money = (currency: string | null | undefined, amount: string) => {
  const cents = parseAmountToCents(amount);
  return `${currency?.trim() || 'KES'} ${cents === null ? amount : formatCentsGrouped(cents).replace(/\.00$/, '')}`;
};

/** The tasks on the main menu, in order, as numbered: Pay now only when the phone can be asked to pay. */
function tasks(input: UssdMenuInput): Task[] {
  return input.pay.length ? ['balance', 'code', 'pay', 'ticket'] : ['balance', 'code', 'ticket'];
}

const numbered = (lines: string[]) => lines.map((l, i) => `${i + 1}. ${l}`);

/** A choice "1".."n" as its index, else null. */
function choice(answer: string, n: number): number | null {
  if (!/^\d{1,2}$/.test(answer)) return null;
  const k = Number(answer);
  return k >= 1 && k <= n ? k - 1 : null;
}

type Step = { push: State } | { done: UssdScreen } | null;

/** The screen of a session after `answers`, or what its last screen asks to be done. */
export function ussdMenu(input: UssdMenuInput, answers: string[]): UssdScreen {
  const say = phrases(input.language);
  const devices = input.devices.slice(0, USSD_MAX_DEVICES);
  const end = (text: string, outcome: UssdStepOutcome, serial: string | null = null, action: UssdAction | null = null): { done: UssdScreen } => ({
    done: { end: true, text: fitScreen(text), outcome, serial, action },
  });

  /** The task for one device: its last screen, or the next screen to ask. */
  const forDevice = (task: Exclude<Task, 'balance'>, device: UssdDevice): Step => {
    const serial = device.serialNumber;
    if (task === 'code') {
      const code = device.lastCode;
      const text = lastCodeLine(serial, code, input.language);
      if (!code) return end(text, 'code', serial);
      return end(input.sms ? `${text}\n${say.smsToo}` : text, 'code', serial, { kind: 'code', serial, code });
    }
    if (task === 'pay') {
      if (device.paidOff) return end(say.paidOff(serial), 'pay', serial);
      if (input.pay.length === 1) return { push: { at: 'amount', device, option: input.pay[0]! } };
      return { push: { at: 'provider', device } };
    }
    return { push: { at: 'problem', device } };
  };

  const advance = (state: State, answer: string): Step => {
    switch (state.at) {
      case 'main': {
        const list = tasks(input);
        const k = choice(answer, list.length);
        if (k === null) return null;
        const task = list[k]!;
        if (task === 'balance') return end(balanceText(input), 'balance', devices.length === 1 ? devices[0]!.serialNumber : null);
        if (!devices.length) return end(say.none, task === 'ticket' ? 'ticket' : task);
        if (devices.length === 1) return forDevice(task, devices[0]!);
        return { push: { at: 'device', task } };
      }
      case 'device': {
        const k = choice(answer, devices.length);
        return k === null ? null : forDevice(state.task, devices[k]!);
      }
      case 'provider': {
        const k = choice(answer, input.pay.length);
        return k === null ? null : { push: { at: 'amount', device: state.device, option: input.pay[k]! } };
      }
      case 'amount': {
        if (!/^\d{1,9}$/.test(answer)) return null;
        const amount = Number(answer);
        if (amount < 1 || amount > state.option.maxAmount) return null;
        const { option, device } = state;
        return end(say.paying(option.label, money(option.currency, String(amount)), device.serialNumber), 'pay', device.serialNumber, {
          kind: 'pay',
          serial: device.serialNumber,
          provider: option.provider,
          label: option.label,
          amount,
          currency: option.currency,
        });
      }
      case 'problem': {
        const k = choice(answer, USSD_PROBLEMS.length);
        if (k === null) return null;
        const serial = state.device.serialNumber;
        // The text needs the ticket's number: the caller writes it (ussdTicketText) once the ticket is open.
        return end('', 'ticket', serial, { kind: 'ticket', serial, problem: USSD_PROBLEMS[k]! });
      }
    }
  };

  const stack: State[] = [{ at: 'main' }];
  let invalid = false;
  for (const answer of answers) {
    invalid = false;
    if (answer === '00') {
      stack.length = 1;
      continue;
    }
    if (answer === '0' && stack.length > 1) {
      stack.pop();
      continue;
    }
    const step = advance(stack[stack.length - 1]!, answer);
    if (step === null) invalid = true;
    else if ('done' in step) return step.done;
    else stack.push(step.push);
  }
  const state = stack[stack.length - 1]!;
  return { end: false, text: fitScreen(render(input, devices, state, invalid)), outcome: 'menu', serial: 'device' in state ? state.device.serialNumber : null, action: null };
}

/** A waiting screen (CON), with "Invalid choice." first after an answer that is none of its choices. */
function render(input: UssdMenuInput, devices: UssdDevice[], state: State, invalid: boolean): string {
  const say = phrases(input.language);
  const lines: string[] = [];
  if (invalid && state.at !== 'amount') lines.push(say.invalid);
  switch (state.at) {
    case 'main': {
      const first = input.customerName.trim().split(/\s+/)[0] ?? '';
      lines.push(`${input.organizationName}: ${say.hello(first)}`, ...numbered(tasks(input).map((t) => say.tasks[t])));
      break;
    }
    case 'device':
      lines.push(say.choose, ...numbered(devices.map((d) => d.serialNumber)), say.back);
      break;
    case 'provider':
      lines.push(say.payWith, ...numbered(input.pay.map((p) => p.label)), say.back);
      break;
    case 'amount': {
      const d = state.device;
      const facts = [d.dailyPrice ? say.perDay(money(state.option.currency, d.dailyPrice)) : null, d.remaining ? say.left(money(d.currency ?? state.option.currency, d.remaining)) : null].filter(Boolean);
      lines.push(facts.length ? `${d.serialNumber}: ${facts.join(', ')}.` : `${d.serialNumber}`);
      if (invalid) lines.push(say.amountRange(formatCentsGrouped(state.option.maxAmount * 100).replace(/\.00$/, '')));
      lines.push(say.amount(state.option.currency), say.back);
      break;
    }
    case 'problem':
      lines.push(say.problem(state.device.serialNumber), ...numbered(USSD_PROBLEMS.map((p) => say.problems[p])), say.back);
      break;
  }
  return lines.join('\n');
}

/** Every device's credit and what is left, as many as fit on the screen, then how many more. */
function balanceText(input: UssdMenuInput): string {
  const say = phrases(input.language);
  const language = replyLanguage(input.language);
  if (!input.devices.length) return say.none;
  const lines = input.devices.map((d) => describeBalance(d, language));
  for (let n = lines.length; n >= 1; n--) {
    const rest = lines.length - n;
    const text = [...lines.slice(0, n), ...(rest ? [say.more(rest)] : [])].join('\n');
    if (text.length <= USSD_MAX_SCREEN || n === 1) return text;
  }
  return lines[0]!;
}

/**
 * The last screen after a ticket was opened, or when one was already open for the device; without its number (null:
 * the same step posted twice at once, the other request opening it), that the report was received.
 */
export function ussdTicketText(language: ReplyLanguage | undefined, ticketId: number | null, serial: string, already: boolean): string {
  const say = phrases(language);
  if (ticketId === null) return fitScreen(say.ticketReceived(serial));
  return fitScreen(already ? say.ticketAgain(ticketId, serial) : say.ticket(ticketId, serial));
}

/** The last screen when the payment could not be asked for (the provider refused, one is still waiting …). */
export function ussdRefusedText(language: ReplyLanguage | undefined, reason: string): string {
  return fitScreen(phrases(language).refused(reason));
}

/** The screens before the menu: a phone nobody has, a shared phone's ID number, a menu turned off. */
export function ussdIdentityText(
  language: ReplyLanguage | undefined,
  kind: 'not_registered' | 'ask_id' | 'wrong_id' | 'not_found' | 'unavailable',
  organizationName: string,
): string {
  const say = phrases(language);
  switch (kind) {
    case 'not_registered':
      return fitScreen(say.notRegistered(organizationName));
    case 'ask_id':
      return fitScreen(say.askId(organizationName));
    case 'wrong_id':
      return fitScreen(say.wrongId);
    case 'not_found':
      return fitScreen(say.notFound);
    case 'unavailable':
      return fitScreen(say.unavailable);
  }
}
