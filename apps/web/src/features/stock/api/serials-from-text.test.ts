import { describe, expect, it } from 'vitest';
import { serialsFromText } from './serials-from-text';

describe('serialsFromText', () => {
  it('reads one per line, as a scanner types them, and separated by commas, semicolons, tabs or spaces', () => {
    expect(serialsFromText('SHS-1\r\nSHS-2\n\n  SHS-3  \n')).toEqual(['SHS-1', 'SHS-2', 'SHS-3']);
    expect(serialsFromText('A1, A2;A3\tA4 A5')).toEqual(['A1', 'A2', 'A3', 'A4', 'A5']);
  });

  it('keeps repeats, for the stock take to count them once and say so', () => {
    expect(serialsFromText('X\nX\nY')).toEqual(['X', 'X', 'Y']);
  });

  it('takes the serial number column of a CSV file with a header, quotes and commas in other cells included', () => {
    const csv = 'Product Name,Serial Number,Location\n"Solar, 50W",SHS-1,Kisumu\nLamp,"SHS-2",\n,,\nLamp,SHS-3,"Nairobi ""Main"""';
    expect(serialsFromText(csv)).toEqual(['SHS-1', 'SHS-2', 'SHS-3']);
    expect(serialsFromText('serial_number\nA\nB')).toEqual(['A', 'B']);
    expect(serialsFromText('serial_number,status\nA,available\nB,assigned')).toEqual(['A', 'B']);
  });

  it('gives nothing for blank text', () => {
    expect(serialsFromText('  \n , ; ')).toEqual([]);
  });
});
