import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { parseMail } from '../../apps/api/test/support/fake-smtp.js';

/** The latest mail the API sent to `address`, from the fake mail server's folder (global-setup.ts), waiting for it. */
export async function mailTo(address: string): Promise<ReturnType<typeof parseMail>> {
  const dir = process.env.E2E_MAIL_DIR!;
  const to = new RegExp(`^To: ${address.replace(/[.+]/g, '\\$&')}\\r?$`, 'm');
  let found: ReturnType<typeof parseMail> | undefined;
  await expect
    .poll(
      () => {
        for (const file of readdirSync(dir).sort()) {
          const raw = readFileSync(join(dir, file), 'utf8');
          if (to.test(raw)) found = parseMail(raw);
        }
        return found !== undefined;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return found!;
}
