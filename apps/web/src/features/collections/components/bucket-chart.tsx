import { useTheme } from '@mui/material/styles';
import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';
import { useEffect, useRef } from 'react';

// Only what a bar chart needs (chart.js is tree-shaken; this module is loaded by the collections
// route alone, issue 29).
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

type TBucketChartProps = {
  /** One bar per bucket: its label and value (rupees). */
  bars: ReadonlyArray<{ label: string; rupees: number }>;
  /** What the chart shows, for screen readers (the same figures are in the table beside it). */
  description: string;
  /** Formats a value for the axis and tooltip (₹ with Indian grouping). */
  formatValue: (rupees: number) => string;
};

/**
 * Outstanding money by days-past-due bucket as bars, darker as loans get later. A canvas with a
 * description; the figures themselves are in the table beside it.
 */
const BucketChart = ({ bars, description, formatValue }: TBucketChartProps) => {
  const canvas = useRef<HTMLCanvasElement>(null);
  const theme = useTheme();
  useEffect(() => {
    const context = canvas.current?.getContext('2d');
    if (!context) return undefined;
    const colours = [
      theme.palette.success.main,
      theme.palette.warning.light,
      theme.palette.warning.main,
      theme.palette.error.light,
      theme.palette.error.dark,
    ];
    const chart = new Chart(context, {
      type: 'bar',
      data: {
        labels: bars.map((bar) => bar.label),
        datasets: [{ data: bars.map((bar) => bar.rupees), backgroundColor: colours, borderRadius: 4 }],
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        plugins: {
          tooltip: { callbacks: { label: (item) => formatValue(Number(item.raw)) } },
        },
        scales: {
          y: { beginAtZero: true, ticks: { callback: (value) => formatValue(Number(value)) } },
        },
      },
    });
    return () => chart.destroy();
  }, [bars, theme, formatValue]);
  return (
    <div style={{ position: 'relative', height: 200 }}>
      <canvas ref={canvas} role="img" aria-label={description} data-testid="collections-chart" />
    </div>
  );
};

export default BucketChart;
