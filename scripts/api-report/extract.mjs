// Runs API Extractor on the built declarations of one package and returns the report of each entry
// point as text. Comparing and writing are left to the caller, so that the check can name every
// stale report at once and the update can write them without API Extractor's local-build rules.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  CompilerState,
  Extractor,
  ExtractorConfig,
  ExtractorMessageCategory,
} from '@microsoft/api-extractor'
import { reportFileName } from './entry-points.mjs'
import { reportText } from './report-text.mjs'

/**
 * Only two kinds of finding go into a report: a type used by the surface but not exported (users
 * cannot name it) and problems with release tags. Missing release tags, TSDoc syntax and
 * undocumented items are style matters for review, not surface changes, so they stay silent.
 */
const MESSAGES = {
  compilerMessageReporting: { default: { logLevel: 'warning' } },
  extractorMessageReporting: {
    default: { logLevel: 'none' },
    'ae-forgotten-export': { logLevel: 'none', addToApiReportFile: true },
    'ae-incompatible-release-tags': { logLevel: 'none', addToApiReportFile: true },
    'ae-wrong-input-file-type': { logLevel: 'error' },
  },
  tsdocMessageReporting: { default: { logLevel: 'none' } },
}

/** The tsconfig the package is built with: its build settings are those its declarations need. */
function buildTsconfig(packageDir) {
  const candidates = ['tsconfig.build.json', 'tsconfig.json'].map((name) => join(packageDir, name))
  const found = candidates.find((file) => existsSync(file))
  if (!found) throw new Error(`${packageDir} has no tsconfig.build.json or tsconfig.json.`)
  return found
}

/**
 * Builds the API Extractor configuration of one entry point.
 *
 * @param packageDir - absolute folder of the package
 * @param entry - an entry point from `entryPoints()`
 * @param outDir - a scratch folder the report is written to
 */
function configFor(packageDir, entry, outDir) {
  const mainEntryPointFilePath = join(packageDir, entry.types)
  const configObject = {
    projectFolder: packageDir,
    mainEntryPointFilePath,
    bundledPackages: [],
    newlineKind: 'lf',
    enumMemberOrder: 'by-name',
    compiler: {
      // The package's build settings (lib, jsx, types) read the emitted declarations as users do;
      // only the entry files are analysed, and nothing is emitted.
      overrideTsconfig: {
        extends: buildTsconfig(packageDir),
        compilerOptions: {
          rootDir: '.',
          noEmit: true,
          declarationMap: false,
          // Dependencies' declarations are their authors' concern; errors there are not a change
          // of this package's surface.
          skipLibCheck: true,
        },
        include: [],
        files: [mainEntryPointFilePath],
      },
    },
    apiReport: {
      enabled: true,
      reportFileName: reportFileName(entry),
      reportFolder: join(outDir, 'expected'),
      reportTempFolder: outDir,
    },
    docModel: { enabled: false },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    messages: MESSAGES,
  }
  return ExtractorConfig.prepare({
    configObject,
    packageJsonFullPath: join(packageDir, 'package.json'),
  })
}

/**
 * Generates the reports of a package's entry points.
 *
 * @param packageDir - absolute folder of the package
 * @param entries - its entry points, from `entryPoints()`
 * @returns per entry, the report text and API Extractor's messages (`{ entry, text, errors, warnings }`)
 */
export function extractReports(packageDir, entries) {
  const outDir = mkdtempSync(join(tmpdir(), 'api-report-'))
  try {
    const configs = entries.map((entry) => configFor(packageDir, entry, outDir))
    // One TypeScript program serves every entry point of the package.
    const compilerState = CompilerState.create(configs[0], {
      additionalEntryPoints: configs.map((config) => config.mainEntryPointFilePath),
    })
    return entries.map((entry, index) => {
      const errors = []
      const warnings = []
      const result = Extractor.invoke(configs[index], {
        compilerState,
        // The report is compared by the caller: API Extractor compares with an empty folder, and
        // its "copy the file" advice (a console message) is dropped below.
        localBuild: false,
        messageCallback(message) {
          message.handled = true
          const text = message.formatMessageWithLocation(packageDir + '/')
          if (message.logLevel === 'error') errors.push(text)
          else if (
            message.logLevel === 'warning' &&
            message.category !== ExtractorMessageCategory.Console
          )
            warnings.push(text)
        },
      })
      if (result.errorCount > 0 && errors.length === 0)
        errors.push(`API Extractor failed with ${result.errorCount} error(s).`)
      const raw = readFileSync(join(outDir, reportFileName(entry)), 'utf8')
      return { entry, text: reportText(raw, entry.importPath), errors, warnings }
    })
  } finally {
    rmSync(outDir, { recursive: true, force: true })
  }
}
