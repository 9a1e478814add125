import { describe, expect, it } from 'vitest';

import { Device, MAX_INVALID_WAIT_SECONDS, OpenPaygoError, generateToken } from '../src/index.js';
import { KEY, STARTING_CODE } from './helpers.js';

const CONFIG = { secretKey: KEY, startingCode: STARTING_CODE };
const T0 = new Date('2026-03-01T08:00:00Z');
const at = (days: number, seconds = 0): Date => new Date(T0.getTime() + days * 86_400_000 + seconds * 1000);

/** A tiny server: keeps the count and issues tokens in order. */
function server(config: typeof CONFIG & { extendedToken?: boolean; restrictedDigitSet?: boolean } = CONFIG) {
  let lastCount = 1;
  return {
    issue(type: 'ADD_TIME' | 'SET_TIME' | 'DISABLE_PAYG' | 'COUNTER_SYNC', value?: number): string {
      const result = generateToken({ ...config, lastCount, type, value });
      lastCount = result.count;
      return result.token;
    },
  };
}

describe('Device credit', () => {
  it('starts locked with no credit', () => {
    const device = new Device(CONFIG);
    expect(device.daysLeft(T0)).toBe(0);
    expect(device.isActive(T0)).toBe(false);
    expect(device.lastCount).toBe(1);
  });

  it('ADD_TIME counts from now when expired and extends the expiry otherwise', () => {
    const device = new Device(CONFIG);
    const s = server();
    expect(device.enterToken(s.issue('ADD_TIME', 7), T0)).toMatchObject({ status: 'VALID', type: 'ADD_TIME', days: 7, count: 2 });
    expect(device.daysLeft(T0)).toBe(7);
    device.enterToken(s.issue('ADD_TIME', 3), at(2));
    expect(device.daysLeft(at(2))).toBe(8);
    // Expired for 5 days: new credit runs from now, lost days are not refunded.
    device.enterToken(s.issue('ADD_TIME', 2), at(15));
    expect(device.daysLeft(at(15))).toBe(2);
    expect(device.isActive(at(16.99))).toBe(true);
    expect(device.isActive(at(17))).toBe(false);
  });

  it('SET_TIME sets the credit from now, up or down', () => {
    const device = new Device(CONFIG);
    const s = server();
    device.enterToken(s.issue('ADD_TIME', 30), T0);
    expect(device.enterToken(s.issue('SET_TIME', 5), at(1))).toMatchObject({ status: 'VALID', type: 'SET_TIME', days: 5 });
    expect(device.daysLeft(at(1))).toBe(5);
    device.enterToken(s.issue('SET_TIME', 0), at(2));
    expect(device.isActive(at(2))).toBe(false);
  });

  it('DISABLE_PAYG unlocks forever; a later SET_TIME locks PAYG again', () => {
    const device = new Device(CONFIG);
    const s = server();
    expect(device.enterToken(s.issue('DISABLE_PAYG'), T0)).toMatchObject({ status: 'VALID', type: 'DISABLE_PAYG' });
    expect(device.unlockedForever).toBe(true);
    expect(device.daysLeft(at(10_000))).toBe(Number.POSITIVE_INFINITY);
    expect(device.isActive(at(10_000))).toBe(true);
    device.enterToken(s.issue('ADD_TIME', 3), at(1));
    expect(device.unlockedForever).toBe(true);
    device.enterToken(s.issue('SET_TIME', 3), at(1));
    expect(device.unlockedForever).toBe(false);
    expect(device.daysLeft(at(1))).toBe(3);
  });

  it('COUNTER_SYNC only moves the count', () => {
    const device = new Device(CONFIG);
    const s = server();
    device.enterToken(s.issue('ADD_TIME', 4), T0);
    expect(device.enterToken(s.issue('COUNTER_SYNC'), T0)).toMatchObject({ status: 'VALID', type: 'COUNTER_SYNC', count: 3 });
    expect(device.daysLeft(T0)).toBe(4);
    expect(device.lastCount).toBe(3);
  });

  it('applies the value divider (4 = 6-hour units)', () => {
    const config = { ...CONFIG, valueDivider: 4 };
    const device = new Device(config);
    const s = server();
    expect(device.enterToken(s.issue('ADD_TIME', 6), T0)).toMatchObject({ status: 'VALID', value: 6, days: 1.5 });
    expect(device.daysLeft(T0)).toBe(1.5);
    expect(device.daysLeft(at(1))).toBe(0.5);
  });

  it('works with restricted and extended tokens', () => {
    const config = { ...CONFIG, restrictedDigitSet: true, extendedToken: true };
    const device = new Device(config);
    const s = server(config);
    expect(device.enterToken(s.issue('ADD_TIME', 1500), T0)).toMatchObject({ status: 'VALID', days: 1500 });
  });
});

describe('Device replay and back-off', () => {
  it('a token entered twice is ALREADY_USED and adds nothing', () => {
    const device = new Device(CONFIG);
    const token = server().issue('ADD_TIME', 7);
    device.enterToken(token, T0);
    expect(device.enterToken(token, T0)).toMatchObject({ status: 'ALREADY_USED', count: 2 });
    expect(device.daysLeft(T0)).toBe(7);
  });

  it('doubles the wait after each invalid token and resets it on a valid one', () => {
    const device = new Device(CONFIG);
    let now = T0;
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      const result = device.enterToken('123456789', now);
      expect(result.status).toBe('INVALID');
      waits.push(result.waitSeconds!);
      now = new Date(now.getTime() + result.waitSeconds! * 1000);
    }
    expect(waits).toEqual([2, 4, 8, 16]);

    // While waiting, tokens are not even read.
    device.enterToken('123456789', now);
    const token = server().issue('ADD_TIME', 1);
    expect(device.enterToken(token, new Date(now.getTime() + 1000))).toEqual({ status: 'BLOCKED', waitSeconds: 31 });
    expect(device.waitSecondsLeft(new Date(now.getTime() + 1000))).toBe(31);

    now = new Date(now.getTime() + 32_000);
    expect(device.enterToken(token, now).status).toBe('VALID');
    expect(device.enterToken('123456789', now)).toMatchObject({ status: 'INVALID', waitSeconds: 2 });
  });

  it('caps the wait', () => {
    const device = new Device(CONFIG);
    let now = T0;
    let last = 0;
    for (let i = 0; i < 20; i++) {
      last = device.enterToken('999999999', now).waitSeconds!;
      now = new Date(now.getTime() + last * 1000);
    }
    expect(last).toBe(MAX_INVALID_WAIT_SECONDS);
  });

  it('ALREADY_USED neither grows nor resets the wait', () => {
    const device = new Device(CONFIG);
    const token = server().issue('ADD_TIME', 1);
    device.enterToken(token, T0);
    expect(device.enterToken('123456789', T0).waitSeconds).toBe(2);
    expect(device.enterToken(token, at(0, 2)).status).toBe('ALREADY_USED');
    expect(device.enterToken('123456789', at(0, 2)).waitSeconds).toBe(4);
  });
});

describe('Device snapshots', () => {
  it('round-trips through JSON', () => {
    const device = new Device({ ...CONFIG, valueDivider: 2 }, 5);
    const s = server();
    for (let i = 0; i < 3; i++) {
      s.issue('ADD_TIME', 1);
    }
    device.enterToken(s.issue('ADD_TIME', 8), T0);
    device.enterToken('111111111', T0);
    const copy = Device.fromSnapshot(JSON.parse(JSON.stringify(device.toSnapshot())));
    expect(copy.toSnapshot()).toEqual(device.toSnapshot());
    expect(copy.daysLeft(at(1))).toBe(3);
    expect(copy.waitSecondsLeft(T0)).toBe(2);
  });

  it('refuses bad configuration and snapshots', () => {
    expect(() => new Device({ ...CONFIG, secretKey: 'nope' })).toThrow(OpenPaygoError);
    expect(() => new Device({ ...CONFIG, valueDivider: 0 })).toThrow(OpenPaygoError);
    expect(() => new Device(CONFIG, -1)).toThrow(OpenPaygoError);
    expect(() => Device.fromSnapshot({} as never)).toThrow(OpenPaygoError);
    const snapshot = new Device(CONFIG).toSnapshot();
    expect(() => Device.fromSnapshot({ ...snapshot, activeUntil: 'soon' })).toThrow(OpenPaygoError);
  });
});
