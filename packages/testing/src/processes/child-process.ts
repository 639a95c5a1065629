import { spawn, spawnSync, type ChildProcess } from 'node:child_process'

/** A process started by a test; `stop()` kills it (and is safe to call twice). */
export interface TestProcess {
  readonly child: ChildProcess
  /** Everything it wrote (stdout and stderr), for failure messages. */
  output(): string
  /** Resolves when `text` appears in its output; rejects if it exits first or after `timeoutMs`. */
  waitForOutput(text: string | RegExp, timeoutMs?: number): Promise<void>
  /** Sends `signal` (SIGTERM by default) and resolves when it exited (SIGKILL after 5 s). */
  stop(signal?: NodeJS.Signals): Promise<void>
  readonly exited: Promise<number | null>
}

/**
 * Fails with a message naming the Debian package when `command` is not installed: a test that
 * needs a real server never skips silently.
 */
export function requireCommand(command: string, debianPackage: string): string {
  const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' })
  const path = found.stdout.trim()
  if (found.status !== 0 || !path) {
    throw new Error(
      `\`${command}\` is not installed: install the Debian package \`${debianPackage}\` ` +
        `(apt-get install -y ${debianPackage}; it is listed in scripts/debian-packages.txt).`
    )
  }
  return path
}

/** Starts a process whose output is kept; it is killed when the test process exits. */
export function startProcess(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}
): TestProcess {
  const child = spawn(command, args, {
    env: options.env ?? process.env,
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const listeners = new Set<() => void>()
  const onData = (chunk: Buffer) => {
    output += chunk.toString()
    for (const listener of [...listeners]) listener()
  }
  child.stdout!.on('data', onData)
  child.stderr!.on('data', onData)
  const exited = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode)
    child.once('exit', (code) => resolve(code))
    child.once('error', (error) => {
      output += `\n${String(error)}`
      resolve(null)
    })
  })
  const killOnExit = () => child.kill('SIGKILL')
  process.once('exit', killOnExit)
  void exited.then(() => {
    process.off('exit', killOnExit)
    for (const listener of [...listeners]) listener()
  })
  let done = false
  void exited.then(() => (done = true))
  return {
    child,
    exited,
    output: () => output,
    waitForOutput(text, timeoutMs = 10_000) {
      const seen = () => (typeof text === 'string' ? output.includes(text) : text.test(output))
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (seen()) {
            finish()
            resolve()
          } else if (done) {
            finish()
            reject(new Error(`${command} exited before printing ${String(text)}:\n${output}`))
          }
        }
        const timer = setTimeout(() => {
          finish()
          reject(new Error(`${command} did not print ${String(text)} in time:\n${output}`))
        }, timeoutMs)
        const finish = () => {
          clearTimeout(timer)
          listeners.delete(check)
        }
        listeners.add(check)
        check()
      })
    },
    async stop(signal = 'SIGTERM') {
      if (done) return
      child.kill(signal)
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
      await exited
      clearTimeout(timer)
    },
  }
}
