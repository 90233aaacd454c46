// The Time limits step's "Deploy on Slurm: order by predicted runtime" (EasyTuneApi.exportPredictedOrder;
// docs/PREDICTIONS.md §Deployment): the files of `easytune export <log> --predicted-order` for an
// imported workload. The fidelity is not replayed here (five simulations of the whole log would hold
// the back end's thread): the 'predicted-order' analysis measured it on the engine workers, and it
// comes back with the request, checked against the workload and the options it must describe.
import { exportPredictedOrder, ExportInputError } from '../core/export/index'
import type { Workload } from '../core/workload/import'
import type { ExportBundle, PredictedExportOptions } from '../shared/api'
import { ApiInputError } from '../shared/errors'

export function predictedOrderBundle(w: Workload, o: PredictedExportOptions): ExportBundle {
  const f = o.fidelity
  if (f.jobs !== w.jobs.count || f.machineProcs !== w.machineProcs) throw new ApiInputError(`the fidelity was measured on another log (${f.jobs} jobs on ${f.machineProcs} processors, this one has ${w.jobs.count} on ${w.machineProcs}): compute it again`)
  if (f.threshold !== o.threshold || f.historyDays !== o.historyDays) throw new ApiInputError('the fidelity was measured with another waiting-time threshold or history: compute it again')
  let maxRequested = 0
  for (let j = 0; j < w.jobs.count; j++) if (w.jobs.requested[j]! > maxRequested) maxRequested = w.jobs.requested[j]!
  try {
    return exportPredictedOrder({ slurmVersion: o.slurmVersion, currentConf: o.currentConf, fidelity: f, maxRequested, historyDays: o.historyDays, threshold: o.threshold })
  } catch (e) {
    if (e instanceof ExportInputError) throw new ApiInputError(e.message)
    throw e
  }
}
