// Benchmark client process: N WebSocket calls on loopback, each doing turns of 1 s of audio in
// 100 ms chunks at real-time pace, then StopSpeaking; measures StopSpeaking -> first audio frame.
// A call speaks again once the answer has played (its audio at real-time pace from its first
// frame) and its Message came: a server that sends the Message before the audio (as Micdrop's
// does), as the answer starts playing, or once heard, gets the same turns.
import WebSocket from 'ws'

const [port, count] = process.argv.slice(2).map(Number)
const CHUNK = Buffer.alloc(3200, 3)
const latencies = []
let measuring = false
let running = false
let turns = 0
let windowCpu

function call(index) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}`)
    let stopAt = 0
    let waiting = false
    /** When the audio received so far will have played, at real-time pace. */
    let playedAt = 0
    /** The assistant's Message of this turn came. */
    let answered = false
    const state = { socket, startTurn }
    function startTurn() {
      if (!running) return
      answered = false
      socket.send('StartSpeaking')
      let sent = 0
      const next = () => {
        if (!running || socket.readyState !== WebSocket.OPEN) return
        socket.send(CHUNK)
        if (++sent < 10) return void setTimeout(next, 100)
        setTimeout(() => {
          if (!running || socket.readyState !== WebSocket.OPEN) return
          waiting = true
          stopAt = performance.now()
          socket.send('StopSpeaking')
        }, 0)
      }
      setTimeout(next, 0)
    }
    /** Once both the Message and the audio came, the next turn starts when the audio has played. */
    function nextTurnOncePlayed() {
      if (!answered || waiting) return
      answered = false
      setTimeout(startWhenPlayed, Math.max(0, playedAt - performance.now()))
    }
    // Audio may still have come after the timer was set.
    function startWhenPlayed() {
      const left = playedAt - performance.now()
      if (left >= 1) return void setTimeout(startWhenPlayed, left)
      startTurn()
    }
    socket.on('message', (data, isBinary) => {
      if (isBinary) {
        playedAt = Math.max(playedAt, performance.now()) + data.length / 32
        if (waiting) {
          waiting = false
          if (measuring) {
            latencies.push(performance.now() - stopAt)
            turns++
          }
          nextTurnOncePlayed()
        }
        return
      }
      const text = data.toString()
      if (text.startsWith('Message {"role":"assistant"')) {
        answered = true
        nextTurnOncePlayed()
      }
      if (text === 'SkipAnswer') resolve(state)
    })
    socket.on('error', reject)
  })
}

const calls = []
for (let i = 0; i < count; i += 50) {
  calls.push(
    ...(await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, j) => call(i + j))))
  )
}
process.send({ type: 'connected' })

process.on('message', (message) => {
  if (message.type === 'start') {
    running = true
    // Stagger the calls over one turn so that StopSpeakings do not all come at once.
    calls.forEach((c, i) => setTimeout(c.startTurn, (i / calls.length) * 1000))
  }
  if (message.type === 'window-start') {
    windowCpu = { usage: process.cpuUsage(), at: performance.now() }
    measuring = true
    latencies.length = 0
    turns = 0
  }
  if (message.type === 'window-end') {
    measuring = false
    running = false
    for (const c of calls) c.socket.terminate()
    // Exit only once the results are through the IPC channel.
    const cpu = process.cpuUsage(windowCpu.usage)
    const cpuPercent = ((cpu.user + cpu.system) / 1000 / (performance.now() - windowCpu.at)) * 100
    process.send({ type: 'window', latencies, turns, cpuPercent }, () => process.exit(0))
  }
})
