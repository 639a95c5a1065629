import { expect, it } from 'vitest'
import { requireCommand, startProcess, startRedisServer } from '../src/index.js'

it('a missing binary fails with the Debian package to install, never a skip', () => {
  expect(() => requireCommand('openmic-no-such-command', 'openmic-package')).toThrow(
    /install the Debian package `openmic-package` \(apt-get install -y openmic-package/
  )
})

it('a started process is stopped, and its output read', async () => {
  const child = startProcess(process.execPath, [
    '-e',
    'console.log("ready"); setInterval(() => {}, 1000)',
  ])
  await child.waitForOutput('ready')
  await child.stop()
  expect(child.child.exitCode !== null || child.child.signalCode !== null).toBe(true)
  await expect(child.waitForOutput('never')).rejects.toThrow(/exited before printing never/)
})

it('redis-server keeps acknowledged writes across a kill and a restart', async () => {
  const redis = await startRedisServer()
  try {
    const { Socket } = await import('node:net')
    const command = (text: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = new Socket()
        socket.once('error', reject)
        socket.connect(redis.port, '127.0.0.1', () => socket.write(text))
        socket.once('data', (data) => {
          resolve(data.toString())
          socket.destroy()
        })
      })
    expect(await command('SET k v\r\n')).toBe('+OK\r\n')
    await redis.kill()
    await redis.restart()
    expect(await command('GET k\r\n')).toBe('$1\r\nv\r\n')
  } finally {
    await redis.stop()
  }
})
