// Types of layers.js (the one table of the src/ layers and their allowed imports).
export type Entry = string | { layer?: string; name?: string; typeOnly?: boolean }
export interface Layer {
  role: string
  imports: Entry[]
  packages: Entry[]
  node: boolean
  globals: string[]
  why: string
}
export declare const LAYERS: Record<string, Layer>
export declare const LAYER_NAMES: string[]
export declare function allowed(from: string, target: string, kind: 'layer' | 'package' | 'builtin'): 'yes' | 'type' | 'no'
export declare function layersMarkdown(): string
