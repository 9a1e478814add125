import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, redirect, type RouteObject } from 'react-router-dom';
import { FullPageLoader } from '@/components/ui/full-page-loader';
import { paths } from '@/config/paths';
import { getAuthToken } from '@/lib/storage';
import { RequireAuth } from './routes/require-auth';
import { RootRoute } from './routes/root';

/** Every screen is its own chunk: the landing and login pages do not carry the back office. */
const lazyRoute = (load: () => Promise<{ default: ComponentType }>) => async () => ({
  Component: (await load()).default,
});

const screens: RouteObject[] = [
  { path: paths.app.dashboard.path, lazy: lazyRoute(() => import('@/features/dashboard/routes/dashboard')) },
  { path: paths.app.customers.path, lazy: lazyRoute(() => import('@/features/customers/routes/customers')) },
  { path: paths.app.payments.path, lazy: lazyRoute(() => import('@/features/payment-templates/routes/payment-templates')) },
  { path: paths.app.tokens.path, lazy: lazyRoute(() => import('@/features/tokens/routes/tokens')) },
  { path: paths.app.reports.path, lazy: lazyRoute(() => import('@/features/reports/routes/reports')) },
  { path: paths.app.settings.path, lazy: lazyRoute(() => import('@/features/settings/routes/settings')) },
  { path: paths.app.onboarding.path, lazy: lazyRoute(() => import('@/features/onboarding/routes/onboarding')) },
  { path: paths.app.messages.path, lazy: lazyRoute(() => import('@/features/messages/routes/messages')) },
  { path: paths.app.smsCampaigns.path, lazy: lazyRoute(() => import('@/features/sms-campaigns/routes/sms-campaigns')) },
  { path: paths.app.cash.path, lazy: lazyRoute(() => import('@/features/cash/routes/cash')) },
  { path: paths.app.commissions.path, lazy: lazyRoute(() => import('@/features/commissions/routes/commissions')) },
  { path: paths.app.products.path, lazy: lazyRoute(() => import('@/features/products/routes/products')) },
  { path: paths.app.stock.path, lazy: lazyRoute(() => import('@/features/stock/routes/stock')) },
  { path: paths.app.collections.path, lazy: lazyRoute(() => import('@/features/collections/routes/collections')) },
  { path: paths.app.tickets.path, lazy: lazyRoute(() => import('@/features/tickets/routes/tickets')) },
  { path: paths.app.invoices.path, lazy: lazyRoute(() => import('@/features/invoices/routes/invoices')) },
  { path: paths.app.auditLog.path, lazy: lazyRoute(() => import('@/features/audit-log/routes/audit-log')) },
  { path: paths.app.notifications.path, lazy: lazyRoute(() => import('@/features/notifications/routes/notifications')) },
  {
    path: paths.app.deviceActivity.path,
    lazy: lazyRoute(() => import('@/features/device-activity/routes/device-activity')),
  },
  {
    path: paths.app.customerPaymentDetails.path,
    lazy: lazyRoute(() => import('@/features/customer-payment-details/routes/customer-payment-details')),
  },
  { path: paths.app.superAdmin.path, lazy: lazyRoute(() => import('@/features/super-admin/routes/super-admin')) },
];

export const routes: RouteObject[] = [
  {
    Component: RootRoute,
    HydrateFallback: FullPageLoader,
    children: [
      {
        path: paths.home.path,
        // Start-up: a stored authToken opens the back office, not the landing page.
        loader: () => (getAuthToken() ? redirect(paths.app.dashboard.getHref()) : null),
        lazy: lazyRoute(() => import('@/features/landing/routes/landing')),
      },
      { path: paths.login.path, lazy: lazyRoute(() => import('@/features/auth/routes/login')) },
      { path: paths.forgotPassword.path, lazy: lazyRoute(() => import('@/features/auth/routes/forgot-password')) },
      { path: paths.resetPassword.path, lazy: lazyRoute(() => import('@/features/auth/routes/reset-password')) },
      { path: paths.customerPage.path, lazy: lazyRoute(() => import('@/features/customer-portal/routes/customer-page')) },
      {
        Component: RequireAuth,
        children: [{ lazy: lazyRoute(() => import('./routes/app-layout')), children: screens }],
      },
      { path: '*', element: <Navigate to={paths.app.dashboard.getHref()} replace /> },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
