import type { AdminOrganization, OrganizationStatusReply } from '@kidogo/contracts';
import { iso } from '../metrics/period.js';

export interface OrganizationRow {
  organization_id: string;
  external_key: string | null;
  name: string | null;
  app: AdminOrganization['app'];
  status: AdminOrganization['status'];
  disabled_reason: string | null;
  phone_country_code: string;
  status_changed_at: Date | null;
  created_at: Date;
  user_count: number;
  last_activity: Date | null;
}

export const OrganizationsMapper = {
  organization(r: OrganizationRow): AdminOrganization {
    return {
      organization_id: r.organization_id,
      external_key: r.external_key,
      name: r.name,
      app: r.app,
      status: r.status,
      disabled_reason: r.disabled_reason,
      phone_country_code: r.phone_country_code as AdminOrganization['phone_country_code'],
      status_changed_at: iso(r.status_changed_at),
      user_count: r.user_count,
      last_activity: iso(r.last_activity),
      created_at: r.created_at.toISOString(),
    };
  },

  status(o: { id: string; status: AdminOrganization['status']; disabled_reason: string | null; status_changed_at: Date | null }): OrganizationStatusReply {
    return { organization_id: o.id, status: o.status, disabled_reason: o.disabled_reason, status_changed_at: iso(o.status_changed_at) };
  },
};
