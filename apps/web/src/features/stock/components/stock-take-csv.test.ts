import { describe, expect, it } from 'vitest';
import { stockTakeCsv } from './stock-take-modal';

describe('stockTakeCsv', () => {
  it('lists each device missing, counted elsewhere or of no device, quoting cells with commas or quotes', () => {
    const csv = stockTakeCsv({
      message: '',
      location_id: 3,
      location_name: 'Kisumu Shop',
      expected: 2,
      counted: 3,
      duplicates: 0,
      found: 1,
      missing: [{ serial_number: 'A-1', product_name: 'Solar, 50W', status: 'available', location_name: 'Kisumu Shop', with_customer: false }],
      missing_count: 1,
      elsewhere: [
        { serial_number: 'B-2', product_name: 'Lamp "XL"', status: 'available', location_name: null, with_customer: false },
        { serial_number: 'C-3', product_name: 'Lamp', status: 'assigned', location_name: null, with_customer: true },
      ],
      elsewhere_count: 2,
      unknown: ['ZZ'],
      unknown_count: 1,
    });
    expect(csv.split('\r\n')).toEqual([
      'Serial Number,Product Name,Result,Status,Where Kidogo Has It',
      'A-1,"Solar, 50W",Missing,available,Kisumu Shop',
      'B-2,"Lamp ""XL""","Counted here, elsewhere in Kidogo",available,Not placed',
      'C-3,Lamp,"Counted here, elsewhere in Kidogo",assigned,With a customer',
      'ZZ,,No such device,,',
      '',
    ]);
  });
});
