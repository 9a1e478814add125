import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { formatMoney } from '@/components/ui/money';
import { useOrganizationCurrency } from '@/lib/organization-currency';
import type { Report } from '../api/types';

const TYPE_COLORS = ['violet.6', 'teal.6', 'orange.6', 'blue.6', 'pink.6', 'gray.6'];

const num = (v: unknown) => (typeof v === 'number' ? v : Number(v ?? 0) || 0);

function monthLabel(month: string) {
  const d = new Date(`${String(month).slice(0, 7)}-01T00:00:00`);
  return Number.isNaN(d.getTime()) ? String(month) : new Intl.DateTimeFormat(undefined, { month: 'short', year: 'numeric' }).format(d);
}

function dayLabel(day: string) {
  const d = new Date(`${String(day).slice(0, 10)}T00:00:00`);
  return Number.isNaN(d.getTime()) ? String(day) : new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' }).format(d);
}

/** Revenue per month, or tokens per day stacked by type; nothing for the customer report. */
export function ReportChart({ report }: { report: Report }) {
  const currency = useOrganizationCurrency();
  if (report.report === 'revenue') {
    const data = report.rows.map((r) => ({ month: monthLabel(String(r.month ?? '')), Revenue: num(r.revenue) }));
    if (!data.some((d) => d.Revenue > 0)) return null;
    return (
      <BarChart
        h={260}
        data={data}
        dataKey="month"
        series={[{ name: 'Revenue', color: 'kidogo.6' }]}
        tickLine="none"
        gridAxis="y"
        valueFormatter={(v) => formatMoney(v, currency)}
        yAxisProps={{ width: 80, tickFormatter: (v: number) => new Intl.NumberFormat(undefined, { notation: 'compact' }).format(v) }}
        aria-label="Revenue per month"
      />
    );
  }
  if (report.report === 'tokens') {
    const types = [...new Set(report.rows.map((r) => String(r.token_type ?? 'other')))];
    const byDay = new Map<string, Record<string, number | string>>();
    for (const r of report.rows) {
      const day = String(r.day ?? '').slice(0, 10);
      const entry = byDay.get(day) ?? { day: dayLabel(day) };
      const type = String(r.token_type ?? 'other');
      entry[type] = num(entry[type]) + num(r.tokens);
      byDay.set(day, entry);
    }
    const data = [...byDay.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, v]) => v);
    if (!data.length) return null;
    return (
      <BarChart
        h={260}
        data={data}
        dataKey="day"
        type="stacked"
        withLegend
        series={types.map((t, i) => ({ name: t, label: t.replace(/_/g, ' '), color: TYPE_COLORS[i % TYPE_COLORS.length]! }))}
        tickLine="none"
        gridAxis="y"
        yAxisProps={{ allowDecimals: false, width: 40 }}
        aria-label="Tokens per day"
      />
    );
  }
  return null;
}
