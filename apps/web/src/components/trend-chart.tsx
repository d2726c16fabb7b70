const WIDTH = 400;
const HEIGHT = 180;
const PAD = { top: 12, right: 12, bottom: 26, left: 30 };

type TrendPoint = { key: string; value: number; /** Shown under the axis and in the point's tooltip. */ dateText: string };

/**
 * A small inline SVG line chart (no chart library in the bundle): one labelled image, so the page
 * must also give the numbers in a table that screen readers read.
 */
export function TrendChart({
  points,
  min,
  max,
  ticks,
  label,
  testId,
  valueText = (value) => String(value),
  height = HEIGHT,
}: {
  points: TrendPoint[];
  min: number;
  max: number;
  ticks: number[];
  label: string;
  testId?: string;
  valueText?: (value: number) => string;
  height?: number;
}) {
  const innerWidth = WIDTH - PAD.left - PAD.right;
  const innerHeight = height - PAD.top - PAD.bottom;
  const span = max - min || 1;
  const x = (index: number) => PAD.left + (points.length === 1 ? innerWidth / 2 : (index * innerWidth) / (points.length - 1));
  const y = (value: number) => PAD.top + innerHeight - ((value - min) / span) * innerHeight;
  const path = points
    .map((point, index) => `${index === 0 ? 'M' : 'L'}${x(index).toFixed(1)},${y(point.value).toFixed(1)}`)
    .join(' ');

  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${height}`}
      width="100%"
      role="img"
      aria-label={label}
      style={{ maxWidth: 560, display: 'block' }}
      data-testid={testId}
    >
      {ticks.map((tick) => (
        <g key={tick} aria-hidden>
          <line
            x1={PAD.left}
            x2={WIDTH - PAD.right}
            y1={y(tick)}
            y2={y(tick)}
            stroke="var(--mantine-color-gray-3)"
            strokeDasharray={tick === min ? undefined : '3 3'}
          />
          <text x={PAD.left - 6} y={y(tick) + 4} textAnchor="end" fontSize="12" fill="var(--mantine-color-dimmed)">
            {tick}
          </text>
        </g>
      ))}
      {points.length > 0 ? (
        <text x={PAD.left} y={height - 6} fontSize="12" fill="var(--mantine-color-dimmed)" aria-hidden>
          {points[0]!.dateText}
        </text>
      ) : null}
      {points.length > 1 ? (
        <text x={WIDTH - PAD.right} y={height - 6} fontSize="12" textAnchor="end" fill="var(--mantine-color-dimmed)" aria-hidden>
          {points.at(-1)!.dateText}
        </text>
      ) : null}
      <path d={path} fill="none" stroke="var(--mantine-color-teal-6)" strokeWidth="2" aria-hidden />
      {points.map((point, index) => (
        <circle key={point.key} cx={x(index)} cy={y(point.value)} r="3.5" fill="var(--mantine-color-teal-6)" aria-hidden>
          <title>{`${point.dateText}: ${valueText(point.value)}`}</title>
        </circle>
      ))}
    </svg>
  );
}
