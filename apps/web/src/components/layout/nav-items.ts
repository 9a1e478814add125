import type { Role } from '@kidogo/contracts';
import {
  IconBuildingWarehouse,
  IconCash,
  IconCoins,
  IconCreditCard,
  IconFileInvoice,
  IconHistory,
  IconKey,
  IconLayoutDashboard,
  IconMessages,
  IconPackage,
  IconPhoneCall,
  IconReportAnalytics,
  IconSettings,
  IconShieldLock,
  IconSpeakerphone,
  IconTool,
  IconUserPlus,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';
import { paths } from '@/config/paths';

export interface NavItem {
  label: string;
  href: string;
  icon: Icon;
  /** Other path prefixes that belong to this entry (detail screens reached from it). */
  alsoActiveOn?: string[];
  /** Shown only to these roles; everyone when absent. */
  roles?: Role[];
}

/** The sidebar, in the order of spec §2. */
export const NAV_ITEMS: NavItem[] = [
  { label: 'Dashboard', href: paths.app.dashboard.getHref(), icon: IconLayoutDashboard },
  {
    label: 'Customers',
    href: paths.app.customers.getHref(),
    icon: IconUsers,
    alsoActiveOn: ['/customer-payment-details'],
  },
  { label: 'Products', href: paths.app.products.getHref(), icon: IconPackage, alsoActiveOn: ['/device-activity'] },
  // Every role: whoever keeps a shop or drives the truck moves devices; only owners and admins add places.
  { label: 'Stock Locations', href: paths.app.stock.getHref(), icon: IconBuildingWarehouse },
  // Every role: field and collections staff work this list.
  { label: 'Collections', href: paths.app.collections.getHref(), icon: IconPhoneCall },
  // Every role: whoever takes the customer's call opens the ticket, and technicians work their own.
  { label: 'Service Tickets', href: paths.app.tickets.getHref(), icon: IconTool },
  { label: 'Onboarding', href: paths.app.onboarding.getHref(), icon: IconUserPlus },
  { label: 'Payment Templates', href: paths.app.payments.getHref(), icon: IconCreditCard },
  { label: 'Invoices', href: paths.app.invoices.getHref(), icon: IconFileInvoice },
  { label: 'Tokens', href: paths.app.tokens.getHref(), icon: IconKey },
  { label: 'Messages', href: paths.app.messages.getHref(), icon: IconMessages },
  // Owners and admins: one text to a group of customers is theirs to send (the API refuses staff).
  { label: 'Bulk SMS', href: paths.app.smsCampaigns.getHref(), icon: IconSpeakerphone, roles: ['owner', 'admin', 'super_admin'] },
  // Every role: staff see the cash they hold; owners and admins record its handovers.
  { label: 'Cash in Hand', href: paths.app.cash.getHref(), icon: IconCash },
  // Owners and admins: they pay the agents (the API refuses staff).
  { label: 'Agent Commissions', href: paths.app.commissions.getHref(), icon: IconCoins, roles: ['owner', 'admin', 'super_admin'] },
  { label: 'Reports', href: paths.app.reports.getHref(), icon: IconReportAnalytics },
  { label: 'Activity Log', href: paths.app.auditLog.getHref(), icon: IconHistory, roles: ['owner', 'admin', 'super_admin'] },
  { label: 'Settings', href: paths.app.settings.getHref(), icon: IconSettings },
  { label: 'Super Admin', href: paths.app.superAdmin.getHref(), icon: IconShieldLock, roles: ['super_admin'] },
];

export function navItemsFor(role: Role | null | undefined): NavItem[] {
  return NAV_ITEMS.filter((item) => !item.roles || (role != null && item.roles.includes(role)));
}

export function isNavItemActive(item: NavItem, pathname: string): boolean {
  return [item.href, ...(item.alsoActiveOn ?? [])].some(
    (prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`),
  );
}
