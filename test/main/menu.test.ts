// Native menus, the About box and the citations (src/main/menu.ts, app-info.ts), and the PDF
// guard helpers (pdf.ts).
import { describe, expect, it, vi } from 'vitest'
import type { MenuItemConstructorOptions } from 'electron'

vi.mock('electron', async () => (await import('./fake-electron')).electronModule())
const { menuTemplate, recentLabel, MENU_COMMANDS } = await import('../../src/main/menu')
const { aboutText, desktopAppInfo, RESEARCH_CITATIONS } = await import('../../src/main/app-info')
const { isAllowedReportRequest } = await import('../../src/main/pdf')

function actions() {
  return { command: vi.fn(), openRecent: vi.fn(), clearRecent: vi.fn(), about: vi.fn(), openLink: vi.fn() }
}
const opts = { platform: 'linux' as const, devTools: false, archiveUrl: 'https://www.cs.huji.ac.il/labs/parallel/workload/' }
const items = (m: MenuItemConstructorOptions) => m.submenu as MenuItemConstructorOptions[]
const find = (list: MenuItemConstructorOptions[], label: RegExp) => list.find((i) => i.label && label.test(i.label.replace(/&/g, '')))!
const click = (i: MenuItemConstructorOptions) => (i.click as () => void)()

describe('menus', () => {
  it('File has New/Open/Recent/Save/Save As/Import/Export, each sending its command', () => {
    const a = actions()
    const file = items(menuTemplate(a, [], opts)[0]!)
    const labels: [RegExp, string][] = [[/^New project/, 'new-project'], [/^Open project/, 'open-project'], [/^Save project$/, 'save-project'], [/^Save project as/, 'save-project-as'], [/^Import log/, 'import-log'], [/^Export/, 'export']]
    for (const [label, command] of labels) {
      click(find(file, label))
      expect(a.command).toHaveBeenLastCalledWith(command)
    }
    expect(a.command.mock.calls.map(([c]) => c).sort()).toEqual([...MENU_COMMANDS].sort())
    expect(items(find(file, /Open recent/))[0]).toMatchObject({ label: 'No recent projects', enabled: false })
  })

  it('Recent lists the projects (main keeps the paths) and can be cleared', () => {
    const a = actions()
    const recent = items(find(items(menuTemplate(a, ['/home/u/a & b.easytune', '/srv/x.easytune'], opts)[0]!), /Open recent/))
    expect(recent[0]!.label).toBe('&1 /home/u/a && b.easytune')
    click(recent[1]!)
    expect(a.openRecent).toHaveBeenCalledWith('/srv/x.easytune')
    click(find(recent, /Clear/))
    expect(a.clearRecent).toHaveBeenCalled()
    expect(recentLabel('/home/u/p.easytune', '/home/u')).toBe('~/p.easytune')
  })

  it('Help has About and the archive link; devtools only when asked', () => {
    const a = actions()
    const t = menuTemplate(a, [], opts)
    const help = items(t[t.length - 1]!)
    click(find(help, /About EasyTune/))
    expect(a.about).toHaveBeenCalled()
    click(find(help, /Parallel Workloads Archive/))
    expect(a.openLink).toHaveBeenCalledWith(opts.archiveUrl)
    const view = (m: MenuItemConstructorOptions[]) => items(m.find((i) => i.label === '&View')!)
    expect(view(t).some((i) => i.role === 'toggleDevTools')).toBe(false)
    expect(view(menuTemplate(a, [], { ...opts, devTools: true })).some((i) => i.role === 'toggleDevTools')).toBe(true)
  })
})

describe('About', () => {
  it('shows the versions and cites the research and the bundled log', () => {
    const info = desktopAppInfo({ version: '0.1.0', mode: 'browser', versions: { easytune: '0.1.0', electron: '45.4.1', chrome: '142.0', node: '22.20.0' }, citations: ['D. G. Feitelson, D. Tsafrir, D. Krakov, "Experience with using the Parallel Workloads Archive", JPDC 2014.'] })
    expect(info.mode).toBe('desktop')
    expect(info.citations.slice(0, RESEARCH_CITATIONS.length)).toEqual(RESEARCH_CITATIONS)
    expect(info.citations.some((c) => /Malinowsky/.test(c))).toBe(true)
    expect(info.citations.some((c) => /Feitelson/.test(c))).toBe(true)
    const { message, detail } = aboutText(info)
    expect(message).toBe('EasyTune 0.1.0')
    for (const s of ['Electron 45.4.1', 'Chromium 142.0', 'Node.js 22.20.0', 'Reis', 'Tuning EASY-Backfilling Queues', 'KTH']) expect(detail).toContain(s)
  })
})

describe('PDF window', () => {
  it('lets the report window load only the report and inline data', () => {
    const url = 'app://report/abc.html'
    expect(isAllowedReportRequest(url, url)).toBe(true)
    expect(isAllowedReportRequest('data:image/png;base64,AAAA', url)).toBe(true)
    for (const u of ['https://example.org/x.png', 'file:///etc/passwd', 'app://easytune/index.html', 'app://report/other.html']) expect(isAllowedReportRequest(u, url)).toBe(false)
  })
})
