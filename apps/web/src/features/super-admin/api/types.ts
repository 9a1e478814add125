// The API's contracts (packages/contracts: organizations, users, platform, invoices),
// plus the request shapes as this console sends them.
import type { NotifyInput, OrganizationActivity, OrganizationDetail, OrganizationStatusReply } from '@kidogo/contracts';

export type {
  AdminCreateUserInput,
  AdminOrganization,
  AdminTokenLog,
  CreateOrganizationInput,
  FeatureFlag,
  FeatureFlagInput,
  Invoice as ConsoleInvoice,
  InvoiceSettings as GlobalInvoiceSettings,
  InvoiceStats as ConsoleInvoiceStats,
  OemCredential,
  OemCredentialInput,
  OffsetPagination as Pagination,
  OrganizationCounts,
  OrganizationDetail,
  OrganizationList,
  OrganizationListQuery,
  OrganizationStats,
  OrganizationStatusUpdate,
  OrgPlan,
  PaymentProvider,
  PaymentProviderInput,
  Plan,
  PlanInput,
  User as AdminUser,
  UserList,
} from '@kidogo/contracts';

export type ActivityEntry = OrganizationActivity['data'][number];
export type OrgUserSummary = OrganizationDetail['users'][number];

/** PUT /admin/organizations/{id}/status answers the new status with its success message. */
export type OrganizationStatusChange = OrganizationStatusReply & { message: string };

export type NotificationLevel = NotifyInput['level'];
/** The contract's NOTIFICATION_LEVELS, repeated so the console does not load the schemas at run time. */
export const NOTIFICATION_LEVELS: readonly NotificationLevel[] = ['info', 'warning', 'critical'];

/** A value of a secret object (provider config, OEM credentials). */
export type SecretValue = string | number | boolean | null;

/** The Token Logs tab's filter. */
export interface AdminTokenLogQuery {
  limit: number;
  offset: number;
  organization_id?: string;
  status_filter?: 'success' | 'error';
}

/** The console shape of POST /admin/invoices. */
export interface ConsoleCreateInvoiceInput {
  organization_id: string;
  customer_name: string;
  customer_email: string;
  customer_phone?: string;
  amount: number;
  description?: string | null;
  due_date?: string | null;
  status: 'pending' | 'paid' | 'overdue' | 'cancelled';
}
