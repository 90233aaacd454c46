// The offline report (HTML, and PDF through headless Chromium): see html.ts and pdf.ts.
export { renderReportHtml, defaultExports, escapeHtml, scriptJson, REPORT_CSP, type ReportOptions } from './html'
export { printToPdf, findChromium, type PdfOutcome } from './pdf'
