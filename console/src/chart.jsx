import { useEffect, useRef } from 'preact/hooks';
import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';

// only what a bar chart needs: Chart.js is tree-shaken to these
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

/**
 * Tells the page what was drawn: once Chart.js has rendered, the canvas carries the values in
 * `data-rendered` (what the browser spec compares with the API's figures).
 */
const renderedValues = {
  id: 'renderedValues',
  afterRender(chart) {
    chart.canvas.dataset.rendered = JSON.stringify(chart.data.datasets[0]?.data ?? []);
  },
};

/** The console's blue; Chart.js colours in its options (the CSP forbids inline style, not this). */
const BAR = '#0b5cad';
const AXIS = '#57606a';

/**
 * A bar chart drawn by Chart.js on a canvas, one bar per entry of `bars` (`{label, value,
 * detail?}`). The canvas is one image to a screen reader; its numbers are in a visually hidden
 * table beside it.
 */
export function BarChart({ title, testid, labelHeading, valueHeading, detailHeading, bars }) {
  const canvas = useRef(undefined);
  const chart = useRef(undefined);
  useEffect(() => {
    if (!canvas.current) return;
    const data = { labels: bars.map((b) => b.label), datasets: [{ label: valueHeading, data: bars.map((b) => b.value), backgroundColor: BAR, maxBarThickness: 48 }] };
    if (chart.current) {
      chart.current.data = data;
      chart.current.update();
      return;
    }
    chart.current = new Chart(canvas.current, {
      type: 'bar',
      data,
      plugins: [renderedValues],
      options: {
        animation: false,
        responsive: true,
        aspectRatio: 4,
        plugins: { legend: { display: false }, tooltip: { enabled: true } },
        scales: {
          x: { ticks: { color: AXIS, autoSkip: true, maxRotation: 0 }, grid: { display: false } },
          y: { beginAtZero: true, ticks: { color: AXIS, precision: 0 } },
        },
      },
    });
  }, [bars, valueHeading]);
  // the chart goes with its canvas (when there is nothing to draw, or the page closes)
  useEffect(() => {
    if (bars.length === 0 && chart.current) {
      chart.current.destroy();
      chart.current = undefined;
    }
  }, [bars.length]);
  useEffect(() => () => chart.current?.destroy(), []);
  return (
    <figure class="chart" data-testid={testid}>
      <figcaption>{title}</figcaption>
      {bars.length === 0 ? (
        <p>Nothing in this time range.</p>
      ) : (
        <div class="chart-area">
          <canvas ref={canvas} role="img" aria-label={title} />
        </div>
      )}
      <table class="visually-hidden">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">{labelHeading}</th>
            <th scope="col">{valueHeading}</th>
            {detailHeading && <th scope="col">{detailHeading}</th>}
          </tr>
        </thead>
        <tbody>
          {bars.map((b, i) => (
            <tr key={i}>
              <th scope="row">{b.label}</th>
              <td>{b.value}</td>
              {detailHeading && <td>{b.detail}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
