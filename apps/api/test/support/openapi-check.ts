import { Ajv, type ValidateFunction } from 'ajv';

type Schema = Record<string, unknown>;
interface Document {
  components?: { schemas?: Record<string, Schema> };
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: Schema }> }> }>>;
}

/**
 * Checks a real reply against what the OpenAPI document promises for it:
 * its status is documented for the operation, its content type is one the
 * document lists for that status, and a JSON body validates against the
 * documented schema (OpenAPI 3.0's `nullable` included).
 */
export class ReplyChecker {
  private readonly ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly doc: Document) {}

  /** A problem in one line, or null when the reply is what the document says. */
  check(method: string, template: string, status: number, contentType: string, body: string): string | null {
    const op = this.doc.paths[template]?.[method.toLowerCase()];
    if (!op) return `${method} ${template} is not in the document`;
    const response = op.responses[String(status)];
    if (!response) return `status ${status} is not documented (documented: ${Object.keys(op.responses).join(', ')})`;
    if (!body.length) return null;
    const type = contentType.split(';')[0]!.trim();
    const media = response.content?.[type];
    if (!media) return `${status} as ${type || 'no content type'} is not documented (documented: ${Object.keys(response.content ?? {}).join(', ') || 'none'})`;
    if (type !== 'application/json' || !media.schema) return null;
    const key = `${method} ${template} ${status}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile({ ...media.schema, components: this.doc.components });
      this.compiled.set(key, validate);
    }
    if (validate(JSON.parse(body))) return null;
    const errors = (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '(body)'} ${e.message}${e.params && 'allowedValues' in e.params ? ` ${JSON.stringify(e.params.allowedValues)}` : ''}`);
    return `${status} body does not match the documented schema: ${errors.join('; ')}`;
  }
}
