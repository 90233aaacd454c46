// "Run on a Slurm cluster…" on the Run step (docs/CLI.md §Running on a Slurm cluster): the campaign of
// the Candidates step written as a job array's plan folder through writeSlurmArray, the commands
// shown to copy; the back end's refusal shown in the GUI's words; a cancelled folder dialog (null)
// shows nothing.
import { describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import RunStep from '../../src/renderer/src/steps/RunStep.vue'
import { useWorkloadStore } from '../../src/renderer/src/stores/workload'
import { freshApp } from './fake-api'

const app = freshApp()
const noFlag = (s: string) => expect(s, s).not.toMatch(/(?<![\w-])--(?!parsable|dependency)[a-z]/)

describe('Run on a Slurm cluster…', () => {
  it('writes the plan folder of the campaign and shows the commands that submit it', async () => {
    await useWorkloadStore().importSample()
    const w = mount(RunStep, { global: { plugins: [app.pinia] }, attachTo: document.body })
    expect(w.find('[data-testid="slurm-write"]').exists()).toBe(false)
    await w.get('[data-testid="slurm-open"]').trigger('click')
    await w.get('[data-testid="slurm-shards"]').setValue('4')
    await w.get('[data-testid="slurm-cpus"]').setValue('2')
    await w.get('[data-testid="slurm-write"]').trigger('click')
    await flushPromises()
    expect(app.api.writeSlurmArray).toHaveBeenCalledWith(expect.objectContaining({ workloadId: 'w1' }), { shards: 4, cpusPerTask: 2 })
    const text = w.get('[data-testid="slurm-written"]').text()
    expect(text).toContain('Wrote the plan of 20 cells in 4 array tasks into /scratch/alice/easytune-plan')
    expect(text).toContain('Each task asks for 2 CPUs, 448 MB and 90 min')
    expect(w.get('[data-testid="slurm-commands"]').text()).toBe('jobid=$(sbatch --parsable /scratch/alice/easytune-plan/campaign.sbatch)\nsbatch --dependency=afterok:${jobid%%;*} /scratch/alice/easytune-plan/merge.sbatch')
    // sbatch's own options are the commands to run; no option of EasyTune's command line anywhere
    noFlag(w.text())
    w.unmount()
  })

  it('says why not in the GUI\'s words, and shows nothing when the folder dialog was cancelled', async () => {
    await useWorkloadStore().importSample()
    const w = mount(RunStep, { global: { plugins: [app.pinia] }, attachTo: document.body })
    await w.get('[data-testid="slurm-open"]').trigger('click')
    vi.mocked(app.api.writeSlurmArray).mockRejectedValueOnce(new Error('this campaign has 20 cells: it cannot be split into 30 shards (at most 20); lower --workers'))
    await w.get('[data-testid="slurm-write"]').trigger('click')
    await flushPromises()
    const error = w.get('[data-testid="slurm-error"]').text()
    expect(error).toContain('this campaign has 20 cells: it cannot be split into 30 shards')
    noFlag(error)
    vi.mocked(app.api.writeSlurmArray).mockResolvedValueOnce(null)
    await w.get('[data-testid="slurm-write"]').trigger('click')
    await flushPromises()
    expect(w.find('[data-testid="slurm-written"]').exists()).toBe(false)
    expect(w.find('[data-testid="slurm-error"]').exists()).toBe(false)
    w.unmount()
  })
})
