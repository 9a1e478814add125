import '@mantine/charts/styles.css';
import { BarChart, LineChart } from '@mantine/charts';
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

/** The portfolio report's shares drawn per cohort: the share repaid by each age, then overall. */
const PORTFOLIO_SERIES = [
  { name: 'repaid_3m', label: 'By Month 3', color: 'cyan.3' },
  { name: 'repaid_6m', label: 'By Month 6', color: 'cyan.6' },
  { name: 'repaid_12m', label: 'By Month 12', color: 'cyan.9' },
  { name: 'repaid', label: 'Repaid to Date', color: 'orange.6' },
];

/**
 * The cohorts side by side: for each month of sale, the share of its contract
 * value repaid by month 3, 6 and 12 and to date. A line that falls towards
 * the newer cohorts says customers are repaying slower than they used to.
 * A cohort too young for an age has no point on that line.
 */
function PortfolioChart({ report }: { report: Report }) {
  const series = PORTFOLIO_SERIES.filter((s) => report.rows.some((r) => typeof r[s.name] === 'number'));
  // One cohort is a single point: the table says it all.
  if (!series.length || report.rows.length < 2) return null;
  const data = report.rows.map((r) => ({
    month: monthLabel(String(r.month ?? '')),
    ...Object.fromEntries(series.map((s) => [s.name, typeof r[s.name] === 'number' ? r[s.name] : null])),
  }));
  return (
    <LineChart
      h={260}
      data={data}
      dataKey="month"
      series={series}
      withLegend
      // In the order of PORTFOLIO_SERIES (by age), not sorted by name.
      legendProps={{ itemSorter: null }}
      connectNulls={false}
      tickLine="none"
      gridAxis="y"
      valueFormatter={(v) => `${v.toLocaleString(undefined, { maximumFractionDigits: 1 })}%`}
      yAxisProps={{ width: 48, domain: [0, 100], tickFormatter: (v: number) => `${v}%` }}
      aria-label="Share repaid per month of sale"
    />
  );
}

/** Revenue per month, tokens per day stacked by type, or the portfolio's cohorts; nothing for the customer report. */
export function ReportChart({ report }: { report: Report }) {
  const currency = useOrganizationCurrency();
  if (report.report === 'portfolio') return <PortfolioChart report={report} />;
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
