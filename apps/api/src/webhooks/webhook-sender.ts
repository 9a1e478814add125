import { createHmac } from 'node:crypto';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { isPrivateAddress } from '@kidogo/contracts';

export const WEBHOOK_TIMEOUT_MS = 10_000;
const KEEP_BODY = 500;
const READ_AT_MOST = 64 * 1024;

export type SendOutcome =
  | { ok: true; status: number; body: string; ms: number }
  | { ok: false; status: number | null; body: string | null; ms: number; error: string };

/**
 * The signature header: t, the Unix time of the attempt, and v1, the hex
 * HMAC-SHA256 of `${t}.${body}` with the endpoint's secret. A receiver
 * recomputes it and refuses a t more than a few minutes old (a replay).
 */
export function signatureHeader(secret: string, body: string, at = new Date()): string {
  const t = Math.floor(at.getTime() / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

class PrivateAddressError extends Error {}

/**
 * Resolves like dns.lookup, but refuses a name with any private, loopback or
 * link-local address (unless allowed): the check is on the very addresses the
 * connection uses, so a name cannot resolve to a public address when checked
 * and a private one when connected.
 */
export type Resolve = (hostname: string, options: dns.LookupAllOptions, callback: (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void) => void;

function guardedLookup(allowPrivate: boolean, resolve: Resolve): net.LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return (callback as (e: Error) => void)(err);
      const list = addresses as dns.LookupAddress[];
      const bad = list.find((a) => isPrivateAddress(a.address));
      if (bad && !allowPrivate) {
        return (callback as (e: Error) => void)(new PrivateAddressError(`${hostname} resolves to ${bad.address}, a private or local address`));
      }
      if ((options as dns.LookupAllOptions).all) return (callback as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      const first = list[0];
      if (!first) return (callback as (e: Error) => void)(new Error(`${hostname} has no address`));
      (callback as (e: null, a: string, f: number) => void)(null, first.address, first.family);
    });
  };
}

/**
 * POSTs a JSON body and reads the start of the answer. Any 2xx is delivered;
 * redirects are not followed (the endpoint's address is what was configured).
 * Private and local addresses are refused unless allowPrivate
 * (WEBHOOK_ALLOW_PRIVATE): an organization's admin must not be able to make
 * the server call the installation's own network.
 */
export function postEvent(
  target: string,
  body: string,
  headers: Record<string, string>,
  opts: { allowPrivate: boolean; timeoutMs?: number; resolve?: Resolve },
): Promise<SendOutcome> {
  const started = Date.now();
  const ms = () => Date.now() - started;
  const fail = (error: string, status: number | null = null, text: string | null = null): SendOutcome => ({ ok: false, status, body: text, ms: ms(), error });
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return Promise.resolve(fail('The endpoint address is not a valid URL'));
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!opts.allowPrivate && isPrivateAddress(host)) {
    return Promise.resolve(fail(`${host} is a private or local address: set WEBHOOK_ALLOW_PRIVATE=true to send to it`));
  }
  const client = url.protocol === 'https:' ? https : http;
  const timeoutMs = opts.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  return new Promise((resolve) => {
    let settled = false;
    const done = (o: SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(o);
    };
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'User-Agent': 'Kidogo-Webhooks/1' },
        lookup: guardedLookup(opts.allowPrivate, opts.resolve ?? (dns.lookup as Resolve)),
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < READ_AT_MOST) chunks.push(c);
          size += c.length;
          if (size >= READ_AT_MOST) res.destroy();
        });
        const finish = () => {
          const text = Buffer.concat(chunks).toString('utf8').slice(0, KEEP_BODY);
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) done({ ok: true, status, body: text, ms: ms() });
          else if (status >= 300 && status < 400) done(fail(`answered HTTP ${status} (redirects are not followed: set the endpoint to ${res.headers.location ?? 'the new address'})`, status, text));
          else done(fail(`answered HTTP ${status}`, status, text));
        };
        res.on('end', finish);
        res.on('close', finish);
        res.on('error', finish);
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      done(fail(`no answer within ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
    req.on('error', (e: Error & { code?: string }) => {
      if (e instanceof PrivateAddressError) done(fail(`${e.message}: set WEBHOOK_ALLOW_PRIVATE=true to send to it`));
      else done(fail(`unreachable: ${e.code ?? e.message}`));
    });
    req.end(body);
  });
}
