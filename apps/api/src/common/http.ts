import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The request and reply objects handlers and guards see (Fastify's). */
export type HttpRequest = FastifyRequest;
export type HttpReply = FastifyReply;

/** The path of a request without its query string. */
export const pathOf = (req: { url: string }): string => {
  const q = req.url.indexOf('?');
  return q < 0 ? req.url : req.url.slice(0, q);
};

/**
 * Takes the reply over from Fastify for a body written as it is produced
 * (CSV exports, PDFs, report pages): status 200, the given type and, for a
 * download, its file name. Headers already given to the reply (CORS,
 * @Header) are carried over, since Fastify no longer sends them itself.
 */
export function streamReply(reply: HttpReply, contentType: string, filename?: string): ServerResponse {
  const headers = reply.getHeaders();
  reply.hijack();
  const res = reply.raw;
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) res.setHeader(k, v);
  res.statusCode = 200;
  res.setHeader('Content-Type', contentType);
  if (filename) res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
  return res;
}
