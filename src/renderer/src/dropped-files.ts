// A folder dropped on the page: the browser hands it over as a directory entry, not as files
// (`dataTransfer.files` holds an empty placeholder for it). This reads the folder's own files the
// way the command line reads a folder (docs/SIMULATOR.md §Several files): regular files at its top
// level, hidden ones (a leading dot) left out, sorted by name; sub-folders are not entered.

/** The part of the File and Directory Entries API used here (typed locally, so tests can fake it). */
export interface DroppedEntry {
  readonly isFile: boolean
  readonly isDirectory: boolean
  readonly name: string
  file?(success: (f: File) => void, failure?: (e: unknown) => void): void
  createReader?(): { readEntries(success: (entries: DroppedEntry[]) => void, failure?: (e: unknown) => void): void }
}

export interface DroppedItem {
  readonly kind: string
  webkitGetAsEntry?(): DroppedEntry | null
}

/** The files of the dropped folder(s), or null when nothing dropped is a folder (use the files). */
export async function filesOfDroppedFolders(items: ArrayLike<DroppedItem> | null | undefined): Promise<File[] | null> {
  const entries = Array.from(items ?? []).filter((i) => i.kind === 'file').map((i) => i.webkitGetAsEntry?.() ?? null)
  if (!entries.some((e) => e?.isDirectory)) return null
  const out: File[] = []
  for (const e of entries) {
    if (!e) continue
    const top = e.isDirectory ? await readAll(e) : [e]
    for (const f of top) if (f.isFile && !f.name.startsWith('.')) out.push(await fileOf(f))
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

/** Every entry of a folder: readEntries answers in batches until it answers an empty one. */
async function readAll(dir: DroppedEntry): Promise<DroppedEntry[]> {
  const reader = dir.createReader?.()
  if (!reader) return []
  const all: DroppedEntry[] = []
  for (;;) {
    const batch = await new Promise<DroppedEntry[]>((resolve, reject) => reader.readEntries(resolve, reject))
    if (batch.length === 0) return all
    all.push(...batch)
  }
}

function fileOf(e: DroppedEntry): Promise<File> {
  return new Promise((resolve, reject) => {
    if (!e.file) { reject(new Error(`${e.name} cannot be read`)); return }
    e.file(resolve, reject)
  })
}
