import {
  applyDecorators,
  BadRequestException,
  createParamDecorator,
  HttpCode,
  SetMetadata,
  type ExecutionContext,
} from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiParam, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { z, type ZodType } from 'zod';
import type { HttpRequest } from './http.js';
import { toOpenApi } from './openapi.js';

export interface EndpointSpec {
  summary: string;
  description?: string;
  body?: ZodType;
  query?: ZodType;
  params?: ZodType;
  response?: ZodType;
  /** Success status; defaults to 200 (201 must be asked for). */
  status?: number;
  /** Other replies worth documenting: status → description. */
  errors?: Record<number, string>;
  /** Non-JSON replies (text/csv, application/pdf, text/html). */
  produces?: string;
  /** multipart/form-data body with these file fields (and the text fields of `body`, which the handler parses itself). */
  files?: string[];
  /** Body also accepted form-encoded. */
  formEncoded?: boolean;
}

const ENDPOINT_SPEC = 'kidogo:endpoint';

/**
 * Declares an endpoint once: its zod schemas validate the request (through
 * @ValidBody / @ValidQuery / @ValidParams) and the same schemas describe it
 * in the OpenAPI document, so the two cannot drift.
 */
export function Endpoint(spec: EndpointSpec): MethodDecorator {
  const decorators: Array<MethodDecorator> = [
    SetMetadata(ENDPOINT_SPEC, spec),
    ApiOperation({ summary: spec.summary, description: spec.description }),
    HttpCode(spec.status ?? 200),
  ];
  if (spec.files?.length) {
    // The text fields sent beside the files (a body schema with a files list) are documented as parts too.
    const fields = spec.body ? (toOpenApi(spec.body, 'input') as { properties?: Record<string, unknown>; required?: string[] }) : {};
    const properties: Record<string, unknown> = { ...fields.properties };
    for (const f of spec.files) properties[f] = { type: 'string', format: 'binary' };
    const required = [...spec.files, ...(fields.required ?? [])];
    decorators.push(ApiConsumes('multipart/form-data'), ApiBody({ schema: { type: 'object', properties: properties as never, required } }));
  } else if (spec.body) {
    if (spec.formEncoded) decorators.push(ApiConsumes('application/x-www-form-urlencoded', 'application/json'));
    decorators.push(ApiBody({ schema: toOpenApi(spec.body, 'input') as never }));
  }
  for (const [kind, schema] of [
    ['query', spec.query],
    ['params', spec.params],
  ] as const) {
    if (!schema) continue;
    const json = toOpenApi(schema, 'input') as { properties?: Record<string, unknown>; required?: string[] };
    for (const [name, s] of Object.entries(json.properties ?? {})) {
      const required = json.required?.includes(name) ?? false;
      const description = (s as { description?: string }).description;
      decorators.push(
        kind === 'query'
          ? ApiQuery({ name, required, schema: s as never, description })
          : ApiParam({ name, required: true, schema: s as never, description }),
      );
    }
  }
  // A reply that is a file or a page (CSV, PDF, HTML) is documented as such, beside the JSON one if there is one.
  const content: Record<string, { schema: unknown }> = {};
  if (spec.response) content['application/json'] = { schema: toOpenApi(spec.response, 'output') };
  for (const type of spec.produces?.split(',').map((t) => t.trim()) ?? []) {
    if (type !== 'application/json') content[type] = { schema: type === 'text/html' ? { type: 'string' } : { type: 'string', format: 'binary' } };
  }
  decorators.push(
    ApiResponse({
      status: spec.status ?? 200,
      description: spec.produces ? `Success: ${spec.produces}` : 'Success',
      ...(Object.keys(content).length ? { content: content as never } : {}),
    }),
  );
  for (const [status, description] of Object.entries(spec.errors ?? {})) {
    decorators.push(ApiResponse({ status: Number(status), description }));
  }
  return applyDecorators(...decorators);
}

export class ValidationFailed extends BadRequestException {
  constructor(readonly fieldErrors: { field: string; message: string }[]) {
    const text = fieldErrors.map((e) => (e.field ? `${e.field}: ${e.message}` : e.message)).join('; ');
    super({ detail: text, message: text, errors: fieldErrors });
  }
}

/** A key as a field name: an empty key as "". */
const keyName = (k: string) => (k === '' ? '""' : k);

export function fieldErrorsOf(error: z.ZodError, prefix?: string): { field: string; message: string }[] {
  return error.issues.map((i) => {
    const path = i.path.map((k) => keyName(String(k))).join('.');
    const field = [prefix, path].filter(Boolean).join('.');
    let message = i.message;
    if (i.code === 'invalid_type' && /received undefined/.test(i.message)) message = 'is required';
    if (i.code === 'unrecognized_keys') {
      // Named with their path: "config.foo", not a bare "foo" that reads like a top-level field;
      // an empty key as "" ('config.""'), not dropped into a "config" that reads like the field itself.
      const named = (k: string) => [prefix, path].filter(Boolean).concat(k === '' ? '""' : k).join('.');
      return { field: (i.keys ?? []).map(named).join(', '), message: 'is not an accepted field' };
    }
    if (i.code === 'invalid_value' && 'values' in i) {
      message = `must be one of ${(i.values as unknown[]).map(String).join(', ')}`;
    }
    return { field, message };
  });
}

/** Parses with a schema or throws the 400 that names each field. */
export function parseOrThrow<T extends ZodType>(schema: T, value: unknown, prefix?: string): z.output<T> {
  const r = schema.safeParse(value);
  if (!r.success) throw new ValidationFailed(fieldErrorsOf(r.error, prefix));
  return r.data;
}

/** Deeper than any request shape of the API; deeper JSON is refused before it reaches a parser or a jsonb column. */
export const MAX_INPUT_DEPTH = 20;
/**
 * Text that PostgreSQL cannot store (NUL) or that is not Unicode (a lone
 * UTF-16 surrogate, which JSON allows and jsonb refuses): refused as a 400
 * naming the field instead of failing in the database as a 500.
 */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const BAD_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Walks a parsed body, query or parameter object (without recursion, so
 * hostile nesting cannot overflow the stack) and throws the 400 that names
 * the first bad field: text PostgreSQL cannot hold, nesting deeper than
 * MAX_INPUT_DEPTH, or a "__proto__", "toString" or "valueOf" key.
 */
export function assertCleanInput(value: unknown, root: string): void {
  // An empty key is named "" (as fieldErrorsOf names it), not left as nothing between two dots.
  const name = (path: string[]) => path.map(keyName).join('.') || root;
  const stack: { v: unknown; path: string[] }[] = [{ v: value, path: [] }];
  while (stack.length) {
    const { v, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (BAD_TEXT.test(v)) throw new ValidationFailed([{ field: name(path), message: 'must not contain NUL characters or broken Unicode' }]);
      continue;
    }
    if (!v || typeof v !== 'object') continue;
    if (path.length >= MAX_INPUT_DEPTH) {
      throw new ValidationFailed([{ field: name(path.slice(0, 1)), message: `is nested too deeply (at most ${MAX_INPUT_DEPTH} levels)` }]);
    }
    for (const [k, child] of Object.entries(v)) {
      if (BAD_TEXT.test(k)) throw new ValidationFailed([{ field: name(path), message: 'has a key with NUL characters or broken Unicode' }]);
      // JSON.parse makes "__proto__" an own key; copied by assignment (as Prisma and zod records
      // do) it would replace an object's prototype instead.
      if (k === '__proto__') throw new ValidationFailed([{ field: name([...path, k]), message: 'is not an accepted field' }]);
      // An own "toString" or "valueOf" that is text, not a function, makes the object impossible to compare or
      // print: zod's length checks (which run even on a value of the wrong type) then throw instead of failing.
      if (k === 'toString' || k === 'valueOf') throw new ValidationFailed([{ field: name([...path, k]), message: 'is not an accepted field' }]);
      stack.push({ v: child, path: [...path, k] });
    }
  }
}

function specOf(ctx: ExecutionContext): EndpointSpec {
  const spec = Reflect.getMetadata(ENDPOINT_SPEC, ctx.getHandler()) as EndpointSpec | undefined;
  if (!spec) throw new Error(`${ctx.getClass().name}.${ctx.getHandler().name} has no @Endpoint spec`);
  return spec;
}

export const ValidBody = createParamDecorator((_: unknown, ctx: ExecutionContext) => {
  const spec = specOf(ctx);
  if (!spec.body) throw new Error(`${ctx.getHandler().name}: @ValidBody without a body schema`);
  const body = ctx.switchToHttp().getRequest<HttpRequest>().body;
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ValidationFailed([{ field: 'body', message: 'must be a JSON object' }]);
  }
  assertCleanInput(body, 'body');
  return parseOrThrow(spec.body, body);
});

export const ValidQuery = createParamDecorator((_: unknown, ctx: ExecutionContext) => {
  const spec = specOf(ctx);
  if (!spec.query) throw new Error(`${ctx.getHandler().name}: @ValidQuery without a query schema`);
  const query = ctx.switchToHttp().getRequest<HttpRequest>().query ?? {};
  assertCleanInput(query, 'query');
  return parseOrThrow(spec.query, query);
});

export const ValidParams = createParamDecorator((_: unknown, ctx: ExecutionContext) => {
  const spec = specOf(ctx);
  if (!spec.params) throw new Error(`${ctx.getHandler().name}: @ValidParams without a params schema`);
  const params = ctx.switchToHttp().getRequest<HttpRequest>().params ?? {};
  assertCleanInput(params, 'path');
  return parseOrThrow(spec.params, params);
});

/** A positive integer path id, e.g. /customers/{id}. */
export const zPathId = (name: string) =>
  z.object({
    [name]: z
      .string()
      .regex(/^\d{1,10}$/, { error: 'must be a positive whole number' })
      .transform(Number)
      .refine((n) => n > 0 && n <= 2_147_483_647, { error: 'must be a positive whole number' }),
  });
