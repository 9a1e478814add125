/**
 * SipHash-2-4 (Aumasson & Bernstein) on pairs of 32-bit halves.
 *
 * JavaScript numbers hold 32-bit integers without allocation, while BigInt
 * arithmetic allocates on every operation (about 150k hashes/s). Every
 * 64-bit lane is therefore kept as a (hi, lo) pair of 32-bit halves: adds
 * carry from the low half by hand, rotations mix the two halves, and a
 * rotation by 32 is a swap (conventions: see above `sipRounds`). The
 * token chain only ever hashes 8-byte messages, so `sipHash8` is a fixed,
 * allocation-free path for that case; `sipHash24` handles any message
 * length (used for the starting-code derivation and the test vectors).
 */

/** A SipHash key split once into its four little-endian 32-bit words. */
export interface SipKey {
  readonly k0lo: number;
  readonly k0hi: number;
  readonly k1lo: number;
  readonly k1hi: number;
}

/** A 64-bit hash as two unsigned 32-bit halves. */
export interface Hash64 {
  hi: number;
  lo: number;
}

function readU32LE(bytes: Uint8Array, offset: number): number {
  return (
    (bytes[offset]! |
      (bytes[offset + 1]! << 8) |
      (bytes[offset + 2]! << 16) |
      (bytes[offset + 3]! << 24)) >>>
    0
  );
}

/** Splits a 16-byte key into the words SipHash uses (k0 = bytes 0..7, k1 = bytes 8..15, little-endian). */
export function sipKey(key: Uint8Array): SipKey {
  if (key.length !== 16) {
    throw new RangeError(`SipHash key must be 16 bytes, got ${key.length}`);
  }
  return {
    k0lo: readU32LE(key, 0),
    k0hi: readU32LE(key, 4),
    k1lo: readU32LE(key, 8),
    k1hi: readU32LE(key, 12),
  };
}

// Initialisation constants "somepseudorandomlygeneratedbytes", as hi/lo halves.
const C0_HI = 0x736f6d65;
const C0_LO = 0x70736575;
const C1_HI = 0x646f7261;
const C1_LO = 0x6e646f6d;
const C2_HI = 0x6c796765;
const C2_LO = 0x6e657261;
const C3_HI = 0x74656462;
const C3_LO = 0x79746573;

/** The four lanes of one hash in progress (generic path), as int32 halves. */
interface State {
  v0h: number;
  v0l: number;
  v1h: number;
  v1l: number;
  v2h: number;
  v2l: number;
  v3h: number;
  v3l: number;
}

const scratch: State = { v0h: 0, v0l: 0, v1h: 0, v1l: 0, v2h: 0, v2l: 0, v3h: 0, v3l: 0 };

/*
 * Arithmetic conventions (both paths):
 * - Halves are int32 bit patterns (`| 0`), not uint32 (`>>> 0`). V8 keeps
 *   int32 values in registers, while a uint32 above 2^31 becomes a double;
 *   the int32 form measured about 2.6x faster. Results are converted to
 *   unsigned only when they leave this module.
 * - 64-bit add: lo = (al + bl) | 0, and the carry out of the low half is
 *   bit 31 of (al & bl) | ((al | bl) & ~lo): set when both top bits are
 *   set, or when either is and the sum's top bit is clear. No comparison,
 *   so it works on signed bit patterns.
 * - rotl by n < 32 moves bits across the halves; rotl by 32 is a swap.
 */

/** `rounds` SipRounds applied to `s` in place (generic path). */
function sipRounds(s: State, rounds: number): void {
  let v0h = s.v0h;
  let v0l = s.v0l;
  let v1h = s.v1h;
  let v1l = s.v1l;
  let v2h = s.v2h;
  let v2l = s.v2l;
  let v3h = s.v3h;
  let v3l = s.v3l;
  let th = 0;
  let tl = 0;
  for (let r = 0; r < rounds; r++) {
    // v0 += v1
    tl = (v0l + v1l) | 0;
    v0h = (v0h + v1h + (((v0l & v1l) | ((v0l | v1l) & ~tl)) >>> 31)) | 0;
    v0l = tl;
    // v1 = rotl(v1, 13) ^ v0
    th = (v1h << 13) | (v1l >>> 19);
    tl = (v1l << 13) | (v1h >>> 19);
    v1h = th ^ v0h;
    v1l = tl ^ v0l;
    // v0 = rotl(v0, 32)
    th = v0h;
    v0h = v0l;
    v0l = th;
    // v2 += v3
    tl = (v2l + v3l) | 0;
    v2h = (v2h + v3h + (((v2l & v3l) | ((v2l | v3l) & ~tl)) >>> 31)) | 0;
    v2l = tl;
    // v3 = rotl(v3, 16) ^ v2
    th = (v3h << 16) | (v3l >>> 16);
    tl = (v3l << 16) | (v3h >>> 16);
    v3h = th ^ v2h;
    v3l = tl ^ v2l;
    // v0 += v3
    tl = (v0l + v3l) | 0;
    v0h = (v0h + v3h + (((v0l & v3l) | ((v0l | v3l) & ~tl)) >>> 31)) | 0;
    v0l = tl;
    // v3 = rotl(v3, 21) ^ v0
    th = (v3h << 21) | (v3l >>> 11);
    tl = (v3l << 21) | (v3h >>> 11);
    v3h = th ^ v0h;
    v3l = tl ^ v0l;
    // v2 += v1
    tl = (v2l + v1l) | 0;
    v2h = (v2h + v1h + (((v2l & v1l) | ((v2l | v1l) & ~tl)) >>> 31)) | 0;
    v2l = tl;
    // v1 = rotl(v1, 17) ^ v2
    th = (v1h << 17) | (v1l >>> 15);
    tl = (v1l << 17) | (v1h >>> 15);
    v1h = th ^ v2h;
    v1l = tl ^ v2l;
    // v2 = rotl(v2, 32)
    th = v2h;
    v2h = v2l;
    v2l = th;
  }
  s.v0h = v0h;
  s.v0l = v0l;
  s.v1h = v1h;
  s.v1l = v1l;
  s.v2h = v2h;
  s.v2l = v2l;
  s.v3h = v3h;
  s.v3l = v3l;
}

/** Absorbs one 64-bit little-endian message word (hi, lo) with two compression rounds. */
function absorb(s: State, mh: number, ml: number): void {
  s.v3h ^= mh;
  s.v3l ^= ml;
  sipRounds(s, 2);
  s.v0h ^= mh;
  s.v0l ^= ml;
}

/**
 * SipHash-2-4 of a message of any length. Returns the 64-bit result as
 * unsigned halves (the integer value the reference implementations print).
 * Allocates only the returned object.
 */
export function sipHash24(key: SipKey, message: Uint8Array): Hash64 {
  const s = scratch;
  s.v0h = key.k0hi ^ C0_HI;
  s.v0l = key.k0lo ^ C0_LO;
  s.v1h = key.k1hi ^ C1_HI;
  s.v1l = key.k1lo ^ C1_LO;
  s.v2h = key.k0hi ^ C2_HI;
  s.v2l = key.k0lo ^ C2_LO;
  s.v3h = key.k1hi ^ C3_HI;
  s.v3l = key.k1lo ^ C3_LO;

  const len = message.length;
  const end = len - (len % 8);
  for (let i = 0; i < end; i += 8) {
    absorb(s, readU32LE(message, i + 4), readU32LE(message, i));
  }
  // Last block: the remaining bytes, little-endian, with the length (mod 256) in the top byte.
  let lastLo = 0;
  let lastHi = (len & 0xff) << 24;
  for (let i = end; i < len; i++) {
    const shift = (i - end) * 8;
    if (shift < 32) {
      lastLo |= message[i]! << shift;
    } else {
      lastHi |= message[i]! << (shift - 32);
    }
  }
  absorb(s, lastHi, lastLo);

  s.v2l ^= 0xff;
  sipRounds(s, 4);
  return {
    hi: (s.v0h ^ s.v1h ^ s.v2h ^ s.v3h) >>> 0,
    lo: (s.v0l ^ s.v1l ^ s.v2l ^ s.v3l) >>> 0,
  };
}

/**
 * SipHash-2-4 of exactly one 8-byte message given as its little-endian
 * 64-bit word (mh, ml): the hot path of the token chain. The high half of
 * the result is returned and the low half written to `out[0]` (both
 * unsigned), so nothing is allocated. All state lives in locals.
 */
export function sipHash8(key: SipKey, mh: number, ml: number, out: Uint32Array): number {
  let v0h = key.k0hi ^ C0_HI;
  let v0l = key.k0lo ^ C0_LO;
  let v1h = key.k1hi ^ C1_HI;
  let v1l = key.k1lo ^ C1_LO;
  let v2h = key.k0hi ^ C2_HI;
  let v2l = key.k0lo ^ C2_LO;
  let v3h = key.k1hi ^ C3_HI ^ mh;
  let v3l = key.k1lo ^ C3_LO ^ ml;
  let th = 0;
  let tl = 0;

  // Eight SipRounds: 2 compress the message word, 2 the final block (no
  // bytes left, length 8 in the top byte: 0x08 << 56), 4 finalise.
  for (let r = 0; r < 8; r++) {
    if (r === 2) {
      v0h ^= mh;
      v0l ^= ml;
      v3h ^= 0x08000000;
    } else if (r === 4) {
      v0h ^= 0x08000000;
      v2l ^= 0xff;
    }
    // v0 += v1
    tl = (v0l + v1l) | 0;
    v0h = (v0h + v1h + (((v0l & v1l) | ((v0l | v1l) & ~tl)) >>> 31)) | 0;
    v0l = tl;
    // v1 = rotl(v1, 13) ^ v0
    th = (v1h << 13) | (v1l >>> 19);
    tl = (v1l << 13) | (v1h >>> 19);
    v1h = th ^ v0h;
    v1l = tl ^ v0l;
    // v0 = rotl(v0, 32)
    th = v0h;
    v0h = v0l;
    v0l = th;
    // v2 += v3
    tl = (v2l + v3l) | 0;
    v2h = (v2h + v3h + (((v2l & v3l) | ((v2l | v3l) & ~tl)) >>> 31)) | 0;
    v2l = tl;
    // v3 = rotl(v3, 16) ^ v2
    th = (v3h << 16) | (v3l >>> 16);
    tl = (v3l << 16) | (v3h >>> 16);
    v3h = th ^ v2h;
    v3l = tl ^ v2l;
    // v0 += v3
    tl = (v0l + v3l) | 0;
    v0h = (v0h + v3h + (((v0l & v3l) | ((v0l | v3l) & ~tl)) >>> 31)) | 0;
    v0l = tl;
    // v3 = rotl(v3, 21) ^ v0
    th = (v3h << 21) | (v3l >>> 11);
    tl = (v3l << 21) | (v3h >>> 11);
    v3h = th ^ v0h;
    v3l = tl ^ v0l;
    // v2 += v1
    tl = (v2l + v1l) | 0;
    v2h = (v2h + v1h + (((v2l & v1l) | ((v2l | v1l) & ~tl)) >>> 31)) | 0;
    v2l = tl;
    // v1 = rotl(v1, 17) ^ v2
    th = (v1h << 17) | (v1l >>> 15);
    tl = (v1l << 17) | (v1h >>> 15);
    v1h = th ^ v2h;
    v1l = tl ^ v2l;
    // v2 = rotl(v2, 32)
    th = v2h;
    v2h = v2l;
    v2l = th;
  }
  out[0] = v0l ^ v1l ^ v2l ^ v3l;
  return (v0h ^ v1h ^ v2h ^ v3h) >>> 0;
}
