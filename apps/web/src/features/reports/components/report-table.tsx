import { Anchor, ScrollArea, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { formatDate } from '@/components/ui/date-text';
import { formatMoney } from '@/components/ui/money';
import { PaginationControl } from '@/components/ui/pagination-control';
import { useOrganizationCurrency } from '@/lib/organization-currency';
import type { Report, ReportCell, ReportColumn } from '../api/types';
import { REPORTS } from './report-catalog';

export const REPORT_PAGE_SIZE = 20;

/**
 * One cell as the column's type reads: money with 2 decimals in the
 * organization's currency, numbers grouped, dates in the user's locale. An
 * empty cell is a dash, money too: the API leaves an amount out only when
 * there is none to give (nothing expected of a customer without a plan, the
 * sum of requests in several currencies), which is not zero.
 */
export function formatCell(value: ReportCell | undefined, column: ReportColumn, currency: string | null = null): string {
  if (value === null || value === undefined || value === '') return '—';
  switch (column.type) {
    case 'money':
      return formatMoney(value, currency);
    case 'number':
      return typeof value === 'number' ? value.toLocaleString() : String(value);
    case 'date':
      return formatDate(value);
    case 'percent':
      return formatPercent(value);
    default:
      return column.key === 'month' ? monthText(String(value)) : String(value).replace(/_/g, ' ');
  }
}

/** A share in percent, to one decimal: 12.5 → "12.5%". */
export function formatPercent(value: ReportCell): string {
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? `${n.toLocaleString(undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 })}%` : '—';
}

function monthText(month: string) {
  const d = new Date(`${month.slice(0, 7)}-01T00:00:00`);
  return /^\d{4}-\d{2}/.test(month) && !Number.isNaN(d.getTime())
    ? new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric' }).format(d)
    : month;
}

const totalLabel = (rows: number) => `Total (${rows.toLocaleString()} ${rows === 1 ? 'row' : 'rows'})`;

/** Money, counts and shares: the columns that line up on the right and have a total. */
const isFigure = (c: ReportColumn) => c.type === 'money' || c.type === 'number' || c.type === 'percent';
const alignOf = (c: ReportColumn) => (isFigure(c) ? 'right' : 'left');

/**
 * The report's rows 20 at a time, with a totals row for the money and number
 * columns. With `paging`, the report holds only the page's rows (the server
 * pages it) and `totals.rows` counts them all.
 */
export function ReportTable({ report, paging }: { report: Report; paging?: { page: number; onPageChange: (page: number) => void } }) {
  const currency = useOrganizationCurrency();
  const [localPage, setLocalPage] = useState(1);
  const page = paging?.page ?? localPage;
  const rows = paging ? report.rows : report.rows.slice((page - 1) * REPORT_PAGE_SIZE, page * REPORT_PAGE_SIZE);
  const count = paging ? Number(report.totals.rows ?? 0) : report.rows.length;
  const hasTotals = report.columns.some((c) => isFigure(c) && report.totals[c.key] !== undefined);
  // The cells that lead to the screen to act on them (an agent's devices out of credit: their Collections worklist).
  const cellLink = REPORTS.find((info) => info.kind === report.report)?.cellLink;

  if (!count) {
    return (
      <Text c="dimmed" ta="center" py="xl">
        No data for this period
      </Text>
    );
  }
  return (
    <>
      <ScrollArea type="auto">
        <Table miw={Math.max(480, report.columns.length * 120)} striped aria-label={`${report.report.replace(/_/g, ' ')} report`}>
          <Table.Thead>
            <Table.Tr>
              {report.columns.map((c) => (
                <Table.Th key={c.key} ta={alignOf(c)}>
                  {c.label}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r, i) => (
              <Table.Tr key={i}>
                {report.columns.map((c) => {
                  const text = formatCell(r[c.key], c, currency);
                  const link = cellLink?.(r, c.key);
                  return (
                    <Table.Td key={c.key} ta={alignOf(c)} style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }} tt={c.key === 'token_type' || c.key === 'status' ? 'capitalize' : undefined}>
                      {link ? (
                        <Anchor component={Link} to={link.to} title={link.title} size="sm" fw={600}>
                          {text}
                        </Anchor>
                      ) : (
                        text
                      )}
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Tbody>
          {hasTotals ? (
            <Table.Tfoot>
              <Table.Tr fw={700}>
                {report.columns.map((c, i) => (
                  <Table.Th key={c.key} ta={alignOf(c)} style={{ whiteSpace: 'nowrap' }}>
                    {i === 0
                      ? totalLabel(Number(report.totals.rows ?? report.rows.length))
                      : isFigure(c) && c.key !== 'customer_id' && report.totals[c.key] !== undefined
                        ? formatCell(report.totals[c.key], c, currency)
                        : ''}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Tfoot>
          ) : null}
        </Table>
      </ScrollArea>
      <PaginationControl page={page} total={count} pageSize={REPORT_PAGE_SIZE} onPageChange={paging?.onPageChange ?? setLocalPage} itemLabel="rows" />
    </>
  );
}
