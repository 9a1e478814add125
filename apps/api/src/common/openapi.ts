import { ApiExtension, type OpenAPIObject } from '@nestjs/swagger';
import { ZErrorSchema, ZServiceBlockedSchema } from '@kidogo/contracts';
import { createHash } from 'node:crypto';
import { z, type ZodType } from 'zod';

type Json = Record<string, unknown>;

/**
 * Schemas that several request or reply schemas share (a JSON value, which
 * is recursive): zod puts them in the schema's own `definitions`, which an
 * OpenAPI document cannot point into, so toOpenApi moves them here and
 * finishDocument adds them to components.schemas.
 */
const shared = new Map<string, unknown>();

/** Rewrites `#/definitions/X` references to `#/components/schemas/<name>`, in place. */
function relink(node: unknown, names: Map<string, string>): void {
  if (Array.isArray(node)) return node.forEach((n) => relink(n, names));
  if (!node || typeof node !== 'object') return;
  const o = node as Json;
  if (typeof o.$ref === 'string') {
    const m = /^#\/(?:definitions|\$defs)\/(.+)$/.exec(o.$ref);
    if (m && names.has(m[1]!)) o.$ref = `#/components/schemas/${names.get(m[1]!)}`;
  }
  for (const v of Object.values(o)) relink(v, names);
}

/**
 * OpenAPI 3.0 reads `nullable: true` next to an `enum` as "one of these
 * values", so null must be among them for the null the schema allows to be
 * valid (zod leaves it out).
 */
function nullableEnums(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(nullableEnums);
  if (!node || typeof node !== 'object') return;
  const o = node as Json;
  if (o.nullable === true && Array.isArray(o.enum) && !o.enum.includes(null)) o.enum = [...o.enum, null];
  for (const v of Object.values(o)) nullableEnums(v);
}

/** The object schema under refinements and pipes, if the schema is one. */
function objectShape(schema: ZodType): Record<string, ZodType> | null {
  if (schema instanceof z.ZodObject) return schema.shape as Record<string, ZodType>;
  if (schema instanceof z.ZodPipe) return objectShape(schema.in as ZodType);
  return null;
}

/**
 * What a client may leave out, as the schema itself decides it: a field is
 * required when an absent one is refused. Fields with a default filled in by
 * a preprocessing step (search_field, status, page_size) are optional with
 * that default, which zod cannot see through the step.
 */
function inputPresence(schema: ZodType, json: Json): void {
  const shape = objectShape(schema);
  const properties = json.properties as Record<string, Json> | undefined;
  if (!shape || !properties) return;
  const required: string[] = [];
  for (const [name, field] of Object.entries(shape)) {
    const absent = field.safeParse(undefined);
    if (!absent.success) {
      required.push(name);
      continue;
    }
    const d = absent.data;
    const property = properties[name];
    if (property && property.default === undefined && d !== undefined && d !== null && typeof d !== 'object') property.default = d;
  }
  if (required.length) json.required = required;
  else delete json.required;
}

/** The JSON schema of a zod schema, as the OpenAPI document shows a request (input) or a reply (output). */
export function toOpenApi(schema: ZodType, io: 'input' | 'output'): Json {
  const json = z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'any' }) as Json;
  const definitions = { ...(json.definitions as Json | undefined), ...(json.$defs as Json | undefined) };
  delete json.definitions;
  delete json.$defs;
  if (Object.keys(definitions).length) {
    const names = new Map<string, string>();
    for (const [name, def] of Object.entries(definitions)) {
      // zod names a schema without an id "__schema0": name it by its content, so equal ones are kept once.
      const text = JSON.stringify(def);
      names.set(name, name.startsWith('__') ? `Shared${createHash('sha256').update(text).digest('hex').slice(0, 8)}` : name);
    }
    for (const [name, def] of Object.entries(definitions)) {
      relink(def, names);
      shared.set(names.get(name)!, def);
    }
    relink(json, names);
  }
  nullableEnums(json);
  for (const def of shared.values()) nullableEnums(def);
  if (io === 'input') inputPresence(schema, json);
  return json;
}

// ---------------------------------------------------------------------------
// Who may call an operation, as the document shows it. The access decorators
// (Public, Roles, ApiKeyAuth in tenancy.ts) leave these marks on each
// operation, at class or method level; finishDocument reads and removes them.
const PUBLIC_MARK = 'x-kidogo-public';
const ROLES_MARK = 'x-kidogo-roles';
const API_KEY_MARK = 'x-kidogo-api-key';
const OPEN_MARK = 'x-kidogo-open-when-blocked';

export const DocumentPublic = () => ApiExtension(PUBLIC_MARK, true);
export const DocumentRoles = (roles: string[]) => ApiExtension(ROLES_MARK, roles);
export const DocumentApiKey = () => ApiExtension(API_KEY_MARK, true);
export const DocumentOpenWhenBlocked = () => ApiExtension(OPEN_MARK, true);

const ERROR = { $ref: '#/components/schemas/ErrorReply' };
const BLOCKED = { $ref: '#/components/schemas/ServiceBlockedReply' };
const errorContent = (schema: unknown = ERROR) => ({ 'application/json': { schema } });

interface Operation {
  parameters?: Array<{ in: string }>;
  requestBody?: unknown;
  security?: Array<Record<string, string[]>>;
  responses: Record<string, { description: string; content?: unknown }>;
  [mark: string]: unknown;
}

/**
 * The parts of the document that no single endpoint declares: who may call
 * each operation (its security and its 401 and 403), the refusals every
 * endpoint with input can give (400, 413, 404 for a path id), the body of
 * every error reply, and the schemas the operations share.
 */
export function finishDocument(document: OpenAPIObject): OpenAPIObject {
  const components = (document.components ??= {});
  components.schemas = {
    ...components.schemas,
    ErrorReply: toOpenApi(ZErrorSchema, 'output') as never,
    ServiceBlockedReply: toOpenApi(ZServiceBlockedSchema, 'output') as never,
    ...(Object.fromEntries(shared) as Record<string, never>),
  };
  for (const [path, item] of Object.entries(document.paths)) {
    for (const op of Object.values(item as Record<string, Operation>)) {
      if (!op || typeof op !== 'object' || !op.responses) continue;
      const isPublic = op[PUBLIC_MARK] === true;
      const roles = op[ROLES_MARK] as string[] | undefined;
      const apiKey = op[API_KEY_MARK] === true;
      const openWhenBlocked = op[OPEN_MARK] === true;
      delete op[OPEN_MARK];
      delete op[PUBLIC_MARK];
      delete op[ROLES_MARK];
      delete op[API_KEY_MARK];
      const add = (status: number, description: string, schema: unknown = ERROR) => {
        const existing = op.responses[status];
        if (existing) existing.content ??= errorContent(schema);
        else op.responses[status] = { description, content: errorContent(schema) };
      };
      const input = Boolean(op.requestBody) || (op.parameters?.length ?? 0) > 0;
      if (input) add(400, 'Invalid input: `errors` names each wrong field');
      if (op.requestBody) add(413, 'Body over 1 MB (uploads: over MAX_UPLOAD_MB)');
      if (path.includes('{')) add(404, 'Not found (among the caller organization’s records)');
      if (isPublic) {
        delete op.security;
      } else if (apiKey) {
        op.security = [{ 'api-key': [] }];
        add(401, 'Missing or unknown X-API-Key');
        add(403, "The key's organization is suspended or disabled (detail.error SERVICE_SUSPENDED / SERVICE_DISABLED)", {
          anyOf: [BLOCKED, ERROR],
        });
      } else {
        op.security = [{ bearer: [] }];
        add(401, 'No bearer token, or an expired, revoked or invalid one');
        const needs = roles?.length ? `Needs one of the roles: ${roles.join(', ')}` : null;
        if (openWhenBlocked) {
          if (needs) add(403, `${needs} (open to a suspended or disabled organization too: its bills)`);
        } else {
          add(403, `${needs ? `${needs}; or the` : 'The'} caller's organization is suspended or disabled (detail.error SERVICE_SUSPENDED / SERVICE_DISABLED)`, {
            anyOf: [BLOCKED, ERROR],
          });
        }
      }
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) >= 400) response.content ??= errorContent();
      }
    }
  }
  return document;
}
