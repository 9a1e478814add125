import { Prisma } from '../generated/prisma/client.js';

/**
 * An agent's commission, as SQL: per_device × devices given + percent % of
 * revenue, rounded to cents (numeric round: half away from zero). The Agent
 * report and the settings' example both use it, so they never disagree.
 */
export const commissionSql = (perDevice: Prisma.Sql, percent: Prisma.Sql, devices: Prisma.Sql, revenue: Prisma.Sql): Prisma.Sql =>
  Prisma.sql`round(${perDevice} * ${devices} + ${revenue} * ${percent} / 100, 2)`;
