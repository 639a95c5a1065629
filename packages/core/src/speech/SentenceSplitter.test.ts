import { describe, expect, it } from 'vitest'
import { SentenceSplitter } from './SentenceSplitter.js'

function split(chunks: string[], maxLength?: number): string[][] {
  const splitter = new SentenceSplitter(maxLength)
  return [...chunks.map((chunk) => splitter.push(chunk)), splitter.flush()]
}

describe('SentenceSplitter', () => {
  it('releases a sentence as soon as the space after its end arrives', () => {
    expect(split(['Hello', ' there.', ' How are', ' you? I am', ' fine'])).toEqual([
      [],
      [],
      ['Hello there.'],
      ['How are you?'],
      [],
      ['I am fine'],
    ])
  })

  it('ends sentences at ! ? … line breaks and after closing quotes', () => {
    expect(split(['Wow! Really… "Yes." (Sure.)\nNext line\n\nLast'])).toEqual([
      ['Wow!', 'Really…', '"Yes."', '(Sure.)', 'Next line'],
      ['Last'],
    ])
  })

  it('does not cut numbers, times or a dot not followed by a space', () => {
    expect(split(['It is 10.45 or 10:45 on example.com today.'])).toEqual([
      [],
      ['It is 10.45 or 10:45 on example.com today.'],
    ])
  })

  it('cuts a long run at its last clause mark, else its last space', () => {
    expect(split(['one two, three four five six', ' seven eight'], 20)).toEqual([
      ['one two,'],
      ['three four five six'],
      ['seven eight'],
    ])
  })

  it('drops pieces with nothing to say', () => {
    expect(split(['... !\n', '  ', ' Ok. ?'])).toEqual([[], [], ['Ok.'], []])
  })

  it('removes markdown, and ends a sentence before closing marks', () => {
    expect(split(['**Hello.** ', '- *first* point\n', '## Done'])).toEqual([
      ['Hello.'],
      ['first point'],
      [],
      ['Done'],
    ])
  })
})
