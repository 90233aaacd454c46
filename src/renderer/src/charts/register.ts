// Registers only the chart.js parts the wizard draws: scatter (with lines, as src/shared/charts.ts
// builds every results chart), bar (histograms), linear and logarithmic axes, legend, tooltip, title.
import {
  BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineElement, LogarithmicScale, PointElement,
  ScatterController, Title, Tooltip,
} from 'chart.js'

let done = false

export function registerCharts(): typeof Chart {
  if (!done) {
    Chart.register(ScatterController, BarController, PointElement, LineElement, BarElement, LinearScale, LogarithmicScale, CategoryScale, Legend, Tooltip, Title)
    Chart.defaults.font.family = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif'
    done = true
  }
  return Chart
}
