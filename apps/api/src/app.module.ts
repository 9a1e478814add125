import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from './config/config.js';
import { Calendar } from './common/calendar.js';
import { DatabaseModule } from './database/database.module.js';
import { CryptoModule } from './common/crypto.module.js';
import { AuditModule } from './audit/audit.service.js';
import { StatsModule } from './stats/stats.module.js';
import { AuthModule } from './auth/auth.module.js';
import { HealthModule } from './health/health.module.js';
import { SeedModule } from './seed/seed.module.js';
import { CustomersModule } from './customers/customers.module.js';
import { CustomerDocumentsModule } from './customer-documents/customer-documents.controller.js';
import { ItemsModule } from './items/items.module.js';
import { ProductsModule } from './products/products.module.js';
import { CollectionsModule } from './collections/collections.module.js';
import { TicketsModule } from './tickets/tickets.controller.js';
import { StockModule } from './stock/stock.controller.js';
import { PortalModule } from './portal/portal.controller.js';
import { TemplatesModule } from './templates/templates.module.js';
import { OnboardingModule } from './onboarding/onboarding.module.js';
import { TokensModule } from './tokens/tokens.module.js';
import { OemConfigModule } from './oem-config/oem-config.module.js';
import { SettingsModule } from './settings/settings.module.js';
import { PaymentsModule } from './payments/payments.module.js';
import { MpesaExpressModule } from './mpesa-express/mpesa-express.controller.js';
import { UssdModule } from './ussd/ussd.controller.js';
import { ReceiverModule } from './receiver/receiver.module.js';
import { MessagesModule } from './messages/messages.module.js';
import { OutboxModule } from './outbox/outbox.module.js';
import { RemindersModule } from './reminders/reminders.module.js';
import { WarrantiesModule } from './warranties/warranties.module.js';
import { SmsCampaignsModule } from './sms-campaigns/sms-campaigns.controller.js';
import { CashModule } from './cash/cash.controller.js';
import { ExternalModule } from './external/external.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { ReportsModule } from './reports/reports.module.js';
import { ActivityModule } from './activity/activity.module.js';
import { InvoicesModule } from './invoices/invoices.module.js';
import { AdminModule } from './admin/admin.module.js';
import { UsersModule } from './users/users.module.js';
import { NotificationsModule } from './notifications/notifications.module.js';
import { ConfigEntriesModule } from './config-entries/config-entries.module.js';
import { AuditLogModule } from './audit/audit-log.controller.js';
import { WebhooksModule } from './webhooks/webhooks.controller.js';
import { FindModule } from './find/find.controller.js';

/** Feature modules, in the order their routes appear in the OpenAPI document. */
export const FEATURE_MODULES: Type[] = [
  AuthModule,
  HealthModule,
  SeedModule,
  FindModule,
  CustomersModule,
  CustomerDocumentsModule,
  ItemsModule,
  ProductsModule,
  CollectionsModule,
  TicketsModule,
  StockModule,
  PortalModule,
  TemplatesModule,
  OnboardingModule,
  TokensModule,
  OemConfigModule,
  SettingsModule,
  PaymentsModule,
  ReceiverModule,
  MpesaExpressModule,
  UssdModule,
  MessagesModule,
  OutboxModule,
  RemindersModule,
  WarrantiesModule,
  SmsCampaignsModule,
  CashModule,
  AuditLogModule,
  WebhooksModule,
  ExternalModule,
  MetricsModule,
  ReportsModule,
  ActivityModule,
  InvoicesModule,
  AdminModule,
  UsersModule,
  NotificationsModule,
  ConfigEntriesModule,
];

@Module({})
export class AppModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [DatabaseModule, CryptoModule, AuditModule, StatsModule, ...FEATURE_MODULES],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: Calendar, useValue: new Calendar(config.timeZone) },
      ],
      exports: [APP_CONFIG, Calendar],
    };
  }
}
