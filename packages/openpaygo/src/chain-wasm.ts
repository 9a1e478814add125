/**
 * The token hash chain in WebAssembly, where SipHash's 64-bit lanes are
 * native i64 values: one add, xor or rotate per step, instead of the pairs
 * of 32-bit halves (and the carry) that JavaScript needs (siphash.ts). The
 * server walks the chain `count` times for every token, so at counts around
 * 1,000 this is most of a token's cost: about 3x faster than the JavaScript
 * path on the same core (see `pnpm --filter @kidogo/openpaygo bench`).
 *
 * The module is assembled here, opcode by opcode, rather than shipped as a
 * binary: about 400 bytes, compiled synchronously once, with nothing to
 * build or trust. Where WebAssembly is not available, `wasmChain` is null
 * and token.ts walks the chain in JavaScript (same results: the tests run
 * both paths against the reference vectors).
 */

// Opcodes and types used below (WebAssembly 1.0 core spec).
const I32 = 0x7f;
const I64 = 0x7e;
const op = {
  block: 0x02,
  loop: 0x03,
  br: 0x0c,
  brIf: 0x0d,
  end: 0x0b,
  select: 0x1b,
  get: 0x20,
  set: 0x21,
  tee: 0x22,
  i32Const: 0x41,
  i64Const: 0x42,
  i32Eqz: 0x45,
  i32GtU: 0x4b,
  i64GtU: 0x56,
  i32Sub: 0x6b,
  i32And: 0x71,
  i32Or: 0x72,
  i32Xor: 0x73,
  i32ShrU: 0x76,
  i32Rotl: 0x77,
  i32Rotr: 0x78,
  i64Add: 0x7c,
  i64Sub: 0x7d,
  i64Or: 0x84,
  i64Xor: 0x85,
  i64Shl: 0x86,
  i64ShrU: 0x88,
  i64Rotl: 0x89,
  i32WrapI64: 0xa7,
  i64ExtendI32U: 0xad,
} as const;

/** Unsigned LEB128. */
function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

/** Signed LEB128 of a 64-bit value. */
function sleb(v: bigint): number[] {
  const out: number[] = [];
  for (;;) {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    if ((v === 0n && (b & 0x40) === 0) || (v === -1n && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

const i64c = (v: bigint) => [op.i64Const, ...sleb(BigInt.asIntN(64, v))];
const i32c = (v: number) => [op.i32Const, ...sleb(BigInt(v | 0))];
const get = (i: number) => [op.get, i];
const set = (i: number) => [op.set, i];

// Locals of both functions: parameters k0, k1, code, n, then v0..v3 and m.
const K0 = 0;
const K1 = 1;
const CODE = 2;
const N = 3;
const V0 = 4;
const V1 = 5;
const V2 = 6;
const V3 = 7;
const M = 8;

/** a += b (i64 locals). */
const addTo = (a: number, b: number) => [...get(a), ...get(b), op.i64Add, ...set(a)];
/** a = rotl(a, r) ^ b. */
const rotXor = (a: number, r: number, b: number) => [...get(a), ...i64c(BigInt(r)), op.i64Rotl, ...get(b), op.i64Xor, ...set(a)];
const rot32 = (a: number) => [...get(a), ...i64c(32n), op.i64Rotl, ...set(a)];
const xorInto = (a: number, expr: number[]) => [...get(a), ...expr, op.i64Xor, ...set(a)];

function sipRound(): number[] {
  return [
    ...addTo(V0, V1),
    ...rotXor(V1, 13, V0),
    ...rot32(V0),
    ...addTo(V2, V3),
    ...rotXor(V3, 16, V2),
    ...addTo(V0, V3),
    ...rotXor(V3, 21, V0),
    ...addTo(V2, V1),
    ...rotXor(V1, 17, V2),
    ...rot32(V2),
  ];
}

/** SipHash-2-4 of the 8-byte message in local M under (K0, K1); leaves the 64-bit hash on the stack. */
function sipHash8(): number[] {
  const last = i64c(8n << 56n); // no bytes left, length 8 in the top byte
  return [
    ...get(K0), ...i64c(0x736f6d6570736575n), op.i64Xor, ...set(V0),
    ...get(K1), ...i64c(0x646f72616e646f6dn), op.i64Xor, ...set(V1),
    ...get(K0), ...i64c(0x6c7967656e657261n), op.i64Xor, ...set(V2),
    ...get(K1), ...i64c(0x7465646279746573n), op.i64Xor, ...get(M), op.i64Xor, ...set(V3),
    ...sipRound(), ...sipRound(),
    ...xorInto(V0, get(M)),
    ...xorInto(V3, last),
    ...sipRound(), ...sipRound(),
    ...xorInto(V0, last),
    ...xorInto(V2, i64c(0xffn)),
    ...sipRound(), ...sipRound(), ...sipRound(), ...sipRound(),
    ...get(V0), ...get(V1), op.i64Xor, ...get(V2), op.i64Xor, ...get(V3), op.i64Xor,
  ];
}

/** The i32 on the stack with its bytes reversed. */
const bswap32 = (load: number[]) => [
  ...load, ...i32c(0x00ff00ff), op.i32And, ...i32c(8), op.i32Rotr,
  ...load, ...i32c(0xff00ff00 | 0), op.i32And, ...i32c(8), op.i32Rotl,
  op.i32Or,
];

/** `while (n--) { step }`, then return `code`. */
const loop = (step: number[]) => [
  op.block, 0x40, op.loop, 0x40,
  ...get(N), op.i32Eqz, op.brIf, 1,
  ...step,
  ...get(N), ...i32c(1), op.i32Sub, ...set(N),
  op.br, 0,
  op.end, op.end,
  ...get(CODE),
];

// Standard (9-digit) step: the 4-byte big-endian code twice as the message,
// the hash folded to 32 bits, bits 2..31 kept and brought under 10^9.
const standardStep = [
  ...bswap32(get(CODE)), op.i64ExtendI32U, op.tee, M, ...i64c(32n), op.i64Shl, ...get(M), op.i64Or, ...set(M),
  ...sipHash8(), op.tee, V0,
  ...i64c(32n), op.i64ShrU, op.i32WrapI64, ...get(V0), op.i32WrapI64, op.i32Xor, ...i32c(2), op.i32ShrU, op.tee, CODE,
  // code > 999,999,999 ? code - 73,741,825 : code
  ...get(CODE), ...i32c(73_741_825), op.i32Sub, ...get(CODE), ...get(CODE), ...i32c(999_999_999), op.i32GtU, op.select, ...set(CODE),
];

// Extended (12-digit) step: the 8-byte big-endian code as the message, bits
// 24..63 of the hash kept and brought under 10^12.
const extendedStep = [
  ...bswap32([...get(CODE), op.i32WrapI64]), op.i64ExtendI32U, ...i64c(32n), op.i64Shl,
  ...bswap32([...get(CODE), ...i64c(32n), op.i64ShrU, op.i32WrapI64]), op.i64ExtendI32U, op.i64Or, ...set(M),
  ...sipHash8(), ...i64c(24n), op.i64ShrU, op.tee, CODE,
  ...get(CODE), ...i64c(99_511_627_777n), op.i64Sub, ...get(CODE), ...get(CODE), ...i64c(999_999_999_999n), op.i64GtU, op.select, ...set(CODE),
];

function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body];
}

function assemble(): Uint8Array {
  const vec = (items: number[][]) => [...uleb(items.length), ...items.flat()];
  const name = (s: string) => [...uleb(s.length), ...Array.from(s, (c) => c.charCodeAt(0))];
  const types = [
    [0x60, ...vec([[I64], [I64], [I32], [I32]]), ...vec([[I32]])], // standard(k0, k1, code, n) -> code
    [0x60, ...vec([[I64], [I64], [I64], [I32]]), ...vec([[I64]])], // extended(k0, k1, code, n) -> code
  ];
  const body = (code: number[]) => {
    const b = [...vec([[5, I64]]), ...code, op.end]; // locals v0..v3, m
    return [...uleb(b.length), ...b];
  };
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vec(types)),
    ...section(3, vec([[0], [1]])),
    ...section(7, vec([[...name('standard'), 0x00, 0], [...name('extended'), 0x00, 1]])),
    ...section(10, vec([body(loop(standardStep)), body(loop(extendedStep))])),
  ]);
}

export interface WasmChain {
  /** The code after `n` standard steps from `code` (< 10^9). */
  standard(k0: bigint, k1: bigint, code: number, n: number): number;
  /** The code after `n` extended steps from `code` (< 10^12). */
  extended(k0: bigint, k1: bigint, code: bigint, n: number): bigint;
}

/** The part of the WebAssembly API used here (the package's TypeScript lib has no DOM or WebAssembly types). */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
}

function instantiate(): WasmChain | null {
  try {
    const wasm = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
    if (!wasm) return null;
    const instance = new wasm.Instance(new wasm.Module(assemble()));
    return instance.exports as WasmChain;
  } catch {
    return null;
  }
}

/** The compiled chain, or null where WebAssembly is unavailable. */
export const wasmChain: WasmChain | null = instantiate();
