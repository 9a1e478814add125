import { errorMessage } from '@/lib/api-client';
/**
 * Client-side checks with the API's own zod schemas (@kidogo/contracts), so a
 * form refuses exactly what the server would and says it the same way.
 */

/** What a form needs of a contract schema (kept structural: the web app does not depend on zod itself). */
export interface ContractSchema {
  safeParse(value: unknown): { success: boolean; error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

/**
 * The problems a contract schema finds in a form's values, first per field, as
 * sentences under the form's labels: {password: 'Password must be at least 8
 * characters'}. Empty when the values pass. Fields without a label are
 * skipped (the form cannot show them).
 */
export function schemaErrors<F extends string>(schema: ContractSchema, values: unknown, labels: Record<F, string>): Partial<Record<F, string>> {
  const result = schema.safeParse(values);
  const errors: Partial<Record<F, string>> = {};
  for (const issue of result.success ? [] : (result.error?.issues ?? [])) {
    const field = String(issue.path[0] ?? '') as F;
    if (field in labels && !errors[field]) errors[field] = `${labels[field]} ${issue.message}`;
  }
  return errors;
}

/** A 400's field messages ({field: 'is incorrect'}) as sentences under the form's labels. */
export function labelledFieldErrors<F extends string>(fields: Record<string, string>, labels: Record<F, string>): Partial<Record<F, string>> {
  const errors: Partial<Record<F, string>> = {};
  for (const [field, message] of Object.entries(fields)) {
    if (field in labels) errors[field as F] = `${labels[field as F]} ${message}`;
  }
  return errors;
}

/**
 * What a form's red box says after the API refused it: nothing when every field the 400 named is shown under its
 * input (`shown`), else the API's words (or `fallback`): a 409, a 403, a field the form does not have.
 */
export function refusalBeside(error: unknown, fields: Record<string, string>, shown: object, fallback: string): string | null {
  const all = Object.keys(fields).every((f) => f in shown);
  return Object.keys(shown).length > 0 && all ? null : errorMessage(error, fallback);
}
