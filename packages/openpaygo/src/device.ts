/**
 * A simulated PAYG device: what a controller does with the tokens its
 * keypad receives. Used by the device simulator CLI and by tests; pure TS.
 */
import {
  type DeviceTokenState,
  type TokenOptions,
  type TokenType,
  OpenPaygoError,
  decodeToken,
  initialTokenState,
  isValidSecretKey,
  isValidStartingCode,
  valueToDays,
} from './token.js';

const DAY_MS = 86_400_000;

/** The wait after the first invalid token, in seconds; it doubles after each further one. */
export const FIRST_INVALID_WAIT_SECONDS = 2;
/** The wait never grows beyond this (about 17 minutes, like the OpenPAYGO-HW example's cap). */
export const MAX_INVALID_WAIT_SECONDS = 1024;

export interface DeviceConfig extends TokenOptions {
  /** Token value units per day (e.g. 4 = 6-hour units). Default 1. */
  valueDivider?: number;
}

/** Everything a device stores, JSON-friendly (instants as ISO strings). */
export interface DeviceSnapshot {
  version: 1;
  config: Required<DeviceConfig>;
  tokenState: DeviceTokenState;
  /** False once a DISABLE_PAYG token was entered (unlocked forever), until a SET_TIME re-locks it. */
  paygEnabled: boolean;
  /** When the credit runs out; null if the device never had credit. */
  activeUntil: string | null;
  /** Invalid tokens in a row since the last valid one. */
  invalidStreak: number;
  /** No token is looked at before this instant. */
  blockedUntil: string | null;
}

export interface EnterTokenResult {
  /** BLOCKED: the device is still making the user wait after invalid tokens; the token was not read. */
  status: 'VALID' | 'ALREADY_USED' | 'INVALID' | 'BLOCKED';
  type?: TokenType;
  /** The raw token value. */
  value?: number;
  /** The value in days (value / divider) for ADD_TIME and SET_TIME. */
  days?: number;
  count?: number;
  /** INVALID: the wait now imposed; BLOCKED: the wait left. */
  waitSeconds?: number;
}

function checkConfig(config: DeviceConfig): Required<DeviceConfig> {
  if (!isValidSecretKey(config.secretKey)) {
    throw new OpenPaygoError('INVALID_SECRET_KEY', 'The secret key must be 32 hexadecimal characters (16 bytes)');
  }
  if (!isValidStartingCode(config.startingCode)) {
    throw new OpenPaygoError('INVALID_STARTING_CODE', 'The starting code must be an integer from 0 to 999999999');
  }
  const valueDivider = config.valueDivider ?? 1;
  if (typeof valueDivider !== 'number' || !Number.isFinite(valueDivider) || valueDivider <= 0) {
    throw new OpenPaygoError('INVALID_DIVIDER', 'The value divider must be a positive number');
  }
  return {
    secretKey: config.secretKey,
    startingCode: config.startingCode,
    restrictedDigitSet: config.restrictedDigitSet === true,
    extendedToken: config.extendedToken === true,
    valueDivider,
  };
}

function parseInstant(iso: string | null, field: string): number | null {
  if (iso === null) {
    return null;
  }
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) {
    throw new OpenPaygoError('INVALID_STATE', `${field} is not a valid date: ${iso}`);
  }
  return ms;
}

export class Device {
  readonly config: Required<DeviceConfig>;
  private tokens: DeviceTokenState;
  private paygOn = true;
  private activeUntilMs: number | null = null;
  private invalidStreak = 0;
  private blockedUntilMs: number | null = null;

  /** A new device whose last count is `lastCount` (default 1, where the reference starts its servers). */
  constructor(config: DeviceConfig, lastCount = 1) {
    this.config = checkConfig(config);
    this.tokens = initialTokenState(lastCount);
  }

  static fromSnapshot(snapshot: DeviceSnapshot): Device {
    if (typeof snapshot !== 'object' || snapshot === null || snapshot.version !== 1) {
      throw new OpenPaygoError('INVALID_STATE', 'Unknown device snapshot format');
    }
    const tokens = snapshot.tokenState as DeviceTokenState | undefined;
    if (typeof tokens !== 'object' || tokens === null || !Array.isArray(tokens.usedCounts)) {
      throw new OpenPaygoError('INVALID_STATE', 'The device snapshot has no token state');
    }
    const device = new Device(snapshot.config, tokens.lastCount);
    // Copied so the snapshot stays untouched; decodeToken checks the values on use.
    device.tokens = { lastCount: tokens.lastCount, usedCounts: [...tokens.usedCounts] };
    device.paygOn = snapshot.paygEnabled !== false;
    device.activeUntilMs = parseInstant(snapshot.activeUntil, 'activeUntil');
    device.invalidStreak = Number.isInteger(snapshot.invalidStreak) ? snapshot.invalidStreak : 0;
    device.blockedUntilMs = parseInstant(snapshot.blockedUntil, 'blockedUntil');
    return device;
  }

  toSnapshot(): DeviceSnapshot {
    return {
      version: 1,
      config: { ...this.config },
      tokenState: { lastCount: this.tokens.lastCount, usedCounts: [...this.tokens.usedCounts] },
      paygEnabled: this.paygOn,
      activeUntil: this.activeUntilMs === null ? null : new Date(this.activeUntilMs).toISOString(),
      invalidStreak: this.invalidStreak,
      blockedUntil: this.blockedUntilMs === null ? null : new Date(this.blockedUntilMs).toISOString(),
    };
  }

  get lastCount(): number {
    return this.tokens.lastCount;
  }

  get tokenState(): DeviceTokenState {
    return { lastCount: this.tokens.lastCount, usedCounts: [...this.tokens.usedCounts] };
  }

  /** True once a DISABLE_PAYG token unlocked the device for good. */
  get unlockedForever(): boolean {
    return !this.paygOn;
  }

  /** Days of credit left at `now` (fractional, never negative); Infinity when unlocked forever. */
  daysLeft(now: Date): number {
    if (!this.paygOn) {
      return Number.POSITIVE_INFINITY;
    }
    if (this.activeUntilMs === null) {
      return 0;
    }
    return Math.max(0, (this.activeUntilMs - now.getTime()) / DAY_MS);
  }

  isActive(now: Date): boolean {
    return this.daysLeft(now) > 0;
  }

  /** Seconds the user must still wait before the next token is read (0 when none). */
  waitSecondsLeft(now: Date): number {
    if (this.blockedUntilMs === null) {
      return 0;
    }
    return Math.max(0, Math.ceil((this.blockedUntilMs - now.getTime()) / 1000));
  }

  /**
   * Reads a token typed on the keypad at `now`. ADD_TIME adds days to the
   * credit (counted from now when it has run out); SET_TIME sets the credit
   * to its days from now and re-enables PAYG after a DISABLE_PAYG;
   * DISABLE_PAYG unlocks forever; COUNTER_SYNC only moves the count. Each
   * INVALID token doubles the wait before the next one is read (2 s, 4 s,
   * ... up to 1024 s); a VALID one resets it; ALREADY_USED leaves it.
   */
  enterToken(token: string, now: Date): EnterTokenResult {
    const nowMs = now.getTime();
    const wait = this.waitSecondsLeft(now);
    if (wait > 0) {
      return { status: 'BLOCKED', waitSeconds: wait };
    }

    const result = decodeToken({ ...this.config, state: this.tokens, token });
    if (result.status === 'INVALID') {
      this.invalidStreak += 1;
      const waitSeconds = Math.min(
        FIRST_INVALID_WAIT_SECONDS * 2 ** (this.invalidStreak - 1),
        MAX_INVALID_WAIT_SECONDS,
      );
      this.blockedUntilMs = nowMs + waitSeconds * 1000;
      return { status: 'INVALID', waitSeconds };
    }
    if (result.status === 'ALREADY_USED') {
      return { status: 'ALREADY_USED', type: result.type, value: result.value, count: result.count };
    }

    this.tokens = result.state;
    this.invalidStreak = 0;
    this.blockedUntilMs = null;
    const type = result.type!;
    const value = result.value!;
    const out: EnterTokenResult = { status: 'VALID', type, value, count: result.count };
    if (type === 'ADD_TIME' || type === 'SET_TIME') {
      const days = valueToDays(value, this.config.valueDivider);
      const creditMs = Math.round(days * DAY_MS);
      if (type === 'ADD_TIME') {
        const from = this.activeUntilMs === null || this.activeUntilMs < nowMs ? nowMs : this.activeUntilMs;
        this.activeUntilMs = from + creditMs;
      } else {
        this.activeUntilMs = nowMs + creditMs;
        this.paygOn = true;
      }
      out.days = days;
    } else if (type === 'DISABLE_PAYG') {
      this.paygOn = false;
    }
    return out;
  }
}
