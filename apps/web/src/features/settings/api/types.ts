// The settings shapes are the API's contract (packages/contracts/src/settings.ts).
export { COMMISSION_PER_DEVICE_MAX, PHONE_COUNTRIES, REMINDER_DAYS_BEFORE_MAX, SMS_PROVIDERS } from '@kidogo/contracts';
export type {
  ApiKeyReply,
  AuthReply,
  ChangePasswordInput,
  CommissionSettings,
  CommissionSettingsInput,
  CreateOrgUserInput,
  PhoneCountry,
  PhoneCountryCode,
  PhoneCountryInput,
  PhoneCountryUpdate,
  ReminderSettings,
  ReminderSettingsInput,
  SmsProvider,
  SmsProviderInput,
  SmsProviderName,
  UpdateOrgUserInput,
  User as TeamUser,
  UserList as TeamUserList,
} from '@kidogo/contracts';

/** The config of PUT /settings/sms-provider as this form sends it. */
export interface SmsProviderConfig {
  username?: string;
  api_key?: string;
  sender_id?: string;
  base_url?: string;
  url?: string;
  secret?: string;
}
