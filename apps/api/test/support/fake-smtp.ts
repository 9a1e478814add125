import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

/** A file attached to a mail. */
export interface ReceivedAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

/** One mail the fake server took: the envelope's recipients and the message as sent. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  /** The text body, its transfer encoding undone. */
  text: string;
  attachments: ReceivedAttachment[];
}

/** The message's headers (unfolded, names lower-cased) and its body. */
function split(raw: string): { headers: Map<string, string>; body: string } {
  const at = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, at).replace(/\r\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: raw.slice(at + 4) };
}

/** A header's encoded words (=?UTF-8?Q?...?= and =?UTF-8?B?...?=) decoded. */
function decodeWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=\s*/g, (_m, _charset: string, enc: string, text: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8'),
  );
}

function decodeBytes(body: string, encoding: string | undefined): Buffer {
  switch ((encoding ?? '7bit').toLowerCase()) {
    case 'quoted-printable':
      return Buffer.from(
        body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
        'latin1',
      );
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64');
    default:
      return Buffer.from(body, 'utf8');
  }
}


/** The leaf parts of a message (itself, when it is not multipart), each with its headers and decoded content. */
function leaves(raw: string): { headers: Map<string, string>; content: Buffer }[] {
  const { headers, body } = split(raw);
  const boundary = /multipart\/[\w-]+;.*boundary="?([^";]+)"?/i.exec(headers.get('content-type') ?? '')?.[1];
  if (!boundary) return [{ headers, content: decodeBytes(body, headers.get('content-transfer-encoding')) }];
  const parts = body.split(`--${boundary}`).slice(1, -1);
  return parts.flatMap((part) => leaves(part.replace(/^\r\n/, '').replace(/\r\n$/, '')));
}

/** The mail's text body and its attachments. */
function contents(raw: string): { text: string; attachments: ReceivedAttachment[] } {
  const parts = leaves(raw);
  const text = parts.find((p) => /^text\/plain/i.test(p.headers.get('content-type') ?? 'text/plain'));
  const attachments = parts
    .filter((p) => /attachment/i.test(p.headers.get('content-disposition') ?? ''))
    .map((p) => ({
      filename: decodeWords(/filename="?([^";]+)"?/i.exec(p.headers.get('content-disposition') ?? '')?.[1] ?? ''),
      contentType: (p.headers.get('content-type') ?? '').split(';')[0]!.trim(),
      content: p.content,
    }));
  return { text: text ? text.content.toString('utf8') : '', attachments };
}

/**
 * A mail server on a real port, as far as Kidogo uses one: it takes every
 * message (no sign-in, no TLS) and keeps it, in memory and, when given a
 * directory, as a .eml file there (where the browser tests read it).
 */
export class FakeSmtp {
  readonly mails: ReceivedMail[] = [];
  url = '';
  private server: SMTPServer | null = null;
  private waiters: (() => void)[] = [];

  constructor(private readonly dir: string | null = null) {}

  async start(): Promise<this> {
    if (this.dir) mkdirSync(this.dir, { recursive: true });
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, done) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          this.take(session.envelope, Buffer.concat(chunks).toString('utf8'));
          done();
        });
      },
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    const { port } = this.server.server.address() as AddressInfo;
    this.url = `smtp://127.0.0.1:${port}`;
    return this;
  }

  private take(envelope: { mailFrom: false | { address: string }; rcptTo: { address: string }[] }, raw: string) {
    const { headers } = split(raw);
    const mail: ReceivedMail = {
      from: envelope.mailFrom ? envelope.mailFrom.address : '',
      to: envelope.rcptTo.map((r) => r.address),
      raw,
      subject: decodeWords(headers.get('subject') ?? ''),
      ...contents(raw),
    };
    this.mails.push(mail);
    if (this.dir) writeFileSync(join(this.dir, `${Date.now()}-${this.mails.length}.eml`), raw);
    for (const w of this.waiters.splice(0)) w();
  }

  /** The first mail to `address` after the first `skip` of them, waiting up to `ms` for it. */
  async mailTo(address: string, ms = 10_000, skip = 0): Promise<ReceivedMail> {
    const deadline = Date.now() + ms;
    for (;;) {
      const mail = this.mails.filter((m) => m.to.includes(address))[skip];
      if (mail) return mail;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`No mail to ${address} within ${ms} ms`);
      await new Promise<void>((r) => {
        const timer = setTimeout(r, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          r();
        });
      });
    }
  }

  /** Lets the process exit while the server still listens (the browser tests' runner). */
  unref(): void {
    this.server?.server.unref();
  }

  close(): Promise<void> {
    return new Promise((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

/** A mail's subject, text body and attachments, from a raw .eml (the browser tests' mailbox). */
export function parseMail(raw: string): { subject: string; text: string; attachments: ReceivedAttachment[] } {
  const { headers } = split(raw);
  return { subject: decodeWords(headers.get('subject') ?? ''), ...contents(raw) };
}
