import { describe, expect, it } from 'vitest'
import { expandHostlist, HostlistError } from '../../src/core/util/hostlist'

describe('Slurm hostlists', () => {
  it('pads by the low bound and keeps list order', () => {
    expect(expandHostlist('a[01-03,20]')).toEqual(['a01', 'a02', 'a03', 'a20'])
    expect(expandHostlist('r[8-11]')).toEqual(['r8', 'r9', 'r10', 'r11'])
  })
  it('expands several groups as a product, left group outermost', () => {
    expect(expandHostlist('rack[1-2]n[1-3]')).toEqual(['rack1n1', 'rack1n2', 'rack1n3', 'rack2n1', 'rack2n2', 'rack2n3'])
  })
  it('splits at commas outside brackets and keeps suffixes', () => {
    expect(expandHostlist('n1,gpu[1-2]-ib,x')).toEqual(['n1', 'gpu1-ib', 'gpu2-ib', 'x'])
  })
  it('reads pending jobs as no host', () => {
    expect(expandHostlist('None assigned')).toEqual([])
    expect(expandHostlist('')).toEqual([])
  })
  it('refuses malformed and oversized lists', () => {
    for (const bad of ['a[3-1]', 'a[1-', 'a]', 'a[[1]]', 'a[x]', 'a,,b', 'a[-1]']) expect(() => expandHostlist(bad), bad).toThrow(HostlistError)
    expect(() => expandHostlist('a[1-2000000]')).toThrow(/more than/)
    expect(() => expandHostlist('a[1-1000]b[1-1000]c[1-10]')).toThrow(/more than/)
  })
})
