// A folder dropped on the page (browser mode): its own files, by name, hidden ones and sub-folders
// left out, as the command line reads a folder; plain files dropped are left to the file list.
import { describe, expect, it } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import FileDropZone from '../../src/renderer/src/components/FileDropZone.vue'
import { filesOfDroppedFolders, type DroppedEntry, type DroppedItem } from '../../src/renderer/src/dropped-files'

const fileEntry = (name: string): DroppedEntry => ({ isFile: true, isDirectory: false, name, file: (ok) => ok(new File([`${name}\n`], name)) })
/** A folder whose reader answers in the given batches, then an empty one (as browsers do). */
function folder(name: string, batches: DroppedEntry[][]): DroppedEntry {
  return {
    isFile: false, isDirectory: true, name,
    createReader: () => { let i = 0; return { readEntries: (ok) => ok(batches[i++] ?? []) } },
  }
}
const item = (e: DroppedEntry): DroppedItem => ({ kind: 'file', webkitGetAsEntry: () => e })

describe('a dropped folder', () => {
  const logs = folder('logs', [[fileEntry('2024-06-02.log'), fileEntry('.DS_Store')], [folder('old', [[fileEntry('x.log')]]), fileEntry('2024-06-01.log')]])

  it('gives its top-level files by name, without hidden files or sub-folders, across reader batches', async () => {
    const files = await filesOfDroppedFolders([item(logs)])
    expect(files!.map((f) => f.name)).toEqual(['2024-06-01.log', '2024-06-02.log'])
    expect(await files![0].text()).toBe('2024-06-01.log\n')
  })

  it('is not involved when only files are dropped', async () => {
    expect(await filesOfDroppedFolders([item(fileEntry('a.swf')), item(fileEntry('b.swf'))])).toBeNull()
    expect(await filesOfDroppedFolders(undefined)).toBeNull()
  })

  it('reaches the Import step as one list of files (the drop zone emits them once)', async () => {
    const w = mount(FileDropZone, { props: { label: 'Drop', multiple: true } })
    const drop = new Event('drop', { bubbles: true, cancelable: true })
    Object.defineProperty(drop, 'dataTransfer', { value: { files: [new File([''], 'logs')], items: [item(logs)] } })
    w.element.dispatchEvent(drop)
    await flushPromises()
    expect(w.emitted('files')).toHaveLength(1)
    expect((w.emitted('files')![0][0] as File[]).map((f) => f.name)).toEqual(['2024-06-01.log', '2024-06-02.log'])
    expect(w.emitted('file')).toBeUndefined()
    w.unmount()
  })
})
