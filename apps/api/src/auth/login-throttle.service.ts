import { Injectable } from '@nestjs/common';
import { DatabaseService } from '../database/database.service.js';
import { Errors } from '../common/errors.js';

const WINDOW_MS = 15 * 60 * 1000;
const LOCK_MS = 15 * 60 * 1000;
const MAX_PER_USERNAME = 5;
const MAX_PER_ADDRESS = 30;

/**
 * Temporary lockout after repeated failed sign-ins, per username and per
 * address. Kept in PostgreSQL so several API processes share one count.
 */
@Injectable()
export class LoginThrottleService {
  constructor(private readonly database: DatabaseService) {}

  private keys(username: string, ip: string) {
    return [
      { key: `u:${username.toLowerCase()}`, max: MAX_PER_USERNAME },
      { key: `ip:${ip}`, max: MAX_PER_ADDRESS },
    ];
  }

  async assertAllowed(username: string, ip: string): Promise<void> {
    const now = Date.now();
    const rows = await this.database.platform.authThrottle.findMany({
      where: { key: { in: this.keys(username, ip).map((k) => k.key) } },
    });
    const locked = rows.filter((r) => r.locked_until && r.locked_until.getTime() > now);
    if (locked.length) {
      const until = Math.max(...locked.map((r) => r.locked_until!.getTime()));
      const seconds = Math.ceil((until - now) / 1000);
      const minutes = Math.ceil(seconds / 60);
      throw Errors.tooMany(
        `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        seconds,
      );
    }
  }

  async recordFailure(username: string, ip: string): Promise<void> {
    const now = new Date();
    for (const { key, max } of this.keys(username, ip)) {
      // One statement: concurrent failures from several processes all count.
      const windowStart = new Date(now.getTime() - WINDOW_MS).toISOString();
      const lockUntil = new Date(now.getTime() + LOCK_MS).toISOString();
      const at = now.toISOString();
      await this.database.platform.$executeRaw`
        INSERT INTO auth_throttles (key, failures, first_failure_at, locked_until)
        VALUES (${key}, 1, ${at}::timestamptz, NULL)
        ON CONFLICT (key) DO UPDATE SET
          failures = CASE WHEN auth_throttles.first_failure_at < ${windowStart}::timestamptz
                          THEN 1 ELSE auth_throttles.failures + 1 END,
          first_failure_at = CASE WHEN auth_throttles.first_failure_at < ${windowStart}::timestamptz
                          THEN ${at}::timestamptz ELSE auth_throttles.first_failure_at END,
          locked_until = CASE WHEN auth_throttles.first_failure_at >= ${windowStart}::timestamptz
                               AND auth_throttles.failures + 1 >= ${max}::int
                          THEN ${lockUntil}::timestamptz ELSE NULL END`;
    }
  }

  async recordSuccess(username: string): Promise<void> {
    await this.database.platform.authThrottle.deleteMany({ where: { key: `u:${username.toLowerCase()}` } });
  }
}
