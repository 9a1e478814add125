import { Prisma } from '../generated/prisma/client.js';

/**
 * Models whose rows belong to one organization. Every query on them must name
 * the organization; the extension below refuses one that does not, so a
 * forgotten filter fails loudly in tests instead of leaking another
 * organization's rows. Cross-organization reads for the super admin go
 * through DatabaseService.platform, on purpose and by name.
 */
export const ORG_OWNED_MODELS = new Set<string>([
  'Customer',
  'Item',
  'PaymentTemplate',
  'TemplateAssignment',
  'ItemAssignment',
  'Payment',
  'TokenLog',
  'Message',
  'InboundRequest',
  'ProductOemConfig',
  'ConfigEntry',
  'Notification',
  'ImportJob',
  'PaymentProvider',
  'OemCredential',
  'CustomerStat',
  'ItemStat',
  'PaymentStat',
  'TokenStat',
  'ListCount',
  'MetricSnapshot',
  'OpenAccount',
  'CollectionContact',
  'CreditReminder',
  'WebhookEndpoint',
  'WebhookDelivery',
  'ApiToken',
  'ServiceTicket',
  'TicketCount',
  'UserNotification',
  'CustomerDocument',
  'PaymentRequest',
  'StockLocation',
  'StockMovement',
  'CustomerPortalLink',
  'DeviceSwap',
  'DeviceDiscount',
  'ProductWarranty',
  'SmsCampaign',
  'CashHandover',
  'CashCollectorTotal',
  'CommissionPayout',
  'UssdSession',
]);

export class TenantScopeError extends Error {
  constructor(model: string, operation: string) {
    super(`${model}.${operation} without organization_id: organization-owned data must be scoped`);
  }
}

function hasOrg(value: unknown): boolean {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  if (typeof v.organization_id === 'string' && v.organization_id.length > 0) return true;
  // Compound unique keys: { organization_id_id: { organization_id, id } }.
  return Object.entries(v).some(
    ([k, inner]) =>
      k.startsWith('organization_id_') &&
      inner !== null &&
      typeof inner === 'object' &&
      typeof (inner as Record<string, unknown>).organization_id === 'string',
  );
}

export function assertScoped(model: string, operation: string, args: Record<string, unknown> | undefined): void {
  if (!ORG_OWNED_MODELS.has(model)) return;
  const a = args ?? {};
  let ok: boolean;
  switch (operation) {
    case 'create':
      ok = hasOrg(a.data);
      break;
    case 'createMany':
    case 'createManyAndReturn':
      ok = Array.isArray(a.data) ? a.data.length > 0 && a.data.every(hasOrg) : hasOrg(a.data);
      break;
    case 'upsert':
      ok = hasOrg(a.where) && hasOrg(a.create);
      break;
    default:
      ok = hasOrg(a.where);
  }
  if (!ok) throw new TenantScopeError(model, operation);
}

export const tenantGuardExtension = Prisma.defineExtension({
  name: 'tenant-guard',
  query: {
    $allModels: {
      $allOperations({ model, operation, args, query }) {
        assertScoped(model, operation, args as Record<string, unknown>);
        return query(args);
      },
    },
  },
});
