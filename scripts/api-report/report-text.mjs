// What is kept of API Extractor's report text. The report locks the surface; whether a declaration
// or the package has a doc comment is not part of it, and documenting must not fail the check.

/**
 * Turns API Extractor's report into the checked-in report of one entry point.
 *
 * @param text - the report as API Extractor wrote it
 * @param importPath - what users import, e.g. `@openmic/core/protocol`
 * @returns the text to compare with, or write to, `api/<entry>.api.md`
 */
export function reportText(text, importPath) {
  return (
    text
      .replace(/\r\n?/g, '\n')
      // API Extractor names the package in the title; a subpath report names the subpath.
      .replace(
        /^## (\w+ )?API Report File for "[^"]*"/m,
        `## $1API Report File for "${importPath}"`
      )
      // A comment line that only says "(undocumented)" goes; on a tag line, only the note goes.
      .replace(/^[ \t]*\/\/ \(undocumented\)\n/gm, '')
      .replace(/^([ \t]*\/\/ .*?) \(undocumented\)$/gm, '$1')
      .replace(/^\/\/ \(No @packageDocumentation comment for this package\)\n+/m, '')
      .replace(/\n*$/, '\n')
  )
}
