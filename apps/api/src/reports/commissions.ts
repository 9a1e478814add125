import { NO_AGENT } from '@kidogo/contracts';
import { Prisma } from '../generated/prisma/client.js';
import { SUCCESSFUL, periodSql, type Period } from '../metrics/period.js';

/**
 * An agent's commission, as SQL: per_device × devices given + percent % of
 * revenue, rounded to cents (numeric round: half away from zero). The Agent
 * report, the commission payouts and the settings' example all use it, so
 * they never disagree.
 */
export const commissionSql = (perDevice: Prisma.Sql, percent: Prisma.Sql, devices: Prisma.Sql, revenue: Prisma.Sql): Prisma.Sql =>
  Prisma.sql`round(${perDevice} * ${devices} + ${revenue} * ${percent} / 100, 2)`;

/** The sales agent of the customer `c` as the Agent report names them: agent_id trimmed, NO_AGENT for none. */
export const agentOfSql = Prisma.sql`coalesce(nullif(btrim(c.agent_id), ''), ${NO_AGENT})`;

/** Only the customers `c` of one agent (all of them when `agent` is undefined). */
const onlyAgent = (agent: string | undefined) => (agent === undefined ? Prisma.empty : Prisma.sql`AND btrim(c.agent_id) = ${agent}`);

/**
 * (agent, n): the devices given in the period to each agent's customers, as
 * the Agent report and the commission count them. A device swap's
 * replacement is no device given (README "Device swaps"), nor an account
 * brought over from another system (README "Bringing accounts over").
 */
export const devicesGivenByAgentSql = (orgId: string, period: Period, agent?: string): Prisma.Sql => Prisma.sql`
  SELECT ${agentOfSql} AS agent, count(*)::int AS n FROM item_assignments a
  JOIN customers c ON c.organization_id = a.organization_id AND c.customer_id = a.customer_id
  WHERE a.organization_id = ${orgId} AND a.swapped_from_item_id IS NULL AND a.brought_over_at IS NULL AND a.transferred_from_customer_id IS NULL ${periodSql(Prisma.sql`a.assigned_at`, period)} ${onlyAgent(agent)}
  GROUP BY 1`;

/**
 * (agent, n, revenue): the successful payments in the period of each agent's
 * customers (the payments' (organization, paid_at) range, each joined to its
 * customer by key).
 */
export const paymentsByAgentSql = (orgId: string, period: Period, agent?: string): Prisma.Sql => Prisma.sql`
  SELECT ${agentOfSql} AS agent, count(*)::int AS n, sum(p.amount) AS revenue FROM payments p
  JOIN customers c ON c.organization_id = p.organization_id AND c.customer_id = p.customer_id
  WHERE p.organization_id = ${orgId} AND p.status IN ${SUCCESSFUL} ${periodSql(Prisma.sql`p.paid_at`, period)} ${onlyAgent(agent)}
  GROUP BY 1`;
