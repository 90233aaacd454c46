import { main } from '../../src/cli/main'
import type { Io } from '../../src/cli/output'

export interface CliRun { code: number; stdout: string; stderr: string }

/** Runs the CLI in-process with captured output (no build needed). */
export async function runCli(args: string[]): Promise<CliRun> {
  let stdout = ''
  let stderr = ''
  const io: Io = { out: (s) => { stdout += s }, err: (s) => { stderr += s }, tty: false }
  const code = await main(args, io)
  return { code, stdout, stderr }
}
