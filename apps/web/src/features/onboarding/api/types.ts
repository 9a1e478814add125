// The fields of the API's contracts (customers, items, templates, onboarding) this screen reads.
import type { Customer, Item, PaymentTemplate } from '@kidogo/contracts';

export type { OffsetPagination, OnboardingInput, OnboardingReply } from '@kidogo/contracts';

export type CustomerOption = Pick<Customer, 'customer_id' | 'customer_name' | 'phone_contact'> &
  Partial<Pick<Customer, 'id_number' | 'county'>>;

export type ItemOption = Pick<Item, 'serial_number' | 'product_name' | 'manufacturer'> &
  Partial<Pick<Item, 'item_id' | 'product_oem' | 'status' | 'is_assigned' | 'price' | 'location_name'>>;

export type TemplateOption = Pick<PaymentTemplate, 'template_id' | 'template_name' | 'daily_price' | 'activation_price' | 'grace_period_days'> &
  Partial<Pick<PaymentTemplate, 'deposit_made'>> & { currency?: string | null };

/** A page of options and how many there are in all. */
export interface OptionPage<T> {
  data: T[];
  total: number;
}
