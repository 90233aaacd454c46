// Column description for SortableTable.vue.
export interface Column<R> {
  key: string
  label: string
  /** The value sorted on (null sorts last). */
  value: (row: R) => number | string | null
  /** The text shown (default: the value). */
  format?: (row: R) => string
  numeric?: boolean
  /** Tooltip of the header (what the column means, with its unit). */
  title?: string
}
